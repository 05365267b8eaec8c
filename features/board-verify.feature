Feature: Task board: verify gate
  A task's verify overrides the claimer's role verify (R43). A fresh one-shot reviewer judges the
  submission and ends with one verdict line (R44). PASS completes; FAIL returns findings to the
  holder, who keeps the claim; two explicit FAILs park the task with one leader escalation (R45,
  L10), and a parked task refuses resubmission until the leader allows one more attempt
  (send_message with reopen: true to its holder). A missing verdict gets one clarification, then one escalation that is not a failure (W9).
  Each gate run is bound to its submission by a token; a late outcome is ignored and its reviewer
  aborted (L9).

  Background:
    Given an empty task board
    And board teammates "alice, bob" are idle
    And the board has tasks:
      | subject  | description        | verify                               |
      | Fix auth | in packages/api    | Every route checks the session token |
    And board teammate "alice" holds task "fix-auth"

  Scenario: The reviewer gets subject, description, result and the task's criteria
    Given board teammate "alice" has role verify "Role criteria nobody should see"
    When board teammate "alice" submits task "fix-auth" as completed with result "patched 3 routes"
    Then a reviewer is started for task "fix-auth"
    And the reviewer prompt for task "fix-auth" includes "Fix auth, in packages/api, patched 3 routes, Every route checks the session token, VERDICT: PASS"
    And the reviewer prompt for task "fix-auth" does not include "Role criteria nobody should see"

  Scenario: Without a task verify the claimer's role verify is the gate
    Given the board has a task "Docs"
    And board teammate "bob" has role verify "The docs build without warnings"
    And board teammate "bob" holds task "docs"
    When board teammate "bob" submits task "docs" as completed
    Then a reviewer is started for task "docs"
    And the reviewer prompt for task "docs" includes "The docs build without warnings"

  Scenario: PASS completes the task
    When board teammate "alice" submits task "fix-auth" as completed
    And the reviewer of task "fix-auth" answers "All routes checked.\nVERDICT: PASS"
    Then task "fix-auth" is completed

  Scenario: FAIL sends findings back; the holder keeps the claim and may resubmit
    When board teammate "alice" submits task "fix-auth" as completed
    And the reviewer of task "fix-auth" answers "VERDICT: FAIL - /login skips the check"
    Then board teammate "alice" receives findings for task "fix-auth" including "/login skips the check"
    And task "fix-auth" is claimed
    And task "fix-auth" has 1 failed review
    When board teammate "alice" submits task "fix-auth" as completed
    And the reviewer of task "fix-auth" answers "VERDICT: PASS"
    Then task "fix-auth" is completed
    And the leader receives 0 escalations about task "fix-auth"

  Scenario: Two explicit FAILs park the task with its holder and escalate exactly once
    When board teammate "alice" submits task "fix-auth" as completed
    And the reviewer of task "fix-auth" answers "VERDICT: FAIL - first"
    And board teammate "alice" submits task "fix-auth" as completed
    And the reviewer of task "fix-auth" answers "VERDICT: FAIL - second"
    Then task "fix-auth" is parked
    And task "fix-auth" is held by "alice"
    And the leader receives 1 escalation about task "fix-auth"
    And the escalation about task "fix-auth" names board teammate "alice" and says 'send_message({ to: "alice", message: "<what to fix>", reopen: true })'

  # Regression (issue 6): a holder resubmitting a parked task started 12 reviewers in 4 s.
  Scenario: A parked task refuses resubmission at once, with no reviewer
    Given task "fix-auth" is parked with "alice" after two failed reviews
    When board teammate "alice" submits task "fix-auth" as completed
    Then the submission is rejected as "parked" naming "`fix-auth`, 2 failed reviews, Do not resubmit"
    And no reviewer is started
    When board teammate "alice" submits task "fix-auth" as completed
    Then the submission is rejected as "parked" naming "`fix-auth`"
    And no reviewer is started
    And task "fix-auth" is parked

  Scenario: The leader's reopen allows exactly one more attempt; its FAIL parks again without a second escalation
    Given task "fix-auth" is parked with "alice" after two failed reviews
    When the leader reopens board teammate "alice"
    Then board teammate "alice" is told one more attempt of task "fix-auth" is allowed
    When board teammate "alice" submits task "fix-auth" as completed
    Then a reviewer is started for task "fix-auth"
    When the reviewer of task "fix-auth" answers "VERDICT: FAIL - third"
    Then task "fix-auth" is parked
    And task "fix-auth" has 3 failed reviews
    And the leader receives 1 escalation about task "fix-auth"
    When board teammate "alice" submits task "fix-auth" as completed
    Then the submission is rejected as "parked" naming "`fix-auth`, 3 failed reviews"
    And no reviewer is started

  Scenario: The allowed attempt can pass
    Given task "fix-auth" is parked with "alice" after two failed reviews
    When the leader reopens board teammate "alice"
    And board teammate "alice" submits task "fix-auth" as completed
    And the reviewer of task "fix-auth" answers "VERDICT: PASS"
    Then task "fix-auth" is completed

  Scenario: Reopening someone else does not unpark the task
    Given task "fix-auth" is parked with "alice" after two failed reviews
    When the leader reopens board teammate "bob"
    And board teammate "alice" submits task "fix-auth" as completed
    Then the submission is rejected as "parked" naming "`fix-auth`"

  Scenario: A parked task can still be released
    Given task "fix-auth" is parked with "alice" after two failed reviews
    When board teammate "alice" submits task "fix-auth" as failed
    Then task "fix-auth" is pending
    And task "fix-auth" has no holder

  Scenario: A missing verdict gets one clarification, then one escalation that is not a failure
    When board teammate "alice" submits task "fix-auth" as completed
    And the reviewer of task "fix-auth" answers "Looks fine overall."
    Then the reviewer of task "fix-auth" is asked for a clarification
    And task "fix-auth" is in_review
    When the reviewer of task "fix-auth" answers "I believe so."
    Then the leader receives 1 escalation about task "fix-auth"
    And task "fix-auth" is claimed
    And task "fix-auth" has 0 failed reviews
    And the reviewer of task "fix-auth" was asked for 1 clarification

  Scenario: A clarification that yields a verdict decides as usual
    When board teammate "alice" submits task "fix-auth" as completed
    And the reviewer of task "fix-auth" answers "Hmm."
    And the reviewer of task "fix-auth" answers "VERDICT: PASS"
    Then task "fix-auth" is completed

  Scenario Outline: An outcome that arrives after the holding changed is ignored and its reviewer aborted
    When board teammate "alice" submits task "fix-auth" as completed
    And <change>
    Then the reviewer of task "fix-auth" is aborted
    When the earlier reviewer of task "fix-auth" answers "VERDICT: PASS"
    Then the reviewer outcome is ignored
    And task "fix-auth" is not completed

    Examples:
      | change                                                                        |
      | board teammate "alice" submits task "fix-auth" as failed                      |
      | board teammate "alice" stops                                                  |
      | board teammate "alice" crashes                                                |
      | the leader supersedes task "fix-auth"                                         |

  Scenario: An outcome after a release and a new claim cannot complete the new holding
    When board teammate "alice" submits task "fix-auth" as completed
    And board teammate "alice" submits task "fix-auth" as failed
    And board teammate "bob" claims task "fix-auth"
    And the earlier reviewer of task "fix-auth" answers "VERDICT: PASS"
    Then the reviewer outcome is ignored
    And task "fix-auth" is claimed
    And task "fix-auth" is held by "bob"

  Scenario Outline: Reading odd reviewer text
    Then the reviewer text "<text>" reads as <verdict>

    Examples:
      | text                                              | verdict                   |
      | VERDICT: PASS                                     | pass                      |
      | verdict: pass                                     | pass                      |
      | Verdict:Pass.                                     | pass                      |
      | **VERDICT: PASS**                                 | pass                      |
      | I checked it.\nVERDICT: PASS\nThanks!             | pass                      |
      | VERDICT: FAIL - no tests                          | fail with "no tests"      |
      | verdict: fail – no tests                          | fail with "no tests"      |
      | VERDICT: FAIL                                     | fail with ""              |
      | VERDICT: FAIL\n- no tests                         | fail with "- no tests"    |
      | VERDICT: FAIL - a\nVERDICT: FAIL - b              | fail with "b"             |
      | VERDICT: FAIL - a\nVERDICT: PASS                  | missing                   |
      | VERDICT: PASS/FAIL                                | missing                   |
      | Looks good                                        | missing                   |
