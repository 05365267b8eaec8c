@session-roles
Feature: Session roles passed inline to teammate_spawn
  There are no built-in roles (R9). When no definition file fits, the leader passes the role
  inline as `definition`: the frontmatter fields plus `prompt` as the body, as an object or as
  that object written as a JSON string (L26). It is validated like a file and held in memory for
  this session only, with scope "session". A later inline definition of the same name replaces
  it (R8, L13). Inline input never overrides or overwrites a definition file, and a file always
  wins over a session role (R7). With `persist` it is written as a project file, never over one.

  Scenario: an inline role is registered for the session and resolves
    When "analyst" is spawned with the inline definition:
      """
      { "description": "Reads logs and explains failures", "tools": "read,bash", "prompt": "You read logs." }
      """
    Then the spawn is accepted
    And agent "analyst" resolves as a session role described "Reads logs and explains failures"
    And agent "analyst" has the session tools "read, bash"

  Scenario: a corrected inline definition replaces the earlier session role
    When "analyst" is spawned with the inline definition:
      """
      { "description": "first try", "prompt": "You read logs." }
      """
    And "analyst" is spawned with the inline definition:
      """
      { "description": "corrected", "tools": ["read"], "prompt": "You read logs carefully." }
      """
    Then the spawn is accepted
    And agent "analyst" resolves as a session role described "corrected"
    And agent "analyst" has the session tools "read"

  Scenario: an inline definition for a name a file defines is refused, naming the file
    Given the project agent file "reviewer.md":
      """
      ---
      description: team reviewer
      ---
      Review.
      """
    When "reviewer" is spawned with the inline definition:
      """
      { "description": "my own reviewer", "prompt": "Review differently." }
      """
    Then the spawn is refused saying "an inline definition never overrides or overwrites a definition file"
    And the refusal names the project file "reviewer.md"
    And the spawn is refused saying "spawn with agent: \"reviewer\" and no definition"
    And no session role "reviewer" is registered
    And agent "reviewer" resolves from the project file "reviewer.md" described "team reviewer"

  Scenario: the definition may arrive as a JSON string (L26)
    When "scout" is spawned with the inline definition as a JSON string:
      """
      {"description":"looks around","model":"inherit","prompt":"Look around and report."}
      """
    Then the spawn is accepted
    And agent "scout" resolves as a session role described "looks around"

  Scenario: a string that is not JSON is refused, saying what is accepted
    When "scout" is spawned with the inline definition string "description: looks around"
    Then the spawn is refused saying "definition is a string that is not valid JSON"
    And the spawn is refused saying "accepted: an object { description?, tools?, model?, verify?, worktree?, extensions?, prompt, persist? }"
    And no session role "scout" is registered

  Scenario: an unknown key is refused, not silently dropped
    When "scout" is spawned with the inline definition:
      """
      { "description": "looks around", "tool": "read", "prompt": "Look around." }
      """
    Then the spawn is refused saying "unknown field definition.tool (did you mean \"tools\"?)"
    And no session role "scout" is registered

  Scenario: a field of the wrong form is named as definition.<field> with its value
    When "scout" is spawned with the inline definition:
      """
      { "description": "looks around", "model": "gpt", "prompt": "Look around." }
      """
    Then the spawn is refused saying "definition.model has value \"gpt\", which is not accepted"
    And the spawn is refused saying "\"inherit\""

  Scenario: persist writes a project file once; a second persist of the name is refused
    When "docs" is spawned with the inline definition:
      """
      { "description": "Writes docs", "tools": ["read", "write"], "prompt": "You write docs.", "persist": "project" }
      """
    Then the spawn is accepted
    And the project agent file "docs.md" reads:
      """
      ---
      description: Writes docs
      tools:
        - read
        - write
      ---
      You write docs.
      """
    And agent "docs" resolves from the project file "docs.md" described "Writes docs"
    And no session role "docs" is registered
    Given the project agent file "docs.md" is remembered
    When "docs" is spawned with the inline definition:
      """
      { "description": "Writes other docs", "prompt": "You write other docs.", "persist": "project" }
      """
    Then the spawn is refused saying "never overrides or overwrites a definition file"
    And the refusal names the project file "docs.md"
    And the project agent file "docs.md" is unchanged

  Scenario: a file added later in the session wins over the session role
    When "helper" is spawned with the inline definition:
      """
      { "description": "session helper", "prompt": "Help." }
      """
    Then agent "helper" resolves as a session role described "session helper"
    Given the project agent file "helper.md":
      """
      ---
      description: file helper
      ---
      Help as the team agreed.
      """
    Then agent "helper" resolves from the project file "helper.md" described "file helper"
