import { closeSync, readFileSync } from "node:fs";
import { errorText } from "../error-text.ts";
import { openRegularSync } from "./regular-file.ts";
import { dirname } from "node:path";
import type { Static, TSchema } from "typebox";
import writeFileAtomic from "write-file-atomic";
import { TeamError } from "../errors.ts";
import { ensurePrivateDir, errnoCode, PRIVATE_FILE_MODE } from "./fs-modes.ts";
import { checkValue } from "./validate.ts";

/**
 * Writes JSON snapshots (roster.json, board.json) atomically and only when their
 * content changed (L24, W6: an idle team makes zero file writes).
 *
 * One instance per writing process; the leader is the only writer of every snapshot (R48), so
 * "last content this writer wrote" equals "content on disk". Writes to the same path are run
 * one after another in call order; writes to different paths run independently. Holds no
 * timers and needs no disposal.
 */
export class SnapshotWriter {
  readonly #last = new Map<string, string>();
  readonly #queue = new Map<string, Promise<unknown>>();

  /**
   * Serializes `value` as pretty JSON (2-space indent, trailing LF) and, unless that text equals
   * what this writer last wrote to `path`, writes it via write-file-atomic: temp file in the
   * same dir, fsync, rename; mode 0600, parent dir created 0700.
   * @returns true when the file was written, false when the write was skipped as unchanged.
   * @throws TeamError `io_error` naming the path when the write fails (the previous file is
   *   left intact; the next call with the same content retries). A value JSON cannot encode
   *   (e.g. BigInt, cycles) throws TeamError `invalid_input`.
   */
  async write(path: string, value: unknown): Promise<boolean> {
    const content = serialize(path, value);
    const previous = this.#queue.get(path) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.#writeNow(path, content));
    this.#queue.set(path, next);
    // Drop the queue entry once idle so the map does not grow with every path ever written.
    void next.then(
      () => this.#clearQueue(path, next),
      () => this.#clearQueue(path, next),
    );
    return next;
  }

  /**
   * Forgets what was last written to `path` (or to every path when omitted), so the next
   * `write` goes to disk even if unchanged. Use after someone else removed or replaced the file
   * (e.g. the runtime dir was recreated).
   */
  forget(path?: string): void {
    if (path === undefined) this.#last.clear();
    else this.#last.delete(path);
  }

  async #writeNow(path: string, content: string): Promise<boolean> {
    if (this.#last.get(path) === content) return false;
    try {
      await ensurePrivateDir(dirname(path));
      await writeFileAtomic(path, content, { mode: PRIVATE_FILE_MODE, fsync: true, encoding: "utf8" });
    } catch (error) {
      if (error instanceof TeamError) throw error;
      throw new TeamError("io_error", `Cannot write snapshot ${path}: ${errorText(error)}`, { cause: error });
    }
    this.#last.set(path, content);
    return true;
  }

  #clearQueue(path: string, settled: Promise<unknown>): void {
    if (this.#queue.get(path) === settled) this.#queue.delete(path);
  }
}

function serialize(path: string, value: unknown): string {
  try {
    const text = JSON.stringify(value, null, 2);
    if (text === undefined) throw new Error("value is undefined or a function");
    return `${text}\n`;
  } catch (error) {
    throw new TeamError("invalid_input", `Cannot serialize snapshot for ${path}: ${errorText(error)}`, {
      cause: error,
    });
  }
}

/**
 * Outcome of {@link readValidated}.
 * - `missing`: the file does not exist (ENOENT).
 * - `unreadable`: it exists but could not be read, or is not JSON (message has the parse error).
 * - `invalid`: it is JSON but does not match the schema (message names the field, its value and
 *   what was expected).
 * A corrupt file is never reported as empty: callers must not overwrite it blindly (L8).
 */
export type ReadResult<T> =
  | { ok: true; value: T }
  | { ok: false; reason: "missing" | "unreadable" | "invalid"; message: string };

/**
 * Reads a JSON file and validates it against a typebox schema. Never throws for a missing,
 * unreadable or bad file; every failure message starts with `<label> <path>:`, e.g.
 * `roster /x/roster.json: /teammates/0/status is "dead"; expected one of "starting" | ...`.
 */
export async function readValidated<S extends TSchema>(
  path: string,
  schema: S,
  label: string,
): Promise<ReadResult<Static<S>>> {
  let text: string;
  try {
    // Synchronous on purpose, as the mailbox reads (src/store/jsonl-file.ts): a small local file
    // read in one call, not four threadpool round trips on a teammate's send_message path.
    const fd = openRegularSync(path); // a FIFO put in its place must not block the reader
    try {
      text = readFileSync(fd, "utf8");
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    if (errnoCode(error) === "ENOENT") {
      return { ok: false, reason: "missing", message: `${label} ${path}: file does not exist` };
    }
    return { ok: false, reason: "unreadable", message: `${label} ${path}: cannot read: ${errorText(error)}` };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      reason: "unreadable",
      message: `${label} ${path}: not valid JSON (${errorText(error)}); expected one JSON object`,
    };
  }
  const checked = checkValue(schema, parsed);
  if (!checked.ok) return { ok: false, reason: "invalid", message: `${label} ${path}: ${checked.message}` };
  return { ok: true, value: checked.value };
}
