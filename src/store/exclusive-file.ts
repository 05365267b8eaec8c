import { randomBytes } from "node:crypto";
import { link, open, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { errorText } from "../error-text.ts";
import { TeamError } from "../errors.ts";
import { errnoCode } from "./fs-modes.ts";

/** Temp files start with a dot so directory scans (agent discovery, intent lists) and watchers skip them. */
const TEMP_PREFIX = ".tmp-";

/** Inputs of {@link createFileExclusive}. */
export interface CreateFileExclusiveOptions {
  /** The file to create; never replaced when it exists. */
  path: string;
  /** The whole content, UTF-8. */
  content: string;
  /** Mode of the new file (before the umask). */
  mode: number;
  /** What the file is, for error messages (`"intent"`, `"agent definition"`). */
  what: string;
  /**
   * Called once when the directory is missing, then the write is retried; may throw (its error is
   * passed on). Default: the missing directory is an `io_error`.
   */
  ensureDir?: (dir: string) => Promise<void>;
}

/** Outcome of {@link createFileExclusive}. `exists`: `path` was already there and is unchanged. */
export type CreateFileExclusiveResult = { ok: true; path: string } | { ok: false; reason: "exists"; path: string };

/**
 * Creates `path` with `content`, never over an existing file, and never visible half-written
 * (L6, W5): the content is written and fsynced to a dot-prefixed temp file in the same directory,
 * hard-linked to `path` (link fails with EEXIST when `path` exists, so of two racing writers
 * exactly one wins), then the temp file is removed whatever happened.
 * @returns `{ ok: true }`, or `{ ok: false, reason: "exists" }` when `path` exists (nothing written).
 * @throws TeamError `io_error` naming the temp file or `path` for any other fs failure (or
 *   whatever `ensureDir` throws).
 */
export async function createFileExclusive(options: CreateFileExclusiveOptions): Promise<CreateFileExclusiveResult> {
  const { path, what } = options;
  const temp = join(dirname(path), `${TEMP_PREFIX}${basename(path)}-${process.pid}-${randomBytes(4).toString("hex")}`);
  try {
    await writeTemp(temp, options);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    if (error instanceof TeamError) throw error;
    throw new TeamError("io_error", `Cannot write ${what} temp file ${temp}: ${errorText(error)}`, { cause: error });
  }
  try {
    await link(temp, path);
    return { ok: true, path };
  } catch (error) {
    if (errnoCode(error) === "EEXIST") return { ok: false, reason: "exists", path };
    throw new TeamError("io_error", `Cannot publish ${what} ${path}: ${errorText(error)}`, { cause: error });
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

async function writeTemp(temp: string, options: CreateFileExclusiveOptions): Promise<void> {
  let handle;
  try {
    handle = await open(temp, "wx", options.mode);
  } catch (error) {
    if (errnoCode(error) !== "ENOENT" || options.ensureDir === undefined) throw error;
    await options.ensureDir(dirname(temp));
    handle = await open(temp, "wx", options.mode);
  }
  try {
    await handle.writeFile(options.content, "utf8");
    await handle.sync();
  } finally {
    await handle.close();
  }
}
