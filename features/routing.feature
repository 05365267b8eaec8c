Feature: send_message routing
  One messaging tool, routed by destination: a worker's report goes to its own outbox,
  peer mail goes to the recipient's inbox, and the leader's message steers a working
  teammate or waits for the next wake of any other (R23–R33, L15).

  Background:
    Given living teammates "alice, bob, carol"

  Scenario: a worker report to the leader goes to its outbox
    When "alice" sends to "leader" with status "completed"
    Then the message is routed as a report with status "completed"
    And the report is terminal

  Scenario: a report without status is intermediate
    When "alice" sends to "leader" without status
    Then the message is routed as a report with status "in_progress"
    And the report is not terminal

  Scenario: a report with an unknown status is refused
    When "alice" sends to "leader" with status "done"
    Then the send is refused mentioning "completed"

  Scenario: peer mail goes to the recipient's inbox
    When "alice" sends to "Bob" without status
    Then the message is routed as peer mail to "bob"

  Scenario: peer mail may not carry a status
    When "alice" sends to "bob" with status "completed"
    Then the send is refused mentioning "only for reports"

  Scenario: an unknown recipient is refused with the living names
    When "alice" sends to "dave" without status
    Then the send is refused mentioning "Living teammates: bob, carol"

  Scenario: a teammate cannot mail itself
    When "alice" sends to "alice" without status
    Then the send is refused mentioning "is you"

  Scenario Outline: the leader steers a working teammate and queues for any other
    Given teammate "bob" is <status>
    When the leader sends to "bob"
    Then the leader's message is <route>

    Examples:
      | status   | route  |
      | working  | steer  |
      | idle     | queue  |
      | starting | queue  |

  Scenario: the leader cannot message a stopped teammate
    Given teammate "carol" is stopped
    When the leader sends to "carol"
    Then the leader's send is refused mentioning "Living teammates: alice, bob"

  Scenario: a stray status on a leader message is ignored with a note
    Given teammate "bob" is idle
    When the leader sends to "bob" with status "completed"
    Then the leader's message is queue
    And the leader is told "was ignored"

  Scenario: intermediate reports are all delivered, even with identical bodies
    Given a report gate for spawn "s1"
    When reports arrive: "s1 in_progress, s1 in_progress, s1 completed"
    Then the delivered reports are "in_progress, in_progress, completed"

  Scenario: after the first terminal report later reports are suppressed
    Given a report gate for spawn "s1"
    When reports arrive: "s1 completed, s1 in_progress, s1 failed"
    Then the delivered reports are "completed"

  Scenario: a wake prompt reopens the gate for a new assignment
    Given a report gate for spawn "s1"
    When reports arrive: "s1 completed"
    And the teammate is woken
    And reports arrive: "s1 completed"
    Then the delivered reports are "completed, completed"

  Scenario: a record from an earlier incarnation is dropped
    Given a report gate for spawn "s2"
    When reports arrive: "s1 in_progress, s2 in_progress"
    Then the delivered reports are "in_progress"
