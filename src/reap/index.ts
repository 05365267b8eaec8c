/**
 * Public surface of src/reap: finding and ending the processes a teammate or reviewer left
 * running, by the marker in their environment (issue 18). Used by the leader and by the worker
 * side, so it imports nothing of either.
 */
export { reapMarked, reapMarkedSync, reapNote, type ReapResult } from "./reaper.ts";
export { findMarked, type Found, type ReapLimits, type ReapOptions } from "./scan.ts";
export type { Marker } from "./proc-parse.ts";
