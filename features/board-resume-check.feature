Feature: Task board: a resumed board is checked
  Before each board.json write the leader records, in its own Pi session, the sha256 of the text
  and the tasks that changed (issue 18). At start, a board.json that is neither its last recorded
  write nor the one before it was not written by the leader: it is flagged, and what it says is
  not taken as fact. With a record, the leader's own board is restored (changed tasks drop their
  claims, tasks it never wrote are dropped); with none, every claim, completion and result is reset.

  Background:
    Given an empty task board
    And board teammates "alice, w2" are idle

  Scenario: A board the leader wrote resumes as is, with no flag
    Given the board has tasks:
      | subject | resources |
      | A       | api       |
      | B       |           |
    And board teammate "alice" holds task "a"
    And the leader records and writes the board
    When the board is resumed with no teammates living
    Then the resume is not flagged
    And task "a" is pending
    And task "a" keeps the error "@alice no longer lives (board reloaded)"

  Scenario: A completion written in a peer's name while the leader was down is not taken as fact
    Given the board has a task "A"
    And board teammate "w2" holds task "a"
    And the leader records and writes the board
    When board.json is rewritten with task "a" completed by "w2" with result "FORGED-BOARD-RESULT"
    And the board is resumed with no teammates living
    Then the resume is flagged as "board.json was changed outside the leader"
    And task "a" is pending
    And task "a" has a last error starting "board.json was changed outside the leader: it said completed by \"w2\" with a result"
    And the resumed board does not contain "FORGED-BOARD-RESULT"

  Scenario: A completion the leader recorded stands, and a task it never wrote is dropped
    Given the board has a task "A"
    And board teammate "alice" holds task "a"
    And board teammate "alice" submits task "a" as completed with result "real work"
    And the leader records and writes the board
    When board.json gains a task "injected" the leader never created
    And the board is resumed with no teammates living
    Then the resume is flagged as "- `injected`: never written by the leader (it said pending) → dropped"
    And task "a" is completed
    And the resumed board has no task "injected"

  Scenario: A board with no record of the leader's writes has its claims, completions and results reset
    Given the board has tasks:
      | subject |
      | A       |
      | B       |
    And board teammate "alice" holds task "a"
    And board teammate "alice" submits task "a" as completed with result "RESULT-OF-A"
    And board teammate "w2" holds task "b"
    When the board is resumed with no record of the leader's writes
    Then the resume is flagged as "board.json could not be checked"
    And task "a" is pending
    And task "b" is pending
    And the resumed board does not contain "RESULT-OF-A"
