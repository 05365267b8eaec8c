Feature: Task board: submissions, supersession and holders that go away
  The holder owns a claimed task until task_submit completes or releases it (R38, R39). failed
  returns the task to pending with the error kept and notices re-armed; completed passes the
  effective verify gate, or completes at once without one (items 4). supersedes retires obsolete
  work for audit, re-points pending dependents, and lets a live holder keep its lock until it
  acknowledges or stops (R40, R41, item 5). Shutdown, crash and reload release claims (R21, R56).

  Background:
    Given an empty task board
    And board teammates "alice, bob" are idle

  Scenario: failed returns the task to pending with the error kept
    Given the board has a task "Migrate db"
    And board teammate "alice" holds task "migrate-db"
    When board teammate "alice" submits task "migrate-db" as failed with result "cannot reach the database"
    Then the submission is accepted as "released"
    And task "migrate-db" is pending
    And task "migrate-db" keeps the error "cannot reach the database"

  Scenario: completed without a verify gate completes the task and unblocks dependents
    Given the board has tasks:
      | subject | dependsOn |
      | Build   |           |
      | Ship    | build     |
    And board teammate "alice" holds task "build"
    When board teammate "alice" submits task "build" as completed
    Then the submission is accepted as "completed"
    And task "build" is completed
    And no reviewer is started
    When board teammate "bob" claims the next task
    Then the claim is accepted for task "ship"

  Scenario: completed with a verify gate goes to review
    Given the board has tasks:
      | subject | verify                     |
      | Build   | The build output is clean. |
    And board teammate "alice" holds task "build"
    When board teammate "alice" submits task "build" as completed
    Then the submission is accepted as "in_review"
    And task "build" is in_review
    And a reviewer is started for task "build"

  Scenario: Only the holder's current incarnation may submit
    Given the board has a task "Build"
    And board teammate "alice" holds task "build"
    When board teammate "bob" submits task "build" as completed
    Then the submission is rejected as "not_holder" naming "alice, bob"
    When a stale incarnation of "alice" submits task "build" as completed
    Then the submission is rejected as "not_holder" naming "earlier incarnation"
    And task "build" is claimed

  Scenario: Superseding retires pending work and re-points its pending dependents
    Given the board has tasks:
      | subject        | dependsOn      |
      | Old auth patch |                |
      | Deploy         | old-auth-patch |
    When the leader creates a task from:
      | subject    | Fix auth middleware findings |
      | supersedes | old-auth-patch               |
    Then task "old-auth-patch" is superseded by "fix-auth-middleware-findings"
    And task "deploy" depends on "fix-auth-middleware-findings"
    And the create result says "Re-pointed dependents: `deploy`"
    And the board lists task ids "old-auth-patch, deploy, fix-auth-middleware-findings"

  Scenario: A live holder of superseded work is told, keeps its lock, and cannot complete it
    Given the board has tasks:
      | subject | resources |
      | Old     | api/auth  |
    And board teammate "alice" holds task "old"
    When the leader creates a task from:
      | subject    | New      |
      | supersedes | old      |
      | resources  | api/auth |
    Then board teammate "alice" is told task "old" is superseded
    And task "old" is superseded by "new"
    When board teammate "bob" claims task "new"
    Then the claim is rejected as "resource_conflict" naming "alice, old"
    When board teammate "alice" submits task "old" as completed
    Then the submission is rejected as "superseded" naming "new"
    When board teammate "alice" submits task "old" as failed
    Then the submission is accepted as "acknowledged"
    And task "old" has no holder
    When board teammate "bob" claims task "new"
    Then the claim is accepted for task "new"

  Scenario: A holder of superseded work that stops releases the lock
    Given the board has tasks:
      | subject | resources |
      | Old     | api       |
    And board teammate "alice" holds task "old"
    And the board has tasks:
      | subject | supersedes | resources |
      | New     | old        | api       |
    When board teammate "alice" stops
    Then task "old" has no holder
    And task "old" is superseded by "new"
    When board teammate "bob" claims task "new"
    Then the claim is accepted for task "new"

  Scenario Outline: Shutdown and crash release the teammate's claim
    Given the board has a task "Build"
    And board teammate "alice" holds task "build"
    When board teammate "alice" <ends>
    Then task "build" is pending
    And task "build" keeps the error "<why>"
    When board teammate "bob" claims task "build"
    Then the claim is accepted for task "build"

    Examples:
      | ends    | why              |
      | stops   | was shut down    |
      | crashes | crashed          |
