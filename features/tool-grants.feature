@tool-grants
Feature: Teammate tool grants
  Teammates start with --no-extensions, so a teammate can have only Pi's built-in tools (read,
  bash, powershell, edit, write, grep, find, ls) and the four team tools (send_message, task_list,
  task_claim, task_submit), which every teammate gets. The effective grant is the role's tools in
  file order, then the team tools, without duplicates. A role naming any other tool is refused
  before a process exists, naming the tool and listing what is available (L5), unless the role
  loads extensions, whose tools cannot be checked before the teammate starts
  (features/role-extensions.feature).

  Scenario Outline: the grant is the role's tools, then the team tools, in order, de-duplicated
    Given a role with "<tools field>"
    When its tool grant is checked
    Then the grant is "<grant>"

    Examples:
      | tools field             | grant                                                        |
      | tools: read, bash       | read, bash, send_message, task_list, task_claim, task_submit |
      | tools: bash, read, bash | bash, read, send_message, task_list, task_claim, task_submit |
      | tools: grep, task_list  | grep, task_list, send_message, task_claim, task_submit       |
      | tools: []               | send_message, task_list, task_claim, task_submit             |

  Scenario: a role without a tools field gets only the team tools
    Given a role without a tools field
    When its tool grant is checked
    Then the grant is "send_message, task_list, task_claim, task_submit"

  Scenario: an MCP tool is refused, naming it and listing the known tools
    Given a role with "tools: read, mcp_foo"
    When its tool grant is checked
    Then the grant is refused for "mcp_foo"
    And the grant refusal says "Unknown tool \"mcp_foo\" in the role's tools field."
    And the grant refusal says "children start with --no-extensions"
    And the grant refusal says "Known tools: read, bash, powershell, edit, write, grep, find, ls."
    And the grant refusal says "Team tools (always granted): send_message, task_list, task_claim, task_submit."

  Scenario Outline: a near miss is suggested
    Given a role with "tools: <tool>"
    When its tool grant is checked
    Then the grant is refused for "<tool>"
    And the grant refusal says "\"<tool>\" (did you mean \"<suggestion>\"?)"

    Examples:
      | tool        | suggestion   |
      | Read        | read         |
      | gerp        | grep         |
      | wirte       | write        |
      | send_mesage | send_message |
