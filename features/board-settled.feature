Feature: Task board: results and the board-settled summary
  Per-task completions never wake the leader. When every task is completed, parked or superseded
  and no teammate works, the leader gets one board_settled summary per settle episode; it comes
  again only after new work settled (issue 6). task_list previews each completed task's result on
  one bounded line and shows the whole result of one task on request.

  Background:
    Given an empty task board
    And board teammates "alice, bob" are idle

  Scenario: Two tasks completing give one summary, not one per task
    Given the board has a task "Write docs"
    And the board has a task "Fix lint"
    And board teammate "alice" holds task "write-docs"
    And board teammate "bob" holds task "fix-lint"
    When board teammate "alice" submits task "write-docs" as completed with result "docs written"
    And board teammate "alice" is idle
    And the shell checks whether the board settled
    Then the leader has received 0 board summaries
    When board teammate "bob" submits task "fix-lint" as completed with result "lint clean"
    And the shell checks whether the board settled
    Then the leader has received 0 board summaries
    When board teammate "bob" is idle
    And the shell checks whether the board settled
    And the shell checks whether the board settled
    Then the leader has received 1 board summary
    And the last board summary names "2 tasks (2 completed), `write-docs` [completed], docs written, `fix-lint` [completed], lint clean"

  Scenario: New work settling again gives one more summary
    Given the board has a task "First"
    And board teammate "alice" holds task "first"
    When board teammate "alice" submits task "first" as completed with result "one"
    And board teammate "alice" is idle
    And the shell checks whether the board settled
    Then the leader has received 1 board summary
    When the leader creates a task "Second"
    And the shell checks whether the board settled
    Then the leader has received 1 board summary
    When board teammate "bob" claims task "second"
    And board teammate "bob" submits task "second" as completed with result "two"
    And the shell checks whether the board settled
    Then the leader has received 2 board summaries
    And the last board summary names "2 tasks (2 completed), `second` [completed]"

  Scenario: A board with no tasks never settles
    When the shell checks whether the board settled
    Then the leader has received 0 board summaries

  Scenario: A parked task settles the board; the summary says how to allow one more attempt
    Given the board has tasks:
      | subject  | verify                |
      | Fix auth | Every route is gated  |
    And board teammate "alice" holds task "fix-auth"
    And task "fix-auth" is parked with "alice" after two failed reviews
    And board teammate "alice" is idle
    When the shell checks whether the board settled
    Then the leader has received 1 board summary
    And the last board summary names "`fix-auth` [parked], with @alice after 2 failed reviews, reopen: true"

  Scenario: task_list previews a long result on one bounded line and shows it whole on request
    Given the board has a task "Write report"
    And board teammate "alice" holds task "write-report"
    When board teammate "alice" submits task "write-report" as completed with the long result "line of the report\n" repeated 100 times
    And the leader lists the board
    Then the listing includes "result: line of the report line of the report"
    And the listing includes '(full result: task_list({ taskId: "write-report" }))'
    And the listing line of task "write-report" is at most 320 characters long
    When the leader views task "write-report"
    Then the listing includes "Status: completed by @alice"
    And the listing includes "Result (1899 chars, as submitted):"

  Scenario: Viewing an unknown task names it and lists the ids that exist
    Given the board has a task "Write report"
    When the leader views task "nope"
    Then the listing includes 'no task "nope" on this board. Task ids: `write-report`'
