/**
 * Shapes of the worktree module (R20, L23, W14): a prepared worktree and the report of its capture.
 * Plain data, JSON-safe, so the leader may keep a `Worktree` in its own records.
 */
import type { GitRunOptions } from "./git-runner.ts";
import type { LockOptions } from "./worktree-locks.ts";

/** Options of every function that captures worktrees: how to run git, and the shared locks. */
export interface CaptureOptions extends GitRunOptions, LockOptions {}

/** A teammate's git worktree, as returned by `prepareWorktree` and passed back to capture. */
export interface Worktree {
  /** The teammate name as given at spawn (case kept). */
  name: string;
  /** The spawn id it was prepared for. */
  spawnId: string;
  /** Absolute path of the worktree: `<worktreesRoot>/<worktreeDirName(name, spawnId)>`. */
  dir: string;
  /**
   * Where the teammate should start: `dir` plus the path of `repoCwd` inside its repository
   * (a leader in `<repo>/packages/app` gives `<dir>/packages/app`). Equals `dir` at the repo root.
   */
  cwd: string;
  /** The branch checked out in `dir`: `worktreeBranch(name, spawnId)`, e.g. `pi-team/alice-3f2a9c1e`. */
  branch: string;
  /** Full sha the teammate's work is measured from: `git diff <base>..<branch>` shows all of it. */
  base: string;
  /** Full sha the branch was created at: `base`, or the tip of `from` for a successor. */
  start: string;
  /** Absolute top-level dir of the repository the worktree belongs to (the `repoCwd` work tree). */
  repoRoot: string;
  /** The branch a successor continued (`fromBranch`), when there was one. */
  from?: string;
}

/** What a capture (or discard or reclaim) did with one worktree and what its branch now holds. */
export interface WorktreeCapture {
  /** The teammate name (as recorded; lowercased when recovered from a dir without a record). */
  name: string;
  /** The worktree dir that was captured. */
  dir: string;
  branch: string;
  /** Full sha; see {@link Worktree.base}. */
  base: string;
  /**
   * The worktree's own branch `branch` still exists. False when it held no work and was deleted
   * (L23), or was already gone; work may then still be on `otherBranches`.
   */
  kept: boolean;
  /**
   * This call made a capture commit of uncommitted work (tracked edits and untracked, non-ignored
   * files): on `branch`, or on a rescue branch in `otherBranches` when HEAD had left `branch`.
   */
  committed: boolean;
  /** Commits in `base..branch` (the teammate's own plus a capture commit); 0 when not kept. */
  commits: number;
  /** `git diff --stat <base>..<branch>`, trimmed; empty when not kept or no file differs. */
  diffstat: string;
  /** Exactly `git diff <base>..<branch>` with the full base sha, to run in `repoRoot`. Meaningful when kept. */
  diffCommand: string;
  /**
   * Branches besides `branch` that hold work of this worktree, found when its HEAD had left
   * `branch` (a `git checkout` by the teammate, a detached HEAD). Empty in the usual case.
   */
  otherBranches: OtherBranch[];
  /** The worktree dir no longer exists. False when it had to be left in place (see `nestedRepos`, `notes`). */
  removed: boolean;
  /**
   * Nested git repositories found in the dir (relative paths, sorted): their files and commits
   * exist only there, so the dir was left in place (`removed: false`) and they were not committed.
   */
  nestedRepos: string[];
  /** Anything unusual, one sentence each: a stale lock removed, HEAD on another branch, dir left. */
  notes: string[];
}

/** A branch other than the worktree's own that holds work found in the worktree. */
export interface OtherBranch {
  branch: string;
  /**
   * True: a rescue branch `<branch>-rescue-<sha8>` this capture made for commits that were on no
   * branch (a detached HEAD, or the capture commit of leftovers on top of another branch).
   * False: the branch the teammate had checked out itself, left exactly as it was.
   */
  created: boolean;
  /** `git diff <base>...<branch>` (changes since it forked from the base), to run in the repository. */
  diffCommand: string;
}

/** Input of `prepareWorktree`. */
export interface PrepareWorktreeOptions extends CaptureOptions {
  /** A dir inside the git work tree the teammate should work on (usually the leader's cwd). */
  repoCwd: string;
  /** Where worktree dirs and their records live; created with mode 0700 (the lead passes `<agentDir>/worktrees/<sessionKey>`). */
  worktreesRoot: string;
  /** Teammate name (`[A-Za-z][A-Za-z0-9._-]{0,63}`). */
  name: string;
  /** Spawn id of this spawn; its first 8 letters or digits name the branch and dir. */
  spawnId: string;
  /** A local branch to continue (a predecessor's kept branch); default: start from HEAD of `repoCwd`. */
  fromBranch?: string;
  /**
   * The base to measure from, e.g. the predecessor's `base`. Must be an ancestor of the start point.
   * Default: the base recorded on `fromBranch` (git config `branch.<fromBranch>.piTeamBase`), else the start point.
   */
  base?: string;
}

/** A dir (or record) under a worktrees root that could not be captured. */
export interface UnclaimedWorktree {
  /** Absolute path of the dir (it may not exist when only its record was found). */
  dir: string;
  /** True when it was removed because it provably held no work (no files at all). */
  removed: boolean;
  /** What was found, and what would let it be captured or cleaned up by hand. */
  reason: string;
}

/** Outcome of `reclaimWorktrees`: dirs captured, and dirs reported but left as they were. */
export interface ReclaimResult {
  captures: WorktreeCapture[];
  unclaimed: UnclaimedWorktree[];
}

/** Outcome of `prepareWorktree`: the new worktree, and what happened to leftovers of the same name. */
export interface PrepareResult {
  worktree: Worktree;
  /** Leftovers of earlier spawns of this name (e.g. a crashed session), captured before creating the new one. */
  reclaimed: ReclaimResult;
}

/** Input of `reclaimWorktrees`. */
export interface ReclaimOptions extends CaptureOptions {
  /** The root given to `prepareWorktree`. A missing root is not an error (nothing to reclaim). */
  worktreesRoot: string;
  /** Dirs (absolute paths) for which this returns true are skipped: living teammates' worktrees. */
  keep?: (dir: string) => boolean;
}
