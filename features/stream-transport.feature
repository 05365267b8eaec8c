Feature: the stream transport: the pipe is the identity
  A teammate that shares no files with the leader (a launcher other than local) sends its
  records on its own RPC pipe. The leader owns every child's pipe, so a record on alice's pipe
  is alice's: no record can name another sender, and none needs a seal. The records become the
  same lifecycle events as file records, routed by the same rules.

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
