/**
 * Stale-write guard for shared-tree teammates: a whole-file `write` over an existing file is
 * allowed only when this teammate has seen the file's current content, all of it, by reading it
 * whole or by writing or editing it last. A write from no read, from a read of only part of the
 * file, or from a read another teammate's edit has since made stale, is how agents erase each
 * other's work. Creating a new file always passes.
 *
 * Pure rules over plain data (paths, sha256 hashes); the I/O lives in src/worker/edit-guards.ts.
 * Versions are the sha256 of the file's bytes. `edit` is not stale-guarded (Pi's edit already
 * fails when its old text is gone) but its result updates the version.
 */
import { createHash } from "node:crypto";

/** sha256 of `content` (a string is hashed as UTF-8, as Pi's write tool writes it), lowercase hex. */
export function hashContent(content: string | Uint8Array): string {
  return createHash("sha256").update(content).digest("hex");
}

/** What is on disk at a write's target at `tool_call` time. */
export type DiskState =
  | { kind: "absent" }
  | { kind: "present"; hash: string }
  /** It exists (or may) but could not be read; `message` says why (e.g. EACCES, EISDIR). */
  | { kind: "unreadable"; message: string };

/**
 * What this teammate last saw of one file: the file's sha256 then, and whether it saw all of it
 * (`whole`: a read without offset/limit that Pi did not truncate, or its own write or edit) or
 * only part (`whole: false`: a read with offset/limit, or one Pi cut short).
 */
export interface Seen {
  readonly hash: string;
  readonly whole: boolean;
}

/** What `checkStaleWrite` looks at. */
export interface StaleWriteInput {
  /** The target as the message names it (project-relative when inside the project). */
  readonly display: string;
  readonly disk: DiskState;
  /** What this teammate last saw of the file (FileVersions.known), if anything. */
  readonly known: Seen | undefined;
}

/** Why a write was blocked. */
export type StaleReason = "never_read" | "stale" | "partial" | "unreadable";

/** The stale-write guard's answer. */
export type StaleVerdict = { ok: true } | { ok: false; reason: StaleReason; message: string };

/**
 * Decides one `write`: passes when the target is absent (a new file) or its current hash equals
 * the last one this teammate saw, whole; blocks when it exists and was never seen (`never_read`),
 * was changed since (`stale`), was seen only in part (`partial`), or cannot be read to tell
 * (`unreadable`: fail closed). Never throws.
 */
export function checkStaleWrite(input: StaleWriteInput): StaleVerdict {
  const { display, disk, known } = input;
  if (disk.kind === "absent") return { ok: true };
  if (disk.kind === "unreadable") {
    return {
      ok: false,
      reason: "unreadable",
      message: `write blocked: cannot read ${display} to check that it is unchanged since you last read it (${disk.message}). Nothing was written. Read the file first, or fix the cause.`,
    };
  }
  if (known === undefined) {
    return {
      ok: false,
      reason: "never_read",
      message:
        `write blocked: ${display} already exists and you have not read it. Read it first, then write it, ` +
        `or use edit for a targeted change. A whole-file write over content you have not seen can erase another teammate's edits.`,
    };
  }
  if (known.hash !== disk.hash) {
    return {
      ok: false,
      reason: "stale",
      message:
        `write blocked: ${display} changed on disk since you last read or wrote it (another teammate or process edited it). ` +
        `Re-read it first, then apply your change to the current content (or use edit for a targeted change).`,
    };
  }
  if (!known.whole) {
    return {
      ok: false,
      reason: "partial",
      message:
        `write blocked: you have read only part of ${display} (a read with offset/limit, or one Pi cut short at its output limit), ` +
        `and a whole-file write would erase the lines you have not seen. Read the whole file first (read without offset/limit), ` +
        `or use edit for a targeted change; for a file too large for one read, use edit.`,
    };
  }
  return { ok: true };
}

/** A guarded tool call between its `tool_call` and its `tool_result`. */
export type PendingCall =
  /**
   * A read; `hash` is the file's hash taken at `tool_call` time, before the read ran; `whole` is
   * false when the read asked for part of the file (offset or limit set).
   */
  | { readonly tool: "read"; readonly path: string; readonly hash: string; readonly whole: boolean }
  /** A write or edit that passed the guards. */
  | { readonly tool: "write" | "edit"; readonly path: string };

/** What the caller must do after `FileVersions.settle`. */
export type SettleOutcome =
  /** Nothing to record (no pending call, or the tool failed). */
  | { kind: "none" }
  /** The version was recorded (`whole`: as seen whole). */
  | { kind: "recorded"; path: string; hash: string; whole: boolean }
  /** An edit succeeded: hash the file as it is now and `record` it (the caller does the I/O). */
  | { kind: "read_back"; path: string };

/**
 * The versions one teammate has seen, keyed by canonical absolute path, plus its pending calls
 * keyed by toolCallId (parallel calls in one turn each keep their own). One instance per
 * registration of the guards; holds no timers and needs no disposal.
 *
 * Recording rules: a read records the hash taken before it ran, and only when its result is not
 * an error (if the file changed between the hash and the read, a later write is blocked, never
 * wrongly allowed). It records it as seen whole only when it asked for the whole file and its
 * result was not truncated; a partial read of content already seen whole keeps the whole version.
 * A successful write records the hash of the content it wrote; a successful edit records the
 * hash of the file read back after it (both whole). A failed call records nothing.
 */
export class FileVersions {
  readonly #known = new Map<string, Seen>();
  readonly #pending = new Map<string, PendingCall>();

  /** What was last seen of `path`, if anything. */
  known(path: string): Seen | undefined {
    return this.#known.get(path);
  }

  /** Records that this teammate has seen `hash` at `path`, whole unless `whole` is false. */
  record(path: string, hash: string, whole = true): void {
    this.#known.set(path, { hash, whole });
  }

  /** Forgets `path` (e.g. an edit's result could not be read back), so a later write must read first. */
  forget(path: string): void {
    this.#known.delete(path);
  }

  /** Remembers a call at `tool_call` time until its result settles it. A repeated id replaces the earlier one. */
  begin(toolCallId: string, call: PendingCall): void {
    this.#pending.set(toolCallId, call);
  }

  /**
   * Settles the call `toolCallId` at `tool_result` time and applies the recording rules.
   * `writtenContent` is the write's `content` input (ignored for other tools); `truncated` says
   * that a read's result was cut short (Pi's `details.truncation.truncated`; ignored for other
   * tools). Unknown ids (calls that were not guarded) give `none`.
   */
  settle(toolCallId: string, result: { isError: boolean; writtenContent?: string; truncated?: boolean }): SettleOutcome {
    const call = this.#pending.get(toolCallId);
    this.#pending.delete(toolCallId);
    if (call === undefined || result.isError) return { kind: "none" };
    if (call.tool === "edit") return { kind: "read_back", path: call.path };
    if (call.tool === "read") {
      const prior = this.#known.get(call.path);
      const whole = (call.whole && result.truncated !== true) || (prior?.whole === true && prior.hash === call.hash);
      this.record(call.path, call.hash, whole);
      return { kind: "recorded", path: call.path, hash: call.hash, whole };
    }
    if (result.writtenContent === undefined) {
      // A write result without its content cannot be versioned: make the next write read first.
      this.forget(call.path);
      return { kind: "none" };
    }
    const hash = hashContent(result.writtenContent);
    this.record(call.path, hash);
    return { kind: "recorded", path: call.path, hash, whole: true };
  }

  /** Drops a pending call that will get no `tool_result` (it was blocked or never ran). */
  discard(toolCallId: string): void {
    this.#pending.delete(toolCallId);
  }

  /** Number of pending calls (for tests: nothing leaks). */
  get pendingCount(): number {
    return this.#pending.size;
  }
}
