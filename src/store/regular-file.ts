/**
 * Opening a state file for reading without letting a teammate freeze the reader. A teammate runs
 * as the user and can replace any file in the team's dirs with a FIFO, whose blocking open waits
 * for a writer for ever and stops the leader's event loop (issue 18). Opened non-blocking and
 * checked with fstat, a FIFO, socket or device is refused at once instead.
 */
import { closeSync, constants, fstatSync, openSync } from "node:fs";
import { open } from "node:fs/promises";

/** Thrown by `openRegularSync` for a path that is not a regular file; `code` is "ENOTREG". */
export class NotRegularFileError extends Error {
  readonly code = "ENOTREG";
}

/**
 * Opens `path` read-only and non-blocking and returns the fd of a regular file; the caller closes
 * it. Reads of a regular file do not block either way, so O_NONBLOCK changes nothing for one.
 * @throws NotRegularFileError (code `ENOTREG`) naming the path and what it is instead (the fd is
 *   closed); Node's fs errors as `openSync` throws them (ENOENT, EACCES, ...).
 */
export function openRegularSync(path: string): number {
  return regularOrThrow(path, openSync(path, constants.O_RDONLY | constants.O_NONBLOCK), "read");
}

/**
 * Opens `path` for appending (created with `mode` if missing; `read` also allows reads, as "a+"),
 * non-blocking, and returns the fd of a regular file; the caller closes it. Without O_NONBLOCK an
 * open of a FIFO nobody reads blocks for ever, and a write to one blocks once its pipe is full;
 * with it, a FIFO without a reader fails at once (ENXIO) and one with a reader is refused below.
 * A write to a regular file never blocks either way.
 * @throws NotRegularFileError (code `ENOTREG`, the fd closed); Node's fs errors (ENOENT, ENXIO, EACCES, ...).
 */
export function openAppendSync(path: string, mode: number, options: { read?: boolean } = {}): number {
  const access = options.read ? constants.O_RDWR : constants.O_WRONLY;
  return regularOrThrow(path, openSync(path, access | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK, mode), "written");
}

/** `fd` when it is a regular file; else closes it and throws NotRegularFileError. */
function regularOrThrow(path: string, fd: number, use: "read" | "written"): number {
  let stat;
  try {
    stat = fstatSync(fd);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  if (stat.isFile()) return fd;
  closeSync(fd);
  const kind = stat.isFIFO() ? "a FIFO" : stat.isSocket() ? "a socket" : stat.isCharacterDevice() || stat.isBlockDevice() ? "a device" : stat.isDirectory() ? "a directory" : "not a regular file";
  throw new NotRegularFileError(`${path} is ${kind}, not a regular file; it was not ${use}`);
}

/**
 * Reads the regular file at `path` as UTF-8 without blocking on a FIFO (see `openRegularSync`):
 * an async read of a FIFO would hold a libuv thread and its awaiting caller for ever.
 * @throws NotRegularFileError (code `ENOTREG`); Node's fs errors (ENOENT, EACCES, ...).
 */
export async function readRegularFile(path: string): Promise<string> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new NotRegularFileError(`${path} is ${stat.isFIFO() ? "a FIFO" : "not a regular file"}; it was not read`);
    return await handle.readFile("utf8");
  } finally {
    await handle.close();
  }
}

/**
 * The last `bytes` bytes of the regular file at `path` as UTF-8, and whether earlier bytes were
 * left out (`cut`). Never follows a symlink nor blocks on a FIFO: for files a teammate can write,
 * such as its Pi session file (issue 20).
 * @throws Error when `path` cannot be opened as a regular file (missing, a symlink: ELOOP, a FIFO).
 */
export async function readTail(path: string, bytes: number): Promise<{ text: string; cut: boolean }> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new NotRegularFileError(`${path} is not a regular file; it was not read`);
    const length = Math.min(stat.size, bytes);
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, stat.size - length);
    return { text: buffer.subarray(0, bytesRead).toString("utf8"), cut: length < stat.size };
  } finally {
    await handle.close();
  }
}
