/** The public surface of src/harness/: what other folders may import. */
export * from "./harness-types.ts";
export * from "./harness.ts";
export * from "./worktree-reclaim.ts";
export * from "./worktree-report.ts";
export { sessionFileIn } from "./teammate-sessions.ts";
