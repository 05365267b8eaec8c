import { closeSync, fstatSync, readSync } from "node:fs";
import { errorText } from "../error-text.ts";
import { openRegularSync } from "./regular-file.ts";
import { rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { Static, TSchema } from "typebox";
import { TeamError } from "../errors.ts";
import { ensurePrivateDir, errnoCode } from "./fs-modes.ts";
import { excerpt, freshState, ioProblem, nonNegative, positive, type FileState, type JsonlBatch, type JsonlCursorOptions, type RetiredFile } from "./jsonl-cursor-state.ts";
import { checkValue } from "./validate.ts";

export { appendRecord, MAX_RECORD_BYTES } from "./jsonl-append.ts";
export type { JsonlBatch, JsonlCursorOptions } from "./jsonl-cursor-state.ts";

const LF = 0x0a;

/**
 * Incremental reader of one append-only JSONL file (an outbox or inbox, practice 13). Each
 * {@link readNew} returns the complete lines appended since the previous call, validated
 * against `schema`. Byte offsets live in this object: the leader is the single reader of every
 * mailbox, and runtime dirs die with the session, so no cursor file is kept.
 *
 * Guarantees: a trailing line without LF is left for a later call (never parsed half-written);
 * malformed or invalid lines are skipped, counted and described, never thrown; a missing file
 * yields no records; any other I/O error on a file (EACCES, EISDIR, a failed rotation) is a
 * diagnostic, reported once while it lasts, never thrown; a file that shrank or was replaced
 * (inode changed) is re-read from byte 0 with a diagnostic. Calls are serialized, so overlapping calls (a watcher event during a
 * safety poll) never return a line twice. Holds no open file handles or timers between calls.
 *
 * Rotation (L7): instead of truncating a consumed file, which loses a line appended between the
 * size check and the truncate, the reader renames it away and keeps draining the renamed file
 * for `retiredGraceMs`, because an appender that opened the old name just before the rename
 * writes into the renamed file.
 */
export class JsonlCursor<S extends TSchema> {
  readonly path: string;
  readonly #schema: S;
  readonly #maxReadBytes: number;
  readonly #rotateAtBytes: number;
  readonly #retiredGraceMs: number;
  readonly #now: () => number;
  readonly #refine: ((record: Static<S>) => string | undefined) | undefined;
  #live: FileState;
  #retired: RetiredFile[] = [];
  #chain: Promise<unknown> = Promise.resolve();
  #rotations = 0;
  #skippedTotal = 0;
  /** The rotation error reported last time, so a lasting one is reported once. */
  #rotateError: string | undefined;

  /** @throws TypeError naming the option when an option is not a positive number. */
  constructor(path: string, schema: S, options: JsonlCursorOptions<Static<S>> = {}) {
    this.path = path;
    this.#schema = schema;
    this.#maxReadBytes = positive("maxReadBytes", options.maxReadBytes ?? 4 * 1024 * 1024);
    this.#rotateAtBytes = positive("rotateAtBytes", options.rotateAtBytes ?? 1024 * 1024);
    this.#retiredGraceMs = nonNegative("retiredGraceMs", options.retiredGraceMs ?? 30_000);
    this.#now = options.now ?? Date.now;
    this.#refine = options.refine;
    this.#live = freshState(path);
  }

  /** Byte offset consumed in the live file (bytes). */
  get offset(): number {
    return this.#live.offset;
  }

  /** Lines skipped as malformed or invalid over this cursor's life. */
  get skippedTotal(): number {
    return this.#skippedTotal;
  }

  /**
   * Reads every complete line appended since the last call (see class doc). May rotate the
   * live file once `rotateAtBytes` have been consumed, and deletes rotated files whose grace
   * has passed. Never throws: an I/O failure on a file (other than it being missing, which just
   * yields nothing) becomes a diagnostic naming the path, reported once until it changes or clears.
   */
  readNew(): Promise<JsonlBatch<Static<S>>> {
    return this.#serial(() => this.#readNewNow());
  }

  /**
   * Renames the live file to `<dir>/rotated/<name>.<ms>-<n>` so the next append starts a new
   * file, and keeps reading the renamed one from the current offset until `retiredGraceMs`
   * have passed. Lines appended before or during the rename are still returned by later
   * {@link readNew} calls. Serialized with `readNew`.
   * @returns false when there is no live file to rotate.
   * @throws TeamError `io_error` when the rename fails.
   */
  rotate(): Promise<boolean> {
    return this.#serial(() => this.#rotateNow());
  }

  #serial<R>(task: () => Promise<R>): Promise<R> {
    const run = this.#chain.catch(() => undefined).then(task);
    this.#chain = run;
    return run;
  }

  async #readNewNow(): Promise<JsonlBatch<Static<S>>> {
    const batch: JsonlBatch<Static<S>> = { records: [], diagnostics: [], skipped: 0 };
    for (const file of [...this.#retired]) {
      this.#drain(file, batch);
      if (this.#now() - file.since >= this.#retiredGraceMs) await this.#dropRetired(file, batch);
    }
    this.#drain(this.#live, batch);
    if (this.#live.offset >= this.#rotateAtBytes) {
      try {
        await this.#rotateNow();
        this.#rotateError = undefined;
      } catch (error) {
        // The target name changes on every attempt: compare the underlying cause.
        const key = errorText(error instanceof Error && error.cause !== undefined ? error.cause : error);
        if (key !== this.#rotateError) batch.diagnostics.push(`${errorText(error)} (the file is still read; rotation is retried on later reads)`);
        this.#rotateError = key;
      }
    }
    this.#skippedTotal += batch.skipped;
    return batch;
  }

  async #rotateNow(): Promise<boolean> {
    const rotatedDir = join(dirname(this.path), "rotated");
    const target = join(rotatedDir, `${basename(this.path)}.${this.#now()}-${++this.#rotations}`);
    try {
      await ensurePrivateDir(rotatedDir);
      await rename(this.path, target);
    } catch (error) {
      if (errnoCode(error) === "ENOENT") return false;
      throw new TeamError("io_error", `Cannot rotate ${this.path} to ${target}: ${errorText(error)}`, { cause: error });
    }
    this.#retired.push({ ...this.#live, path: target, since: this.#now() });
    this.#live = freshState(this.path);
    return true;
  }

  async #dropRetired(file: RetiredFile, batch: JsonlBatch<Static<S>>): Promise<void> {
    this.#retired = this.#retired.filter((f) => f !== file);
    try {
      await unlink(file.path);
    } catch (error) {
      if (errnoCode(error) !== "ENOENT") batch.diagnostics.push(`Cannot delete rotated ${file.path}: ${errorText(error)}`);
    }
  }

  /**
   * Reads complete lines of one file from `state.offset` up to the size seen at open time. The
   * calls are synchronous on purpose: a mailbox read is a few small local reads (at most
   * `maxReadBytes` each), and four async calls cost the leader 3-6 ms per message on a loaded
   * machine against 0.4 ms this way (docs/benchmarks.md, "Real leader pi").
   */
  #drain(state: FileState, batch: JsonlBatch<Static<S>>): void {
    let fd: number;
    try {
      fd = openRegularSync(state.path); // a FIFO put in its place must not block the leader
    } catch (error) {
      if (errnoCode(error) !== "ENOENT") return ioProblem(state, batch, `Cannot open ${state.path} for reading: ${errorText(error)}`);
      state.error = undefined;
      if (state.id !== undefined) {
        batch.diagnostics.push(`${state.path} disappeared after ${state.offset} bytes; a new file will be read from the start`);
        Object.assign(state, freshState(state.path));
      }
      return;
    }
    try {
      const stat = fstatSync(fd);
      const id = `${stat.dev}:${stat.ino}`;
      if (state.id !== undefined && state.id !== id) {
        batch.diagnostics.push(`${state.path} was replaced (new inode) after ${state.offset} bytes; reading the new file from the start`);
        Object.assign(state, freshState(state.path));
      } else if (stat.size < state.offset) {
        batch.diagnostics.push(`${state.path} shrank from ${state.offset} to ${stat.size} bytes (truncated?); reading from the start`);
        Object.assign(state, freshState(state.path));
      }
      state.id = id;
      while (state.offset < stat.size) {
        const length = Math.min(stat.size - state.offset, this.#maxReadBytes);
        const buffer = Buffer.alloc(length);
        const bytesRead = readSync(fd, buffer, 0, length, state.offset);
        if (bytesRead === 0) break;
        const consumed = this.#consume(state, buffer.subarray(0, bytesRead), bytesRead === this.#maxReadBytes, batch);
        if (consumed === 0) break;
        state.offset += consumed;
      }
      state.error = undefined;
    } catch (error) {
      // Lines consumed before the failure stay consumed; the rest is read on the next call.
      ioProblem(state, batch, `Cannot read ${state.path}: ${errorText(error)}`);
    } finally {
      try {
        closeSync(fd);
      } catch {
        // nothing to lose: the fd was only read
      }
    }
  }

  /** Handles the complete lines in `chunk`; returns how many bytes were consumed. */
  #consume(state: FileState, chunk: Buffer, windowFull: boolean, batch: JsonlBatch<Static<S>>): number {
    let pos = 0;
    if (state.skipping) {
      const end = chunk.indexOf(LF);
      if (end < 0) return chunk.length;
      state.skipping = false;
      state.line += 1;
      pos = end + 1;
    }
    for (let end = chunk.indexOf(LF, pos); end >= 0; end = chunk.indexOf(LF, pos)) {
      state.line += 1;
      this.#handleLine(state, chunk.subarray(pos, end), state.offset + pos, batch);
      pos = end + 1;
    }
    if (pos === 0 && windowFull) {
      // No LF within a whole read window: a line no appender of ours could write. Skip it.
      state.skipping = true;
      batch.skipped += 1;
      batch.diagnostics.push(
        `${state.path} line ${state.line + 1} (byte offset ${state.offset}): longer than ${this.#maxReadBytes} bytes; skipped`,
      );
      return chunk.length;
    }
    return pos;
  }

  #handleLine(state: FileState, bytes: Buffer, offset: number, batch: JsonlBatch<Static<S>>): void {
    // Complete lines end on LF, so no UTF-8 sequence is split here. Strip a CR from CRLF writers.
    let text = bytes.toString("utf8");
    if (text.endsWith("\r")) text = text.slice(0, -1);
    if (text.trim() === "") return;
    const where = `${state.path} line ${state.line} (byte offset ${offset})`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      batch.skipped += 1;
      batch.diagnostics.push(`${where}: not valid JSON (${errorText(error)}): ${excerpt(text)}; skipped`);
      return;
    }
    const checked = checkValue(this.#schema, parsed);
    const problem = checked.ok ? this.#refine?.(checked.value) : checked.message;
    if (!checked.ok || problem !== undefined) {
      batch.skipped += 1;
      batch.diagnostics.push(`${where}: ${problem}; skipped`);
      return;
    }
    batch.records.push(checked.value);
  }
}
