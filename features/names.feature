@names
Feature: Teammate names
  A teammate name is a file name and a mail address, so it starts with a letter, uses only
  letters, digits, ".", "_" and "-", has at most 64 characters, avoids the words the harness uses
  (leader, harness, all, *, task-board, in any case) and is unique, ignoring case, among the
  living teammates. A stopped teammate's name may be reused (R22, W13).

  Background:
    Given the living teammates are "alice, Bob"

  Scenario Outline: valid names are accepted
    When a new teammate asks for the name "<name>"
    Then the name is accepted

    Examples:
      | name        |
      | carol       |
      | code.review |
      | back_end-2  |
      | Z           |

  Scenario: a 64-character name is accepted, a 65-character one is refused
    When a new teammate asks for a name of 64 letters
    Then the name is accepted
    When a new teammate asks for a name of 65 letters
    Then the name is refused as "too_long" mentioning "65 characters"

  Scenario Outline: the first character must be an ASCII letter
    When a new teammate asks for the name "<name>"
    Then the name is refused as "bad_start" mentioning "must start with an ASCII letter"

    Examples:
      | name   |
      | 9lives |
      | _alice |
      | -dash  |
      | ålice  |

  Scenario Outline: only letters, digits, ".", "_" and "-" are accepted
    When a new teammate asks for the name "<name>"
    Then the name is refused as "bad_chars" naming the character "<char>"

    Examples:
      | name      | char  |
      | al ice    | space |
      | src/main  | /     |
      | ok:no     | :     |

  Scenario Outline: reserved names are refused in any case
    When a new teammate asks for the name "<name>"
    Then the name is refused as "reserved" mentioning "reserved"

    Examples:
      | name       |
      | leader     |
      | Leader     |
      | HARNESS    |
      | all        |
      | *          |
      | task-board |

  Scenario: a name clashing with a living teammate, ignoring case, is refused
    When a new teammate asks for the name "ALICE"
    Then the name is refused as "taken" mentioning "alice"

  Scenario: the name of a stopped teammate may be reused
    Given the living teammate "Bob" has stopped
    When a new teammate asks for the name "bob"
    Then the name is accepted
