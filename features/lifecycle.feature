Feature: teammate lifecycle
  One incarnation of a teammate as the pure transition sees it: mail goes into the child one
  send at a time, a shutdown is no crash, a run that ends without a report is rescued once,
  and silence gets one notice per episode (R24, R27, R52, R53, R56, L22, L31).

  Scenario: mail during a steer follows right after it, not at the end of the run
    Given a teammate working on a kickoff
    When mail "first" arrives
    And mail "second" arrives
    Then the teammate has 1 send in flight carrying "first"
    When the child accepts the send
    Then the teammate has 1 send in flight carrying "second"

  Scenario: mail to an idle teammate wakes it with one prompt
    Given an idle teammate
    When mail "one" arrives
    Then the teammate has 1 send in flight carrying "one"
    And the send is a "wake"

  Scenario: a shutdown during a run is no crash and starts nothing more
    Given a teammate working on a kickoff
    When the leader asks it to stop
    And its run settles
    And its child closes
    Then the teammate is stopped as requested
    And the leader got no harness event
    And what it holds is to be released
    When its holdings are released
    Then the teammate is stopped for good

  Scenario: a spawn that gives up releases exactly what it acquired
    Given a starting teammate with its worktree made
    When its spawn gives up
    Then the teammate is stopped as requested
    And its worktree is to be discarded
    And the leader got no harness event

  Scenario: an unexpected close is a crash the leader hears about once
    Given a teammate working on a kickoff
    When its child closes
    And its child closes
    Then the leader got the harness event "teammate_crashed" 1 time

  Scenario: a run that ends without a report gets one reminder, then one leader event
    Given a teammate working on a kickoff
    When its run settles
    Then the send is a "reminder"
    When the child accepts the send
    And its run settles
    And its run settles
    Then the leader got the harness event "teammate_no_report" 1 time

  Scenario: a terminal report means nothing is owed
    Given a teammate working on a kickoff
    When it reports "completed"
    And its run settles
    Then nothing is in flight
    And the leader got no harness event

  Scenario Outline: silence gets one notice per episode
    Given stall thresholds of <stall> ms and <silent> ms
    And a teammate working on a kickoff
    When <seconds> s pass in silence
    Then the leader got <notices> health notices

    Examples:
      | stall | silent | seconds | notices |
      | 60000 | 10000  | 5       | 0       |
      | 60000 | 10000  | 11      | 1       |
      | 60000 | 10000  | 600     | 1       |
      | 60000 | 0      | 30      | 0       |
      | 60000 | 0      | 61      | 1       |
      | 0     | 10000  | 600     | 0       |
