/**
 * The plain data of `JsonlCursor` (src/store/jsonl-file.ts): what a read returns, its options,
 * the per-file read state, and the small checks and message helpers around them.
 */

/** What one {@link JsonlCursor.readNew} call found. */
export interface JsonlBatch<T> {
  /** Valid records in file order (retired files first, then the live file). */
  records: T[];
  /** One line per skipped line, truncation, replacement or rotation cleanup, naming the file. */
  diagnostics: string[];
  /** Number of lines skipped as malformed or invalid in this call. */
  skipped: number;
}

/** Options of {@link JsonlCursor}; every field has a default. */
export interface JsonlCursorOptions<T = unknown> {
  /** Bytes read per read() call; also the longest line accepted before it is skipped. Default 4 MiB. */
  maxReadBytes?: number;
  /**
   * Once the reader has consumed this many bytes of the live file it rotates it (renames it into
   * `<dir>/rotated/`), so mailboxes stay bounded by bytes (L24). Default 1 MiB; Infinity disables.
   */
  rotateAtBytes?: number;
  /**
   * How long a rotated file keeps being re-read for late appends before it is deleted, in ms.
   * Default 30 000. See {@link JsonlCursor.rotate}.
   */
  retiredGraceMs?: number;
  /** Clock in ms since the epoch. Default Date.now. */
  now?: () => number;
  /**
   * Cross-field check run after the schema check (e.g. "a leader message has no fromSpawnId").
   * Returns a problem description to skip the line, or undefined to accept it. Must not throw.
   */
  refine?: (record: T) => string | undefined;
}

export interface FileState {
  path: string;
  /** Byte offset just past the last complete line consumed. */
  offset: number;
  /** Number of lines consumed, for diagnostics. */
  line: number;
  /** Identity of the file read last time; a change means it was replaced. */
  id: string | undefined;
  /** Inside an over-long line: drop bytes until the next LF. */
  skipping: boolean;
  /** The I/O error reported for this file last time, so a lasting error is reported once. */
  error: string | undefined;
}

export interface RetiredFile extends FileState {
  since: number;
}

/** A file read from its start, nothing consumed yet. */
export const freshState = (path: string): FileState => ({ path, offset: 0, line: 0, id: undefined, skipping: false, error: undefined });

/** Reports an I/O error on one file as a diagnostic, unless it is the one reported last time. */
export function ioProblem(state: FileState, batch: JsonlBatch<unknown>, text: string): void {
  if (state.error !== text) batch.diagnostics.push(`${text} (retried on the next read)`);
  state.error = text;
}

/** A line as quoted in a diagnostic: JSON, cut to 80 characters. */
export function excerpt(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 77)}...` : text);
}

/** An option that must be a positive number of bytes. @throws TypeError naming the option and value. */
export function positive(name: string, value: number): number {
  if (!(typeof value === "number" && value > 0)) {
    throw new TypeError(`JsonlCursor option ${name} must be a positive number of bytes, got ${String(value)}`);
  }
  return value;
}

/** An option that must be a finite number of ms >= 0. @throws TypeError naming the option and value. */
export function nonNegative(name: string, value: number): number {
  if (!(typeof value === "number" && value >= 0 && Number.isFinite(value))) {
    throw new TypeError(`JsonlCursor option ${name} must be a finite number >= 0 (ms), got ${String(value)}`);
  }
  return value;
}
