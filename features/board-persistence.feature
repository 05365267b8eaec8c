Feature: Task board: persistence and reload
  The board lives in <agent dir>/tasks/<session key>/board.json, versioned, written atomically
  and only when it changed, coalesced under load (R42, R58, L24). A corrupt or unreadable board
  is reported and never treated as empty (L8). On reload, claims of teammates that no longer live
  return to pending and superseded tasks lose dead holders (R60).

  Background:
    Given an empty task board
    And board teammates "alice, bob" are idle

  Scenario: A saved board reloads with the same tasks and states
    Given the board has tasks:
      | subject | dependsOn | resources |
      | A       |           | api       |
      | B       | a         |           |
    And board teammate "alice" holds task "a"
    When the board is saved and reloaded with living teammates "alice, bob"
    Then task "a" is claimed
    And task "a" is held by "alice"
    And task "b" depends on "a"
    And the board file has format version 1

  Scenario: Only changes ask to persist; rejections do not
    Given the board has a task "A"
    When board teammate "alice" claims task "a"
    Then the last board operation asks to persist
    When board teammate "bob" claims task "a"
    Then the last board operation does not ask to persist
    When the board plans notices
    Then the last board operation does not ask to persist

  Scenario: A burst of 1000 claims is written as a few coalesced snapshots
    Given the board has 1000 tasks
    When 1000 teammates each claim a task 1 ms apart with snapshots at most every 250 ms
    Then at most 6 snapshots are written
    And the last snapshot holds the board's final revision

  Scenario Outline: A corrupt or unreadable board is reported, never treated as empty
    When board.json contains '<text>'
    Then loading board.json fails as "<reason>"
    And the failure says the file must not be overwritten

    Examples:
      | text                                                               | reason              |
      |                                                                    | empty               |
      | {"version":1,"tasks":[                                             | corrupt_json        |
      | {"tasks":[]}                                                       | invalid_schema      |
      | {"version":2,"revision":0,"nextSeq":1,"nextGate":1,"tasks":[]}     | unsupported_version |
      | {"version":1,"revision":0,"nextSeq":1,"nextGate":1,"tasks":[{}]}   | invalid_schema      |

  Scenario: On reload, claims of teammates that no longer live return to pending
    Given the board has tasks:
      | subject | resources |
      | A       | api       |
      | B       |           |
    And board teammate "alice" holds task "a"
    And board teammate "bob" holds task "b"
    When the board is saved and reloaded with living teammates "bob"
    Then task "a" is pending
    And task "b" is claimed
    And the reload released "a"

  Scenario: On reload, superseded tasks lose dead holders
    Given the board has a task "Old"
    And board teammate "alice" holds task "old"
    And the board has tasks:
      | subject | supersedes |
      | New     | old        |
    When the board is saved and reloaded with living teammates "bob"
    Then task "old" is superseded by "new"
    And task "old" has no holder

  Scenario: On reload, a living holder's interrupted review starts again
    Given the board has tasks:
      | subject | verify  |
      | A       | It works |
    And board teammate "alice" holds task "a"
    And board teammate "alice" submits task "a" as completed
    When the board is saved and reloaded with living teammates "alice"
    Then task "a" is in_review
    And a reviewer is started for task "a"
