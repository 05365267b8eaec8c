/**
 * Per-child stderr log file. A child's stderr goes to a file (never the leader's terminal, which
 * would garble the TUI); error messages quote the tail that THIS child wrote.
 */
import { closeSync, existsSync, fchmodSync, fstatSync, mkdirSync, chmodSync, readSync, writeSync } from "node:fs";
import { errorText } from "../error-text.ts";
import { openAppendSync, openRegularSync } from "../store/regular-file.ts";
import { dirname } from "node:path";
import { TeamError } from "../errors.ts";

/** An open stderr log: pass `fd` to the child's stdio, then `closeFd()` in the parent. */
export interface StderrLog {
  path: string;
  /** File descriptor opened for append; hand it to the child as stderr. */
  fd: number;
  /** Byte offset where this child's output starts (after the header line). */
  startOffset: number;
  /** Close the parent's copy of `fd` (the child keeps its own). Idempotent. */
  closeFd(): void;
  /** The last `maxBytes` bytes this child wrote (from `startOffset`), trimmed. Never throws. */
  tail(maxBytes?: number): string;
}

/** Default size of a stderr tail quoted in errors, in bytes. */
export const STDERR_TAIL_BYTES = 4096;

/**
 * Open (append) `path` for a child's stderr and write a one-line header naming the child.
 * A directory created here gets mode 0700 and a file created here gets mode 0600; existing ones
 * keep their mode. The log is appended to across respawns; `tail()` only reads this child's part.
 * @throws TeamError `io_error` naming the path when the directory or file cannot be created.
 */
export function openStderrLog(path: string, header: string): StderrLog {
  let fd: number;
  try {
    const dir = dirname(path);
    if (!existsSync(dir)) {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      chmodSync(dir, 0o700); // mkdir's mode is filtered by the umask
    }
    const created = !existsSync(path);
    fd = openAppendSync(path, 0o600); // non-blocking, a regular file only: a FIFO planted here froze the leader (issue 18)
    if (created) fchmodSync(fd, 0o600);
    writeSync(fd, `${header}\n`);
  } catch (error) {
    throw new TeamError(
      "io_error",
      `Cannot open the child stderr log ${path}: ${errorText(error)}. ` +
        "Check that its directory is writable by the current user.",
      { cause: error },
    );
  }
  const startOffset = fstatSync(fd).size;
  let open = true;
  return {
    path,
    fd,
    startOffset,
    closeFd() {
      if (!open) return;
      open = false;
      closeSync(fd);
    },
    tail(maxBytes = STDERR_TAIL_BYTES) {
      return readTail(path, startOffset, maxBytes);
    },
  };
}

/** Read at most `maxBytes` from the end of `path`, not before `fromOffset`. Never throws. */
export function readTail(path: string, fromOffset: number, maxBytes: number): string {
  let fd: number | undefined;
  try {
    fd = openRegularSync(path); // a FIFO put in its place must not block the leader
    const size = fstatSync(fd).size;
    const start = Math.max(fromOffset, size - maxBytes);
    const length = Math.max(0, size - start);
    if (length === 0) return "";
    const buffer = Buffer.alloc(length);
    const read = readSync(fd, buffer, 0, length, start);
    // A cut through a multi-byte character yields U+FFFD at the start, which is fine for a tail.
    return buffer.subarray(0, read).toString("utf8").trim();
  } catch (error) {
    return `(stderr log ${path} unreadable: ${errorText(error)})`;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
