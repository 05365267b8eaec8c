/**
 * Public surface of src/reap: finding and ending the processes a teammate or reviewer left
 * running, by the marker in their environment (issue 18). Used by the leader and by the worker
 * side, so it imports nothing of either.
 */
export { findMarked, reapMarked, reapMarkedSync, reapNote, type Found, type ReapLimits, type ReapOptions, type ReapResult } from "./reaper.ts";
export type { Marker } from "./proc-parse.ts";
