Feature: Task board: claims
  The leader alone applies a worker's claim, after checking identity, one assignment at a time,
  completed dependencies and resource overlap (R37, R49, R50, W11). The decision goes back to
  the worker, on its own pipe, with a reason. Without a task id, the first claimable task is taken.

  Background:
    Given an empty task board
    And board teammates "alice, bob" are idle

  Scenario: Without a task id the first claimable task by creation order is claimed
    Given the board has tasks:
      | subject | dependsOn |
      | First   |           |
      | Second  | first     |
      | Third   |           |
    When board teammate "alice" claims the next task
    Then the claim is accepted for task "first"
    When board teammate "bob" claims the next task
    Then the claim is accepted for task "third"

  Scenario: A task whose dependencies are not all completed is blocked, naming them
    Given the board has tasks:
      | subject | dependsOn   |
      | A       |             |
      | B       |             |
      | C       | a, b        |
    And board teammate "alice" holds task "a"
    When board teammate "bob" claims task "c"
    Then the claim is rejected as "blocked" naming "a, b"

  Scenario: A completed chain unblocks the next task
    Given the board has tasks:
      | subject | dependsOn |
      | A       |           |
      | B       | a         |
    And board teammate "alice" has completed task "a"
    When board teammate "bob" claims task "b"
    Then the claim is accepted for task "b"

  Scenario: One assignment at a time: a holder cannot claim a second task
    Given the board has tasks:
      | subject |
      | A       |
      | B       |
    And board teammate "alice" holds task "a"
    When board teammate "alice" claims task "b"
    Then the claim is rejected as "has_assignment" naming "alice, a"

  Scenario: One assignment at a time: a direct assignment excludes board claims
    Given the board has a task "A"
    And board teammate "bob" has a direct assignment
    When board teammate "bob" claims task "a"
    Then the claim is rejected as "has_assignment" naming "bob"

  Scenario Outline: Resources overlap when equal or related at a slash boundary
    Given board teammate "bob" holds a task on "<held>"
    Then a task on "<wanted>" can be claimed by "alice": <claimable>

    Examples:
      | held         | wanted             | claimable |
      | a/b          | a/b                | no        |
      | a/b          | a/b/c              | no        |
      | a/b/c        | a/b                | no        |
      | a            | a/b/c/d            | no        |
      | a/b          | a/bc               | yes       |
      | packages/api | packages/api-client| yes       |
      | a/b/c        | a/b/d              | yes       |

  Scenario: A resource conflict names the holder and the task it holds
    Given the board has tasks:
      | subject | resources        |
      | Auth    | packages/api     |
      | Login   | packages/api/auth|
    And board teammate "bob" holds task "auth"
    When board teammate "alice" claims task "login"
    Then the claim is rejected as "resource_conflict" naming "packages/api, bob, auth"

  Scenario: Another teammate's direct assignment locks its resources
    Given the board has tasks:
      | subject | resources |
      | Docs    | docs/api  |
    And board teammate "carol" has a direct assignment on "docs"
    When board teammate "alice" claims task "docs"
    Then the claim is rejected as "resource_conflict" naming "carol"

  Scenario: The next-task claim skips tasks whose resources are locked
    Given the board has tasks:
      | subject | resources |
      | A       | x         |
      | B       | x/y       |
      | C       | z         |
    And board teammate "alice" holds task "a"
    When board teammate "bob" claims the next task
    Then the claim is accepted for task "c"

  Scenario: Eight teammates race for one task: exactly one wins
    Given the board has a task "Hot"
    When board teammates "w1, w2, w3, w4, w5, w6, w7, w8" all claim task "hot"
    Then exactly one claim wins and the other 7 are rejected as "not_pending" naming the winner

  Scenario Outline: Claims on unclaimable tasks are rejected with a reason
    Given the board has tasks:
      | subject | supersedes |
      | Done    |            |
      | Old     |            |
      | New     | old        |
    And board teammate "bob" has completed task "done"
    When board teammate "alice" claims task "<task>"
    Then the claim is rejected as "<reason>" naming "<names>"

    Examples:
      | task  | reason     | names |
      | done  | completed  | done  |
      | old   | superseded | new   |
      | ghost | not_found  | ghost |

  Scenario: Nothing claimable is a rejection with counts
    When board teammate "alice" claims the next task
    Then the claim is rejected as "none_claimable" naming "0 pending"
