import { chmod, mkdir } from "node:fs/promises";
import { errorText } from "../error-text.ts";
import { TeamError } from "../errors.ts";

/** Mode of every directory this package creates for state: owner-only (rwx------). */
export const PRIVATE_DIR_MODE = 0o700;
/** Mode of every state file this package creates: owner read/write only (rw-------). */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * `mkdir -p` that leaves `path` at mode 0700, whether it was just created or existed already
 * (an existing dir is chmod'ed; parents that already existed are left alone, parents created
 * here get 0700 too). Runtime and board state hold prompts and reports, so no other user may
 * read them (R57, R58).
 *
 * Idempotent. Cost: two syscalls, so callers on hot paths should call it once per dir (e.g. on
 * ENOENT), not per write.
 * @throws TeamError `io_error` naming the path when the dir cannot be created or chmod'ed
 *   (e.g. EACCES, EPERM on a dir owned by another user, ENOTDIR).
 */
export async function ensurePrivateDir(path: string): Promise<void> {
  try {
    await mkdir(path, { recursive: true, mode: PRIVATE_DIR_MODE });
    await chmod(path, PRIVATE_DIR_MODE);
  } catch (error) {
    throw new TeamError(
      "io_error",
      `Cannot prepare private state dir ${path} (mode 0700): ${errorText(error)}. ` +
        "Check that the path is a directory owned by the current user.",
      { cause: error },
    );
  }
}

/** Node's `code` of an fs error (`"ENOENT"`, `"EEXIST"`, ...), or undefined for anything else. */
export function errnoCode(error: unknown): string | undefined {
  if (typeof error === "object" && error !== null && "code" in error) {
    const code = (error as { code: unknown }).code;
    return typeof code === "string" ? code : undefined;
  }
  return undefined;
}
