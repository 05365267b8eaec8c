Feature: compaction of a teammate's context
  A teammate whose context passed PI_TEAMMATE_COMPACT_AT (percent of its window, default 80, 0
  off) is compacted at its next assignment boundary: after a terminal report or a board
  submission, once its run settled, never mid-run. At most one compaction per boundary. The
  leader's model is never woken for it, and mail that arrives meanwhile is held, then delivered
  (Pi rejects prompts while it compacts). Issue 8.

  Scenario: past the threshold, a teammate is compacted after its terminal report, once its run settled
    Given the compaction threshold is 80%
    And @ada works on a direct assignment
    And @ada's context is at 85% of its window
    When @ada sends its "completed" report
    Then @ada's child was asked to compact 0 times
    When @ada's run settles
    Then @ada's child was asked to compact 1 time
    And the last compaction of @ada is "done" by "auto"
    And the leader's model is woken only for @ada's report

  Scenario: below the threshold nothing is compacted
    Given the compaction threshold is 80%
    And @ada works on a direct assignment
    And @ada's context is at 79% of its window
    When @ada sends its "completed" report
    And @ada's run settles
    Then @ada's child was asked to compact 0 times

  Scenario: an intermediate report is no boundary
    Given the compaction threshold is 80%
    And @ada works on a direct assignment
    And @ada's context is at 95% of its window
    When @ada sends its "in_progress" report
    And @ada's run settles
    Then @ada's child was asked to compact 0 times

  Scenario: a board submission is a boundary too
    Given the compaction threshold is 80%
    And @ada works on a board task
    And @ada's context is at 90% of its window
    When the board accepts a submission by @ada
    And @ada's run settles
    Then @ada's child was asked to compact 1 time

  Scenario: a failing compaction is not retried until the next boundary
    Given the compaction threshold is 80%
    And @ada works on a direct assignment
    And @ada's context is at 95% of its window
    And Pi fails @ada's compactions with "Summarization failed: 500"
    When @ada sends its "completed" report
    And @ada's run settles
    Then the last compaction of @ada is "failed" by "auto"
    When mail "more" wakes @ada
    And @ada's run settles
    Then @ada's child was asked to compact 1 time
    And the leader's model is woken only for @ada's report

  Scenario: a threshold of 0 turns automatic compaction off
    Given the compaction threshold is 0%
    And @ada works on a direct assignment
    And @ada's context is at 99% of its window
    When @ada sends its "completed" report
    And @ada's run settles
    Then @ada's child was asked to compact 0 times

  Scenario: mail that arrives while a teammate compacts is held, then delivered
    Given the compaction threshold is 80%
    And @ada works on a direct assignment
    And @ada's context is at 90% of its window
    And Pi takes its time to compact @ada
    When @ada sends its "completed" report
    And @ada's run settles
    And mail "hello" arrives for @ada
    Then nothing is sent to @ada
    When Pi finishes compacting @ada
    Then @ada is woken with "hello"

  Scenario: compacting a working teammate by hand is refused
    Given the compaction threshold is 80%
    And @ada works on a direct assignment
    When the user compacts @ada
    Then the console says "@ada is working; not compacted (Pi would abort its run). Try again once it is idle."
    And @ada's child was asked to compact 0 times
