Feature: Task board: one-shot notices
  An idle teammate with no assignment hears once about each claimable task whose resources do not
  overlap an active assignment (R36, R54, L11). A declined task never wakes it again; a released
  task re-arms. Notices to one teammate are at least PI_TEAMMATE_NOTICE_PACE_MS apart (default 5
  minutes), except the synchronous notice from task_create. Tasks are shared out among idle
  teammates rather than broadcast, so one task wakes one teammate at a time. An idle team with
  nothing claimable makes no model call.

  Background:
    Given an empty task board
    And the board clock reads 0 minutes

  Scenario: task_create notifies an idle teammate at once
    Given board teammates "alice" are idle
    When the leader creates a task "Write docs"
    Then board teammate "alice" is notified about "write-docs"

  Scenario: A teammate hears about a task once; a declined task never wakes it again
    Given board teammates "alice" are idle
    And the leader creates a task "Write docs"
    When 60 minutes pass on the board clock
    And the board plans notices
    Then nobody is notified

  Scenario: A released task re-arms the notice
    Given board teammates "alice, bob" are idle
    And the leader creates a task "Write docs"
    And board teammate "alice" is busy
    And board teammate "bob" holds task "write-docs"
    And board teammate "bob" submits task "write-docs" as failed
    And board teammate "alice" is idle
    When 10 minutes pass on the board clock
    And the board plans notices
    Then board teammate "alice" is notified about "write-docs"
    When 10 minutes pass on the board clock
    And the board plans notices
    Then nobody is notified

  Scenario: Notices to one teammate are paced; the synchronous create notice is not
    Given board teammates "alice" are idle
    And the board has a task "First"
    And the board plans notices
    And the board has a task "Second"
    When 4 minutes pass on the board clock
    And the board plans notices
    Then nobody is notified
    When 1 minute passes on the board clock
    And the board plans notices
    Then board teammate "alice" is notified about "second"
    When the leader creates a task "Third"
    Then board teammate "alice" is notified about "third"

  Scenario Outline: PI_TEAMMATE_NOTICE_PACE_MS sets the pace in milliseconds
    Given PI_TEAMMATE_NOTICE_PACE_MS is "<value>"
    Then the notice pace is <pace> ms

    Examples:
      | value  | pace   |
      |        | 300000 |
      | 60000  | 60000  |
      | 0      | 0      |
      | 5m     | 300000 |

  Scenario: No notice about a task overlapping an active assignment
    Given board teammates "alice" are idle
    And board teammate "carol" has a direct assignment on "packages/api"
    When the leader creates a task from:
      | subject   | Fix auth          |
      | resources | packages/api/auth |
    Then nobody is notified
    And the create result says "stays pending until a compatible teammate is idle"

  Scenario: Busy teammates and teammates with an assignment are not notified
    Given board teammates "alice, bob, carol" are idle
    And board teammate "alice" is busy
    And board teammate "bob" has a direct assignment
    And the board has a task "Held"
    And board teammate "carol" holds task "held"
    When the leader creates a task "Write docs"
    Then nobody is notified

  Scenario: An idle team with nothing claimable gets no notice and no model call
    Given board teammates "alice, bob" are idle
    And the board has tasks:
      | subject | dependsOn |
      | A       |           |
      | B       | a         |
    And board teammate "carol" holds task "a"
    When 60 minutes pass on the board clock
    And the board plans notices
    Then nobody is notified

  Scenario: Tasks are shared out among idle teammates, one task per teammate at a time
    Given board teammates "alice, bob" are idle
    And the board has tasks:
      | subject |
      | A       |
      | B       |
    When the board plans notices
    Then board teammate "alice" is notified about "a"
    And board teammate "bob" is notified about "b"

  Scenario: A task offered to a teammate still busy with the notice goes to another once it declines
    Given board teammates "alice, bob" are idle
    And board teammate "bob" is busy
    And the leader creates a task "Write docs"
    And board teammate "alice" is busy
    And board teammate "bob" is idle
    When the board plans notices
    Then nobody is notified
    When board teammate "alice" is idle
    And the board plans notices
    Then board teammate "bob" is notified about "write-docs"
