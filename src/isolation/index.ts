/**
 * Teammate isolation: git worktrees per spawn, captured onto kept branches (R20, L23, W14).
 * Reference: references/worktrees.md.
 */
export { discardWorktree, localBranchExists, prepareWorktree } from "./worktree.ts";
export { captureWorktree } from "./worktree-capture.ts";
export { WorktreeLocks, type LockOptions } from "./worktree-locks.ts";
export { reclaimWorktrees } from "./worktree-reclaim.ts";
export {
  BASE_CONFIG_KEY,
  BRANCH_PREFIX,
  CAPTURE_IDENTITY_ARGS,
  isDirOfName,
  worktreeBranch,
  worktreeDirName,
} from "./worktree-naming.ts";
export { WORKTREE_RECORD_VERSION } from "./worktree-record.ts";
export type { GitRunOptions } from "./git-runner.ts";
export type {
  CaptureOptions,
  OtherBranch,
  PrepareResult,
  PrepareWorktreeOptions,
  ReclaimOptions,
  ReclaimResult,
  UnclaimedWorktree,
  Worktree,
  WorktreeCapture,
} from "./worktree-types.ts";
