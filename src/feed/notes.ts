import { closeSync, writeSync } from "node:fs";
import { openAppendSync } from "../store/regular-file.ts";

/** One harness note: something the harness did or saw that is not a model turn. */
export interface Note {
  /** Its number in this log, from 1: the console's Mail row keeps it while the shown window slides. */
  seq: number;
  at: number;
  text: string;
}

/**
 * The harness's own log: kept in memory (the newest `limit`, for the console) and appended to
 * a file. Never written to the leader's terminal, where it would garble the TUI.
 */
export class NoteLog {
  readonly #entries: Note[] = [];
  #file: string | undefined;
  readonly #limit: number;
  #seq = 0;

  constructor(options: { file?: string; limit?: number } = {}) {
    this.#file = options.file;
    this.#limit = options.limit ?? 500;
  }

  /** Records one note. Never throws; a failed file append is dropped silently (memory keeps it). */
  add(text: string, at: number = Date.now()): void {
    this.#entries.push({ seq: ++this.#seq, at, text });
    if (this.#entries.length > this.#limit) this.#entries.shift();
    if (this.#file) appendLine(this.#file, `${new Date(at).toISOString()} ${text}\n`);
  }

  /**
   * Stops appending to the file (memory still keeps notes). Called when the session's team is
   * closed: after a /reload the next instance writes the same file, and a late callback of the
   * old one must not land in it (L29).
   */
  closeFile(): void {
    this.#file = undefined;
  }

  /** The kept notes, oldest first. */
  entries(): readonly Note[] {
    return this.#entries;
  }
}

/**
 * Appends one line, dropping it on any error. Synchronous and non-blocking, a regular file only:
 * an async append to a FIFO planted in the log's place held one of libuv's four file threads for
 * ever, and four notes stopped every async file operation of the leader (issue 18).
 */
function appendLine(file: string, line: string): void {
  let fd: number | undefined;
  try {
    fd = openAppendSync(file, 0o600);
    writeSync(fd, line);
  } catch {
    // dropped: memory keeps the note
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
