/**
 * Reclaim of worktrees nobody owns any more (R20, L23): leftovers of a crashed or killed session,
 * found knowing only the worktrees root.
 */
import { readdir, realpath } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { errorText } from "../error-text.ts";
import { TeamError } from "../errors.ts";
import { errnoCode } from "../store/fs-modes.ts";
import { gitIn, runRetrying, type GitRunOptions } from "./git-runner.ts";
import { captureUnlocked } from "./worktree-capture.ts";
import { withLock } from "./worktree-locks.ts";
import { baseConfigKey, RECORD_SUFFIX, SHA_PATTERN, splitDirName } from "./worktree-naming.ts";
import { pathKind, removeIfEmpty } from "./worktree-paths.ts";
import { readWorktreeRecord } from "./worktree-record.ts";
import type { ReclaimOptions, ReclaimResult, UnclaimedWorktree, Worktree, WorktreeCapture } from "./worktree-types.ts";

/**
 * Captures (as `captureWorktree`) every worktree under `worktreesRoot` that `keep` does not
 * protect: each dir directly under the root, and each record `<dirName>.json` whose dir is gone.
 * Entries are handled one at a time (git commands of one repository must not race for its locks),
 * in name order.
 *
 * Where a worktree came from is read from its record; without a readable record it is recovered
 * from git: the dir must be its own work tree top level in a linked worktree, on a branch whose
 * git config `branch.<branch>.piTeamBase` holds the base. Anything else (a plain dir, a worktree git
 * no longer knows, a detached HEAD, no recorded base) goes to `unclaimed` and is left exactly as it
 * is, unless it holds no files at all, in which case it is removed. A capture that throws is also
 * reported in `unclaimed` (its dir and record stay for a later retry). A record whose dir turns out
 * not to be a worktree of its repository is captured with `removed: false` and a note (its branch
 * is reported, never deleted). No file is ever deleted that git has not committed or that is not
 * ignored, nor any nested repository (see `captureWorktree`).
 *
 * With `options.locks`, each entry is looked at and captured under the lock of its dir, and one
 * that is gone by then (dir and record: another capture finished it meanwhile) is skipped.
 * @returns `{ captures, unclaimed }`; both empty when the root does not exist.
 * @throws TeamError `io_error` only when the root exists but cannot be listed.
 */
export async function reclaimWorktrees(options: ReclaimOptions): Promise<ReclaimResult> {
  const root = resolve(options.worktreesRoot);
  const result: ReclaimResult = { captures: [], unclaimed: [] };
  for (const dirName of await candidates(root)) {
    const dir = join(root, dirName);
    if (options.keep?.(dir)) continue;
    const outcome = await withLock(options.locks, dir, () => reclaimOne(dir, options));
    if (outcome === undefined) continue;
    if ("reason" in outcome) result.unclaimed.push(outcome);
    else result.captures.push(outcome);
  }
  return result;
}

/** Captures the entry `dir`, or says why not; undefined when neither it nor its record exists any more. */
async function reclaimOne(dir: string, options: GitRunOptions): Promise<WorktreeCapture | UnclaimedWorktree | undefined> {
  try {
    const found = await locate(dir, options);
    if (found.ok) return await captureUnlocked(found.worktree, "shutdown", options);
    if (found.gone) return undefined;
    const removed = found.dirFound && (await removeIfEmpty(dir));
    const outcome = removed ? "It held no files and was removed." : "It was left in place.";
    return { dir, removed, reason: `${found.reason} ${outcome}` };
  } catch (error) {
    // One broken entry (unreadable dir, failing git) must not stop the others being reclaimed.
    return { dir, removed: false, reason: `capture failed: ${errorText(error)}. It was left in place.` };
  }
}

/** Dir names under `root`: its sub-dirs plus the stems of its `.json` records, sorted, no dotfiles. */
async function candidates(root: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return [];
    throw new TeamError("io_error", `Cannot list the worktrees root ${root}: ${errorText(error)}`, { cause: error });
  }
  const names = new Set<string>();
  for (const entry of entries) {
    if (entry.name.startsWith(".")) continue;
    if (entry.isDirectory()) names.add(entry.name);
    else if (entry.isFile() && entry.name.endsWith(RECORD_SUFFIX)) names.add(entry.name.slice(0, -RECORD_SUFFIX.length));
  }
  return [...names].sort();
}

type Located = { ok: true; worktree: Worktree } | { ok: false; reason: string; dirFound: boolean; gone: boolean };
type Recovered = { ok: true; worktree: Worktree } | { ok: false; reason: string };

/** The worktree at `dir`, from its record, else from git; or why it cannot be told. */
async function locate(dir: string, options: GitRunOptions): Promise<Located> {
  const record = await readWorktreeRecord(dir);
  // The record's own dir field may be stale if the root was moved; the file's place wins.
  if (record.ok) return { ok: true, worktree: { ...record.value, dir } };
  const kind = await pathKind(dir);
  if (kind === "missing") {
    return {
      ok: false,
      dirFound: false,
      gone: record.reason === "missing",
      reason: `${record.message}; its dir ${dir} does not exist. Remove the record by hand once you have checked it.`,
    };
  }
  const recovered = kind === "dir" ? await recoverFromGit(dir, options) : { ok: false as const, reason: "it is not a directory" };
  if (recovered.ok) return recovered;
  const prefix = record.reason === "missing" ? `${dir} has no record ${dir}${RECORD_SUFFIX}` : record.message;
  return {
    ok: false,
    dirFound: kind === "dir",
    gone: false,
    reason:
      `${prefix}, and git cannot tell where it came from: ${recovered.reason}. ` +
      `Expected a teammate worktree (a linked git worktree on a branch with git config ${baseConfigKey("<branch>")}). ` +
      `If it belongs to a repository, run \`git worktree repair ${dir}\` there; otherwise inspect and remove it by hand.`,
  };
}

/** A worktree described by git alone: linked worktree, branch checked out, base in branch config. */
async function recoverFromGit(dir: string, options: GitRunOptions): Promise<Recovered> {
  const git = gitIn(dir, options);
  const where = await git.probe(["rev-parse", "--show-toplevel", "--git-dir", "--git-common-dir"]);
  if (!where.ok) return { ok: false, reason: where.message };
  const [top = "", gitDir = "", common = ""] = where.out.split("\n");
  if (resolve(dir, gitDir) === resolve(dir, common)) return { ok: false, reason: `it is not a linked worktree (${top})` };
  const [realTop, realDir] = await Promise.all([realpath(top).catch(() => top), realpath(dir)]);
  if (realTop !== realDir) return { ok: false, reason: `it lies inside the work tree ${top}` };
  const head = await git.probe(["symbolic-ref", "--short", "-q", "HEAD"]);
  if (!head.ok) return { ok: false, reason: "its HEAD is detached" };
  const branch = head.out;
  const base = await git.probe(["config", "--get", baseConfigKey(branch)]);
  if (!base.ok || !SHA_PATTERN.test(base.out)) {
    return { ok: false, reason: `branch ${branch} has no commit sha in ${baseConfigKey(branch)}` };
  }
  const list = await runRetrying(git, ["worktree", "list", "--porcelain"]);
  // The first entry of `worktree list` is always the main worktree (or the bare repository).
  const repoRoot = /^worktree (.+)$/m.exec(list)?.[1] ?? resolve(dir, common, "..");
  const parts = splitDirName(basename(dir));
  const worktree: Worktree = {
    name: parts?.name ?? branch,
    spawnId: parts?.suffix ?? "unknown",
    dir,
    cwd: dir,
    branch,
    base: base.out,
    start: base.out,
    repoRoot,
  };
  return { ok: true, worktree };
}
