Feature: Task board: creating and listing tasks
  Only the leader creates tasks, on this session's board (R34). A task id is a readable slug of
  its subject, at most 48 characters, with -2, -3 on clashes. References are checked when the
  task is created, and every rejection names the ids involved (issue 3, item 1). task_list is one
  view definition for both sides, bounded for large boards (R46, item 2).

  Background:
    Given an empty task board

  Scenario: A task id is a readable slug of its subject, with -2 and -3 on clashes
    When the leader creates a task "Fix auth middleware findings"
    And the leader creates a task "Fix auth middleware findings"
    And the leader creates a task "Fix auth: middleware findings!"
    Then the board lists task ids "fix-auth-middleware-findings, fix-auth-middleware-findings-2, fix-auth-middleware-findings-3"
    And task "fix-auth-middleware-findings-2" is pending

  Scenario: A long subject gives an id of at most 48 characters
    When the leader creates a task "Refactor the authentication middleware so that every handler validates tokens"
    Then the task is created with id "refactor-the-authentication-middleware-so-that"

  Scenario Outline: Invalid references are rejected, naming the ids
    Given the board has tasks:
      | subject | dependsOn |
      | Old     |           |
      | Base    |           |
      | Dep     | old       |
    And board teammate "alice" has completed task "base"
    When the leader creates a task from:
      | subject    | <subject>    |
      | dependsOn  | <dependsOn>  |
      | supersedes | <supersedes> |
    Then the create is rejected as "<reason>" naming "<names>"

    Examples:
      | subject  | dependsOn | supersedes | reason                 | names          |
      | New      | ghost     |            | unknown_ref            | ghost          |
      | New      |           | ghost, old | unknown_ref            | ghost          |
      | Fix auth | fix-auth  |            | self_reference         | fix-auth       |
      | New      | old       | old        | depends_and_supersedes | old            |
      | New      |           | base       | supersede_completed    | base           |
      | New      | dep       | old        | cycle                  | new, dep, old  |

  Scenario: Depending on superseded work is rejected, naming the replacement
    Given the board has a task "Old"
    And the board has tasks:
      | subject | supersedes |
      | New     | old        |
    When the leader creates a task from:
      | subject   | Later |
      | dependsOn | old   |
    Then the create is rejected as "superseded_dependency" naming "old, new"

  Scenario: Arrays given as JSON strings are accepted
    Given the board has a task "Base"
    When the leader calls task_create with arguments:
      """
      {"subject": "Next", "dependsOn": "[\"base\"]", "resources": "[\"packages/api/auth\"]"}
      """
    Then the task is created with id "next"
    And task "next" depends on "base"
    And task "next" locks the resources "packages/api/auth"

  Scenario Outline: Unparseable arguments are rejected explicitly, naming the field and the value
    When the leader calls task_create with arguments '<arguments>'
    Then the create input is rejected naming the field "<field>" and the value '<value>'

    Examples:
      | arguments                                  | field      | value     |
      | {"subject":"X","dependsOn":"[base"}        | dependsOn  | "[base"   |
      | {"subject":"X","resources":"a, b"}         | resources  | "a, b"    |
      | {"subject":"X","supersedes":"[1,2]"}       | supersedes | "[1,2]"   |
      | {"subject":"X","resources":["../secret"]}  | resource   | ../secret |

  Scenario: Every board tool schema keeps a plain object root
    Then every board tool parameter schema has a plain object root

  Scenario: The create result names the board and the idle teammates it notified
    Given board teammates "alice" are idle
    When the leader creates a task "Write docs"
    Then the create result says "Created task `write-docs`"
    And the create result says "on board"
    And the create result says "Notified idle teammate: @alice"

  Scenario: With no living teammate the create result asks for teammate_spawn
    When the leader creates a task "Write docs"
    Then the create result says "call teammate_spawn"
    And task "write-docs" is pending

  Scenario: With no eligible idle teammate the task waits for a compatible one
    Given board teammate "alice" has a direct assignment
    When the leader creates a task "Write docs"
    Then the create result says "stays pending until a compatible teammate is idle"

  Scenario: The leader's listing shows counts, tasks and the roster
    Given board teammates "alice, bob" are idle
    And the board has tasks:
      | subject | dependsOn | resources |
      | Build   |           | api       |
      | Ship    | build     |           |
    And board teammate "alice" holds task "build"
    When the leader lists the board
    Then the listing includes "2 tasks (1 claimed, 1 pending)"
    And the listing includes "`build` [claimed] Build · by @alice · resources: api"
    And the listing includes "`ship` [pending] Ship · waits for build"
    And the listing includes "Roster (2):"

  Scenario: A worker's listing is the same view with the peers it can message
    Given board teammates "alice, bob, carol" are idle
    And the board has a task "Build"
    And board teammate "alice" holds task "build"
    When board teammate "alice" lists the board
    Then the listing includes "`build` [claimed] Build · by @alice (you)"
    And the listing includes "Peers (send_message to reach them):"
    And the listing includes "@bob · idle"
    And the listing does not include "Roster ("

  Scenario: A large board lists one page plus counts
    Given the board has 10000 tasks
    When the leader lists the board
    Then the listing shows 50 tasks
    And the listing includes "Board: 10000 tasks (10000 pending)."
    And the listing includes "Showing tasks 1–50 of 10000. Call task_list({ offset: 50 }) for more."
