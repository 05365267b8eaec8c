/** File-system checks of the worktree module (R20, L23): what is at a path, and whether a dir holds any file. */
import { readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { errorText } from "../error-text.ts";
import { TeamError } from "../errors.ts";
import { errnoCode } from "../store/fs-modes.ts";

/** `missing`, `dir` or `other` (a file, socket...); throws TeamError `io_error` for other stat failures. */
export async function pathKind(path: string): Promise<"missing" | "dir" | "other"> {
  try {
    return (await stat(path)).isDirectory() ? "dir" : "other";
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return "missing";
    throw new TeamError("io_error", `Cannot inspect ${path}: ${errorText(error)}`, { cause: error });
  }
}

/** Removes `dir` only when it contains no files at all (empty dirs only). @returns whether it is gone. */
export async function removeIfEmpty(dir: string): Promise<boolean> {
  if (!(await holdsNoFiles(dir))) return false;
  await rm(dir, { recursive: true, force: true });
  return true;
}

async function holdsNoFiles(dir: string): Promise<boolean> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return false;
  }
  for (const entry of entries) {
    if (!entry.isDirectory() || !(await holdsNoFiles(join(dir, entry.name)))) return false;
  }
  return true;
}
