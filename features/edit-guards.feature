@edit-guards
Feature: Guarded edits in the shared working tree
  Teammates that share the leader's working tree get two guards on Pi's edit and write tools.
  The resource guard blocks an edit or write into a path another living teammate holds as a
  resource tag (a board claim or a direct assignment; same "/"-boundary rule as R50). The
  stale-write guard blocks a whole-file write over an existing file this teammate has not seen,
  whole, in its current state. Every teammate is kept out of the team's own state (runtime dir,
  board dir) and out of Pi's configuration, which is the user's: a .pi dir of the project or of its
  own worktree, and the user's Pi agent dir. A worktree teammate is kept out of the shared
  project, and is otherwise free in its own worktree. bash is not guarded.

  Background:
    Given a shared project with teammates "alice, bob"
    And "alice" runs with edit guards

  Scenario: an edit into a resource another teammate holds is blocked, naming holder and task
    Given "bob" holds "src/api" for task "t-3"
    And a file "src/api/auth.ts" with "v1"
    When "alice" edits "src/api/auth.ts" replacing "v1" with "v2"
    Then the call is blocked mentioning 'src/api/auth.ts is inside resource "src/api", which teammate "bob" holds for task t-3'
    And the call is blocked mentioning 'send_message to "bob"'
    And the file "src/api/auth.ts" contains "v1"

  Scenario: a resource of a direct assignment is named as such
    Given "bob" holds "src/api" for its direct assignment
    When "alice" writes "src/api/new.ts" with "x"
    Then the call is blocked mentioning 'which teammate "bob" holds for its direct assignment'
    And the file "src/api/new.ts" does not exist

  Scenario: the holder's own edit passes
    Given "alice" holds "src/api" for task "t-3"
    And a file "src/api/auth.ts" with "v1"
    When "alice" edits "src/api/auth.ts" replacing "v1" with "v2"
    Then the call passes
    And the file "src/api/auth.ts" contains "v2"

  Scenario: a stopped holder blocks nothing
    Given "bob" holds "src/api" for task "t-3"
    And "bob" is stopped
    And a file "src/api/auth.ts" with "v1"
    When "alice" edits "src/api/auth.ts" replacing "v1" with "v2"
    Then the call passes

  Scenario Outline: only the tag's path and what lies under it at a "/" boundary are guarded
    Given "bob" holds "a/b" for task "t-1"
    And a file "<path>" with "v1"
    When "alice" edits "<path>" replacing "v1" with "v2"
    Then the call <outcome>

    Examples:
      | path        | outcome    |
      | a/b         | is blocked |
      | a/b/c.ts    | is blocked |
      | a/b/c/d.ts  | is blocked |
      | a/bc        | passes     |
      | a/bc/x.ts   | passes     |
      | docs/a.md   | passes     |

  Scenario: a write over a file this teammate never read is blocked
    Given a file "notes.md" with "old"
    When "alice" writes "notes.md" with "new"
    Then the call is blocked mentioning "notes.md already exists and you have not read it. Read it first"
    And the file "notes.md" contains "old"

  Scenario: a write after a read passes
    Given a file "notes.md" with "old"
    When "alice" reads "notes.md"
    And "alice" writes "notes.md" with "new"
    Then the call passes
    And the file "notes.md" contains "new"

  Scenario: a write after someone else changed the file is blocked
    Given a file "notes.md" with "old"
    When "alice" reads "notes.md"
    And someone else changes "notes.md" to "theirs"
    And "alice" writes "notes.md" with "new"
    Then the call is blocked mentioning "notes.md changed on disk since you last read or wrote it"
    And the call is blocked mentioning "Re-read it first"
    And the file "notes.md" contains "theirs"

  Scenario: writing again after one's own write or edit passes
    Given a file "notes.md" with "old"
    When "alice" reads "notes.md"
    And "alice" writes "notes.md" with "one"
    And "alice" edits "notes.md" replacing "one" with "two"
    And "alice" writes "notes.md" with "three"
    Then every call passes
    And the file "notes.md" contains "three"

  Scenario: creating a new file passes
    When "alice" writes "src/new.ts" with "hello"
    Then the call passes
    And the file "src/new.ts" contains "hello"

  Scenario: a read with offset/limit does not license a whole-file write
    Given a file "notes.md" of 30 lines
    When "alice" reads lines 1 to 5 of "notes.md"
    And "alice" writes "notes.md" with "line 1 (rewritten)"
    Then the call is blocked mentioning "you have read only part of notes.md"
    And the call is blocked mentioning "Read the whole file first (read without offset/limit), or use edit"
    When "alice" reads "notes.md"
    And "alice" writes "notes.md" with "line 1 (rewritten)"
    Then the call passes

  Scenario: a read Pi truncated does not license a whole-file write, an edit still works
    Given a file "big.md" of 3000 lines
    When "alice" reads "big.md"
    And "alice" writes "big.md" with "short"
    Then the call is blocked mentioning "you have read only part of big.md"
    When "alice" edits "big.md" replacing "line 2999" with "line 2999 (edited)"
    Then the call passes

  Scenario: a teammate cannot rewrite the roster or the board with its own tools
    Given "bob" holds "src/api" for task "t-3"
    When "alice" reads the roster
    And "alice" writes the roster with "{}"
    Then the call is blocked mentioning "is in the team's runtime dir"
    And the call is blocked mentioning "send_message to reach the leader or a teammate"
    And the roster still lists "bob" as a holder
    When "alice" writes "claims/alice.json" in the board dir with "{}"
    Then the call is blocked mentioning "is in the team's board dir"
    And the call is blocked mentioning "task_claim to take a task, task_submit to hand in a result"

  Scenario: a roster broken after a valid one keeps the last holdings in force
    Given "bob" holds "src/api" for task "t-3"
    And a file "src/api/auth.ts" with "v1"
    When "alice" edits "src/api/auth.ts" replacing "v1" with "v2"
    Then the call is blocked
    When roster.json is corrupted from outside the guarded tools
    And "alice" edits "src/api/auth.ts" replacing "v1" with "v2"
    Then the call is blocked mentioning 'which teammate "bob" holds for task t-3'
    And the call is blocked mentioning "roster.json cannot be read right now, so this uses the holdings it last showed"
    And the file "src/api/auth.ts" contains "v1"

  Scenario: a worktree teammate cannot write into the shared project
    Given "alice" runs in her own worktree
    And a file "src/api/auth.ts" with "v1"
    When "alice" writes the shared project's "src/api/auth.ts" with "v2"
    Then the call is blocked mentioning "is in the shared project"
    And the call is blocked mentioning "You work in your own worktree"
    And the call is blocked mentioning "write under your worktree"
    And the file "src/api/auth.ts" contains "v1"
    When "alice" writes the roster with "{}"
    Then the call is blocked mentioning "is in the team's runtime dir"
    When "alice" writes a scratch file outside the project
    Then the call passes

  Scenario: inside its own worktree a worktree teammate has no resource or stale-write guard
    Given "alice" runs in her own worktree
    And "bob" holds "src/api" for task "t-3"
    And a file "src/api/auth.ts" in her worktree with "v1"
    And a file "notes.md" in her worktree with "old"
    When "alice" edits "src/api/auth.ts" replacing "v1" with "v2"
    Then the call passes
    When "alice" writes "notes.md" with "new"
    Then the call passes
    And the file "notes.md" in her worktree contains "new"

  Scenario Outline: no teammate writes the project's Pi configuration, by any path form
    Given a file ".pi/agents/worker.md" with "v1"
    When "alice" writes "<path>" with "export default () => {}"
    Then the call is blocked mentioning "is in the project's Pi configuration"
    And the call is blocked mentioning "Pi configuration is the user's"
    And the call is blocked mentioning "ask the leader with send_message"
    And the file ".pi/agents/worker.md" contains "v1"

    Examples:
      | path                            |
      | .pi/agents/worker.md            |
      | .pi/agents/pwn.ts               |
      | .pi/extensions/pwn.ts           |
      | .pi/settings.json               |
      | .pi/SYSTEM.md                   |
      | .pi/APPEND_SYSTEM.md            |
      | src/../.pi/agents/new.md        |
      | @.pi/agents/new.md              |
      | .PI/agents/new.md               |
      | packages/ui/.pi/extensions/x.ts |

  Scenario: a role file can be read but not edited
    Given a file ".pi/agents/worker.md" with "tools: read"
    When "alice" reads ".pi/agents/worker.md"
    Then the call passes
    When "alice" edits ".pi/agents/worker.md" replacing "tools: read" with "extensions: [./pwn.ts]"
    Then the call is blocked mentioning "edit blocked: .pi/agents/worker.md is in the project's Pi configuration"
    And the file ".pi/agents/worker.md" contains "tools: read"

  Scenario: no teammate writes the user's Pi agent dir
    When "alice" writes "extensions/pwn.ts" in the agent dir with "export default () => {}"
    Then the call is blocked mentioning "is in the user's Pi agent dir"
    And the call is blocked mentioning "Pi configuration is the user's"

  Scenario: a worktree teammate writes neither its worktree's .pi nor the project's
    Given "alice" runs in her own worktree
    When "alice" writes ".pi/agents/worker.md" with "extensions: [./pwn.ts]"
    Then the call is blocked mentioning "is in your worktree's Pi configuration, which becomes the project's once your branch is merged"
    When "alice" writes the shared project's ".pi/extensions/pwn.ts" with "export default () => {}"
    Then the call is blocked mentioning "is in the project's Pi configuration"
    And the file ".pi/extensions/pwn.ts" does not exist
