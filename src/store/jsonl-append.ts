import { closeSync, fstatSync, readSync, writeSync } from "node:fs";
import { errorText } from "../error-text.ts";
import { openAppendSync } from "./regular-file.ts";
import { dirname } from "node:path";
import { TeamError } from "../errors.ts";
import { ensurePrivateDir, errnoCode, PRIVATE_FILE_MODE } from "./fs-modes.ts";

/**
 * Largest record line {@link appendRecord} accepts, in bytes including the LF (64 KiB).
 *
 * Why a bound: concurrent appenders (several worker processes writing one inbox) must never
 * interleave inside a line. PIPE_BUF (4 KiB) only governs pipes and FIFOs; for a regular file
 * opened with O_APPEND, Linux moves to EOF and writes under the inode lock, so one write() call
 * lands whole, but only if the kernel accepts all bytes in that call. Small writes to a local
 * disk or tmpfs are never split in practice; huge ones can be (signals, memory pressure), so we
 * keep records small. NFS does not honour O_APPEND atomically at all: state dirs must be local.
 */
export const MAX_RECORD_BYTES = 64 * 1024;

/**
 * Appends `record` as one JSON line (JSON.stringify + LF) to the JSONL file at `path`, with a
 * single O_APPEND write. Creates the file with mode 0600 and its dir with mode 0700 when
 * missing. Opens and closes the file on every call, so nothing is held open between appends.
 *
 * When the file is not empty and its last byte is not LF (a foreign or crashed writer left a
 * partial line), the line is prefixed with LF, so the record starts a line of its own instead of
 * being glued onto the partial one and skipped with it by the reader. The prefix goes out in the
 * same single write as the record.
 * @returns the number of bytes appended (including the LF, and the prefix LF if any).
 * @throws TeamError `invalid_input` when the line would exceed {@link MAX_RECORD_BYTES}
 *   (message gives both sizes; shorten the body or put large content in a file and send its
 *   path) or the record cannot be serialized; TeamError `io_error` naming the path when the
 *   file cannot be opened or written.
 */
export async function appendRecord(path: string, record: unknown): Promise<number> {
  const line = Buffer.from(`${serializeRecord(path, record)}\n`, "utf8");
  if (line.length > MAX_RECORD_BYTES) {
    throw new TeamError(
      "invalid_input",
      `Record for ${path} is ${line.length} bytes; the limit is ${MAX_RECORD_BYTES} bytes per line. ` +
        "Shorten the message, or write the details to a file and send its path.",
    );
  }
  // Synchronous calls on purpose: one small write to a local file takes microseconds, while each
  // async call waits for a threadpool thread and an event-loop turn, which on a loaded machine
  // added milliseconds to every message (docs/benchmarks.md, "Real leader pi").
  let fd: number;
  try {
    fd = await openForAppend(path);
  } catch (error) {
    throw new TeamError("io_error", `Cannot open ${path} for append: ${errorText(error)}`, { cause: error });
  }
  try {
    // Race, accepted: the last byte is checked before the write, so another appender may write
    // in between. If it appends a complete line we add a needless LF (a blank line, which readers
    // ignore); only a foreign writer leaving a partial line in that gap can still glue to us.
    const out = endsMidLine(fd) ? Buffer.concat([NEWLINE, line]) : line;
    let written = 0;
    // A short write is practically impossible for <= 64 KiB on a local fs; if it happens, finish
    // the line anyway: an unterminated tail would glue itself onto the next appender's record.
    while (written < out.length) written += writeSync(fd, out, written, out.length - written);
    return written;
  } catch (error) {
    throw new TeamError("io_error", `Cannot append to ${path}: ${errorText(error)}`, { cause: error });
  } finally {
    closeSync(fd);
  }
}

const NEWLINE = Buffer.from("\n", "utf8");

/** True when the open file is non-empty and its last byte is not LF (fstat + pread of 1 byte). */
function endsMidLine(fd: number): boolean {
  const { size } = fstatSync(fd);
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  return readSync(fd, last, 0, 1, size - 1) === 1 && last[0] !== NEWLINE[0];
}

/**
 * Opens with O_APPEND | O_RDWR ("a+"), non-blocking and only a regular file (a FIFO in its place
 * would block the writer: regular-file.ts): writes always go to EOF; reads are for the last byte.
 */
async function openForAppend(path: string): Promise<number> {
  try {
    return openAppendSync(path, PRIVATE_FILE_MODE, { read: true });
  } catch (error) {
    if (errnoCode(error) !== "ENOENT") throw error;
    await ensurePrivateDir(dirname(path));
    return openAppendSync(path, PRIVATE_FILE_MODE, { read: true });
  }
}

function serializeRecord(path: string, record: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(record);
  } catch (error) {
    throw new TeamError("invalid_input", `Cannot serialize record for ${path}: ${errorText(error)}`, { cause: error });
  }
  if (text === undefined) throw new TeamError("invalid_input", `Cannot serialize record for ${path}: undefined`);
  return text;
}
