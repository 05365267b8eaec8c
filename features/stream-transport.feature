Feature: the stream transport: the pipe is the identity
  A teammate that shares no files with the leader (a launcher other than local) sends its
  records on its own RPC pipe. The leader owns every child's pipe, so a record on alice's pipe
  is alice's: no record can name another sender, and none needs a seal. The records become the
  same lifecycle events as file records, routed by the same rules. The leader's answers travel on
  the pipe for every teammate: a file teammate's board decision takes the same path.

  Background:
    Given stream teammates "alice, bob"

  Scenario: a report on alice's pipe is alice's report, whatever it claims
    When alice's pipe carries a "completed" report "done" that names "bob" as its sender
    Then alice's queue gets one report from "alice" with status "completed"
    And bob's queue gets nothing

  Scenario: peer mail on alice's pipe reaches bob from alice
    When alice's pipe carries mail to "BOB" saying "hi" that names "leader" as its sender
    Then bob's queue gets mail from "alice" saying "hi"
    And alice's pipe is answered "ok" with "bob"

  Scenario: mail to a teammate that does not live is refused on the pipe
    When alice's pipe carries mail to "carol" saying "hi" that names "alice" as its sender
    Then alice's pipe is answered "refused" with "is not a living teammate"
    And bob's queue gets nothing

  Scenario: a record sent twice is delivered once
    When alice's pipe carries a "in_progress" report "one" that names "alice" as its sender
    And alice's pipe carries the same record again
    Then alice's queue gets one report from "alice" with status "in_progress"

  Scenario: a pair that chatters past the peer-pair cap is cut, with one event for the leader (W19)
    When alice and bob send each other 40 peer messages on their pipes
    Then the leader has one "peer_pair_cut" event naming "alice" and "bob" with the count 40
    When bob's pipe carries mail to "alice" saying "one more" that names "bob" as its sender
    And alice's pipe carries mail to "bob" saying "and more" that names "alice" as its sender
    Then bob's last pipe answer is "refused" with "you and alice have exchanged 40 peer messages"
    And alice's last pipe answer is "refused" with "Report to the leader instead"
    And 40 pieces of peer mail were delivered between alice and bob
    And the leader still has one "peer_pair_cut" event

  Scenario: the leader's involvement with either member lifts the cut (W19)
    Given alice and bob sent each other 40 peer messages on their pipes
    When the leader messages "bob"
    And alice's pipe carries mail to "bob" saying "again" that names "alice" as its sender
    Then alice's last pipe answer is "ok" with "bob"

  Scenario: a file teammate's board decision is answered on its own pipe, like a stream teammate's
    Given file teammate "carol"
    When the board decides carol's intent "i1" with "Claimed task t: T."
    Then carol's pipe is answered "ok" with "Claimed task t"
    And alice's pipe carries nothing
    And bob's pipe carries nothing
