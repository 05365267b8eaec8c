@role-extensions
Feature: Roles load Pi extensions into their teammates
  Teammates start with --no-extensions and only this package loaded, so a role that needs a Pi
  extension (a permission gate, an extension tool) names it in its `extensions` frontmatter field:
  a YAML list of paths, each relative to the directory of the agent file, absolute, or starting
  with ~/. Each becomes `-e <absolute path>` after the package's own `-e`, in field order. A path
  where nothing exists refuses the spawn before any process exists, naming the role file, the
  field and the value. An inline role may carry the field too; its relative paths start at the
  leader's working directory. A role that loads extensions may grant tools Pi does not know,
  since its extensions may register them.

  Scenario: a role's extensions are loaded after the package, in field order
    Given the project file "tools/gate.ts"
    And the project file "tools/audit/index.ts"
    And the project agent file "gate.md":
      """
      ---
      description: asks before it deletes
      tools: read, ask_gate
      extensions:
        - ../../tools/gate.ts
        - ../../tools/audit
      ---
      You ask the gate before you delete anything.
      """
    When the agents are discovered in a trusted project
    And teammate "ann" is planned from agent "gate"
    Then the teammate loads the package, then the project paths "tools/gate.ts, tools/audit"
    And the teammate is granted "read, ask_gate, send_message, task_list, task_claim, task_submit"

  Scenario: an extension path where nothing exists refuses the spawn, naming file, field and value
    Given the project agent file "gate.md":
      """
      ---
      description: asks before it deletes
      extensions: [./missing-gate.ts]
      ---
      You ask the gate.
      """
    When the agents are discovered in a trusted project
    And teammate "ann" is planned from agent "gate"
    Then the plan is refused naming the project file "gate.md"
    And the plan is refused saying "field \"extensions\" has the value \"./missing-gate.ts\""
    And the plan is refused saying "where nothing exists"
    And no command line was built

  Scenario: an extensions field that is not a list of paths makes the file invalid
    Given the project agent file "gate.md":
      """
      ---
      description: asks before it deletes
      extensions: ./gate.ts
      ---
      You ask the gate.
      """
    When the agents are discovered in a trusted project
    Then an error names the project file "gate.md", the field "extensions" and the value "./gate.ts"
    And no agents are discovered

  Scenario: an inline role's relative extension paths start at the leader's working directory
    Given the project file "tools/gate.ts"
    When teammate "ann" is planned from the inline role "gate":
      """
      { "description": "asks first", "extensions": ["tools/gate.ts"], "prompt": "You ask the gate." }
      """
    Then the teammate loads the package, then the project paths "tools/gate.ts"
