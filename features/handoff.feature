@handoff
Feature: handoffFrom: a successor that knows what its stopped predecessor was doing
  teammate_spawn({ ..., handoffFrom: "old" }) builds the successor's kickoff from the stopped
  predecessor's latest assignment, the board tasks it held (named, never transferred: its stop
  released them, and the successor must claim them again through the board), its latest reports
  and its kept worktree branch. A living or unknown predecessor is refused (R16).

  Scenario: a living predecessor is refused
    Given a living teammate "alice"
    When a successor is spawned with handoffFrom "alice"
    Then the handoff is refused mentioning "still living" and "teammate_shutdown"

  Scenario: an unknown predecessor is refused, listing who could hand off
    Given a stopped teammate "alice"
    And a living teammate "bob"
    When a successor is spawned with handoffFrom "carol"
    Then the handoff is refused mentioning "no teammate named \"carol\"" and "can hand off: alice."

  Scenario: an unfinished assignment is handed on as the successor's kickoff
    Given a stopped teammate "Alice"
    And its latest assignment was "Port the parser to the new AST."
    And it reported "in_progress": "lexer fixed, parser half done"
    And its work is kept on branch "pi-team/alice-1234abcd" based on "0123456789abcdef0123"
    When a worktree successor is spawned with handoffFrom "alice"
    Then the handoff is accepted
    And the handoff goes as a kickoff
    And the kickoff says "You take over from @Alice"
    And the kickoff says "Its latest assignment (unfinished):"
    And the kickoff says "Port the parser to the new AST."
    And the kickoff says "lexer fixed, parser half done"
    And the kickoff says "your worktree starts from that branch"
    And the kickoff says "Continue its assignment where it left off"

  Scenario: board tasks it held are named, not transferred, and the board stays open to the successor
    Given a stopped teammate "alice"
    And its latest assignment was "Port the parser to the new AST."
    And it finished that assignment
    And it held board task "port-parser" "Port the parser" when it stopped
    And it reported "failed": "tests red in lexer"
    When a worktree successor is spawned with handoffFrom "alice"
    Then the handoff goes as mail at its first wake
    And the kickoff says "Its latest assignment (finished: it sent its terminal report):"
    And the kickoff says "`port-parser`: Port the parser"
    And the kickoff says "nothing was transferred to you"
    And the kickoff says "claim it yourself with task_claim"
    And the kickoff says "claim the board tasks above that fit your role"

  Scenario: with the leader's own prompt the successor has a direct assignment and leaves the tasks on the board
    Given a stopped teammate "alice"
    And it held board task "port-parser" "Port the parser" when it stopped
    When a shared-tree successor is spawned with handoffFrom "alice" and prompt "Only finish the docs."
    Then the handoff goes as a kickoff
    And the kickoff says "you cannot claim board tasks now"

  Scenario: a shared-tree successor is told how to see the kept branch, and the leader's prompt comes last
    Given a stopped teammate "alice"
    And its work is kept on branch "pi-team/alice-1234abcd" based on "0123456789abcdef0123"
    When a shared-tree successor is spawned with handoffFrom "alice" and prompt "Only finish the docs."
    Then the kickoff says "git diff 0123456789ab..pi-team/alice-1234abcd"
    And the kickoff ends with "Only finish the docs."

  Scenario: only the latest three reports are handed on
    Given a stopped teammate "alice"
    And it reported "in_progress": "one"
    And it reported "in_progress": "two"
    And it reported "in_progress": "three"
    And it reported "completed": "four"
    When a worktree successor is spawned with handoffFrom "alice"
    Then the kickoff does not say "one"
    And the kickoff says "four"

  Scenario: a worktree left in place is named, so the successor can find work that is only there
    Given a stopped teammate "alice"
    And its worktree was left in place at "/agent/worktrees/k/alice-1234abcd"
    When a worktree successor is spawned with handoffFrom "alice"
    Then the kickoff says "still at /agent/worktrees/k/alice-1234abcd"
