/**
 * The sidecar record `<worktreesRoot>/<dirName>.json` of each prepared worktree (format:
 * references/worktrees.md). It lets a later session capture a worktree whose teammate is gone,
 * knowing nothing but the root: repository, branch, base and start all come from here.
 */
import { rm } from "node:fs/promises";
import { Type, type Static } from "typebox";
import writeFileAtomic from "write-file-atomic";
import { errorText } from "../error-text.ts";
import { TeamError } from "../errors.ts";
import { PRIVATE_FILE_MODE } from "../store/fs-modes.ts";
import { readValidated, type ReadResult } from "../store/snapshot.ts";
import { recordPathOf, SHA_PATTERN } from "./worktree-naming.ts";
import type { Worktree } from "./worktree-types.ts";

/** Version of the sidecar record format. */
export const WORKTREE_RECORD_VERSION = 1;

const Sha = Type.String({ pattern: SHA_PATTERN.source });

/** Schema of the sidecar record. */
export const WorktreeRecordSchema = Type.Object({
  version: Type.Literal(WORKTREE_RECORD_VERSION),
  name: Type.String({ minLength: 1 }),
  spawnId: Type.String({ minLength: 1 }),
  dir: Type.String({ minLength: 1 }),
  cwd: Type.String({ minLength: 1 }),
  branch: Type.String({ minLength: 1 }),
  base: Sha,
  start: Sha,
  repoRoot: Type.String({ minLength: 1 }),
  from: Type.Optional(Type.String({ minLength: 1 })),
  /** When the worktree was prepared, ISO 8601. */
  createdAt: Type.String(),
});
/** A record that passed {@link WorktreeRecordSchema}. */
export type WorktreeRecord = Static<typeof WorktreeRecordSchema>;

/**
 * Writes the record of `wt` atomically (temp file, fsync, rename; mode 0600) to `<wt.dir>.json`.
 * The parent dir must exist.
 * @throws TeamError `io_error` naming the path.
 */
export async function writeWorktreeRecord(wt: Worktree, now: Date): Promise<void> {
  const record: WorktreeRecord = { version: WORKTREE_RECORD_VERSION, ...wt, createdAt: now.toISOString() };
  const path = recordPathOf(wt.dir);
  try {
    await writeFileAtomic(path, `${JSON.stringify(record, null, 2)}\n`, { mode: PRIVATE_FILE_MODE, fsync: true });
  } catch (error) {
    throw new TeamError("io_error", `Cannot write worktree record ${path}: ${errorText(error)}`, { cause: error });
  }
}

/** Reads and validates `<dir>.json`. Never throws; see {@link ReadResult}. */
export async function readWorktreeRecord(dir: string): Promise<ReadResult<Worktree>> {
  const read = await readValidated(recordPathOf(dir), WorktreeRecordSchema, "worktree record");
  if (!read.ok) return read;
  const { version: _version, createdAt: _createdAt, ...wt } = read.value;
  return { ok: true, value: wt };
}

/** Removes `<dir>.json` if present. @throws TeamError `io_error` for failures other than absence. */
export async function removeWorktreeRecord(dir: string): Promise<void> {
  const path = recordPathOf(dir);
  try {
    await rm(path, { force: true });
  } catch (error) {
    throw new TeamError("io_error", `Cannot remove worktree record ${path}: ${errorText(error)}`, { cause: error });
  }
}
