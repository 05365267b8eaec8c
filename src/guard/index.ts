/**
 * Edit guards of teammates as pure rules: the write scope (team state, and the shared tree for
 * worktree teammates), Pi's configuration (the user's), the resource guard (held tags), the
 * stale-write guard (file versions) and Pi's tool-path resolution. Wiring: src/worker/edit-guards.ts.
 */
export { checkHardLinks, checkResourceGuard, chooseHoldings, LAST_KNOWN_NOTE, othersHoldings, pathUnderTag, projectRelative, resourceBlockMessage } from "./resource-guard.ts";
export type { Holding, HoldingsChoice, ResourceCheckInput, ResourceVerdict, RosterRead } from "./resource-guard.ts";
export { checkStaleWrite, FileVersions, hashContent } from "./stale-write.ts";
export type { DiskState, PendingCall, Seen, SettleOutcome, StaleReason, StaleVerdict, StaleWriteInput } from "./stale-write.ts";
export { resolveToolPath } from "./tool-path.ts";
export { checkWriteScope, relativeWithin } from "./write-scope.ts";
export type { PathForms, ScopeReason, ScopeVerdict, WriteScopeInput } from "./write-scope.ts";
export { checkPiConfig } from "./pi-config.ts";
export type { PiConfigInput, PiConfigVerdict } from "./pi-config.ts";
