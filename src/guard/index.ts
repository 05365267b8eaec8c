/**
 * Edit guards of shared-tree teammates as pure rules: the resource guard (held tags), the
 * stale-write guard (file versions) and Pi's tool-path resolution. Wiring: src/worker/edit-guards.ts.
 */
export { checkResourceGuard, othersHoldings, pathUnderTag, projectRelative, resourceBlockMessage } from "./resource-guard.ts";
export type { Holding, ResourceCheckInput, ResourceVerdict } from "./resource-guard.ts";
export { checkStaleWrite, FileVersions, hashContent } from "./stale-write.ts";
export type { DiskState, PendingCall, SettleOutcome, StaleReason, StaleVerdict, StaleWriteInput } from "./stale-write.ts";
export { resolveToolPath } from "./tool-path.ts";
