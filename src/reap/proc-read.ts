/**
 * The /proc reads of the reaper (src/reap/reaper.ts): a process's environment within a size
 * bound, and the calling process's ancestors. Every read tolerates a process that vanishes.
 */
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import { open } from "node:fs/promises";
import { statParent } from "./proc-parse.ts";

/** How far up the parent chain the caller's ancestors are looked up (they are never killed). */
const MAX_ANCESTORS = 64;

/** The bytes read of an environ file; `truncated` when the size bound cut them. */
export interface Environ {
  data: Buffer;
  truncated: boolean;
}

/**
 * The first `cap` bytes of an environ file, or undefined when it cannot be read (the process
 * vanished, or is not ours to read). Linux's environ read fills the whole buffer unless the
 * environment ends first, so a short read is taken as the end (one read for almost every process).
 */
export async function readEnviron(path: string, cap: number): Promise<Environ | undefined> {
  let handle;
  try {
    handle = await open(path, "r");
  } catch {
    return undefined;
  }
  try {
    let step: Step = { buffer: Buffer.allocUnsafe(Math.min(cap, 64 * 1024)), length: 0 };
    for (;;) {
      const { bytesRead } = await handle.read(step.buffer, step.length, step.buffer.length - step.length, null);
      const next = afterRead(step, bytesRead, cap);
      if ("data" in next) return next;
      step = next;
    }
  } catch {
    return undefined; // it exited while we read
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** `readEnviron` with synchronous reads (for an `exit` handler, which cannot wait). */
export function readEnvironSync(path: string, cap: number): Environ | undefined {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return undefined;
  }
  try {
    let step: Step = { buffer: Buffer.allocUnsafe(Math.min(cap, 64 * 1024)), length: 0 };
    for (;;) {
      const next = afterRead(step, readSync(fd, step.buffer, step.length, step.buffer.length - step.length, null), cap);
      if ("data" in next) return next;
      step = next;
    }
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** A read in progress: the buffer and how much of it holds data. */
interface Step {
  buffer: Buffer;
  length: number;
}

/** After one read of `bytesRead` bytes: the environment when it is complete or at `cap`, else the next step in a buffer twice as big. */
function afterRead(step: Step, bytesRead: number, cap: number): Environ | Step {
  const length = step.length + bytesRead;
  if (length < step.buffer.length || step.buffer.length >= cap) return { data: step.buffer.subarray(0, length), truncated: length >= cap };
  const bigger = Buffer.allocUnsafe(Math.min(cap, step.buffer.length * 2));
  step.buffer.copy(bigger, 0, 0, length);
  return { buffer: bigger, length };
}

/**
 * The calling process and its ancestors (up to `MAX_ANCESTORS`), by their /proc stat files, read
 * synchronously: a stat file does not wait for the process's memory map, and these are the
 * caller's own parents.
 */
export function ancestry(procDir: string): Set<number> {
  const spared = new Set([process.pid, process.ppid]);
  let pid = process.ppid;
  for (let i = 0; i < MAX_ANCESTORS && pid > 1; i++) {
    let parent: number | undefined;
    try {
      parent = statParent(readFileSync(`${procDir}/${pid}/stat`, "utf8"));
    } catch {
      parent = undefined;
    }
    if (parent === undefined || spared.has(parent)) break;
    spared.add(parent);
    pid = parent;
  }
  return spared;
}
