/**
 * State on disk: private dirs and files, atomic snapshots, append-only JSONL with cursor reads,
 * exclusive-create intents and directory watchers. Formats: references/runtime-state.md.
 */
export { agentDir, boardLayout, boardLayoutAt, runtimeLayout, runtimeLayoutAt, SESSION_LOCK_FILE, sessionKey } from "./layout.ts";
export type { BoardLayout, RuntimeLayout } from "./layout.ts";
export { ensurePrivateDir, errnoCode, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "./fs-modes.ts";
// Re-exported for the importers that still take it from here; its home is src/error-text.ts.
export { errorText } from "../error-text.ts";
export { checkValue, describeErrors, precompile } from "./validate.ts";
export type { Checked } from "./validate.ts";
export { readValidated, SnapshotWriter } from "./snapshot.ts";
export type { ReadResult } from "./snapshot.ts";
export { appendRecord, JsonlCursor, MAX_RECORD_BYTES } from "./jsonl-file.ts";
export type { JsonlBatch, JsonlCursorOptions } from "./jsonl-file.ts";
export { createFileExclusive } from "./exclusive-file.ts";
export type { CreateFileExclusiveOptions, CreateFileExclusiveResult } from "./exclusive-file.ts";
export { consumeIntent, listIntents, publishIntent, readIntent } from "./intent.ts";
export type { IntentRead, PublishResult, ReadIntentOptions } from "./intent.ts";
export { pidAlive } from "./pid.ts";
export { decideSweep, inspectEntry, sweepNotes, sweepRuntimeDirs, SWEEP_GRACE_MS } from "./sweep.ts";
export type { LockState, RuntimeEntry, SweepContext, SweepDecision, SweepOptions, SweepReport } from "./sweep.ts";
export { NotRegularFileError, openAppendSync, openRegularSync, readRegularFile, readTail } from "./regular-file.ts";
export { watchDirs } from "./watcher.ts";
export type { DirWatch, WatchDirsOptions } from "./watcher.ts";
