/**
 * Capture of a teammate worktree at shutdown, after a crash, or after a failed spawn (R20, L23, W14):
 * commit what is left onto the branch with a fixed identity, remove the dir, keep the branch only
 * when it holds work. Reference: references/worktrees.md.
 */
import { realpath, rm } from "node:fs/promises";
import { resolve } from "node:path";
import { TeamError } from "../errors.ts";
import { backOff, GIT_ATTEMPTS, gitFailure, gitIn, probeRetrying, type Git, type GitRunOptions } from "./git-runner.ts";
import { commitLeftovers, type Committed } from "./worktree-commit.ts";
import { withLock } from "./worktree-locks.ts";
import type { CaptureReason } from "./worktree-naming.ts";
import { findNestedRepos } from "./worktree-nested.ts";
import { pathKind, removeIfEmpty } from "./worktree-paths.ts";
import { removeWorktreeRecord } from "./worktree-record.ts";
import type { CaptureOptions, Worktree, WorktreeCapture } from "./worktree-types.ts";

/**
 * Captures the worktree `wt` (R20, L23, W14). Call it once the teammate and everything it started
 * have exited (shutdown, crash, SIGKILL): a git index lock left in the worktree is then stale and is
 * removed (and noted). With `options.locks`, waits for any other capture of `wt.dir` through the
 * same locks to end first (see `WorktreeLocks`).
 *
 * Steps: nested git repositories in the dir are listed (`findNestedRepos`); `git add -A` in
 * `wt.dir` without the untracked ones (honours .gitignore, includes untracked files); if anything
 * is staged, one commit with the fixed identity `pi-resident-teams <teammates@pi-resident-teams.invalid>`,
 * `--no-verify`, no signing, message `pi-resident-teams: work of <name> left at shutdown`. When HEAD
 * had left `wt.branch`, no other branch is moved: see `commitLeftovers` (work then shows in
 * `otherBranches`). Then, unless a nested repository was found (the dir is then left in place,
 * `removed: false`, with a note naming them and the dir), `git worktree remove --force --force`
 * (ignored files go with the dir), falling back to deleting the dir only when git status shows
 * nothing uncommitted, then `git worktree prune`. Then the branch: when the dir is gone and its tip
 * is still `wt.start` (and, for a successor, `wt.from` still holds that commit) it holds no work and
 * is deleted (L23); otherwise it is kept. Finally the record `<dir>.json` is removed with the dir.
 *
 * Idempotent: when the dir is already gone (removed by hand, or a second call) it still reports on
 * the branch. A dir that is not a worktree of `wt.repoRoot` is left in place unless it holds no
 * files at all; the branch is then reported but never deleted, and `removed` is false.
 * Cost: about 15 git commands; measured 200-350 ms for a small repository on a busy 2-core machine.
 * @throws TeamError `io_error` when `wt.repoRoot` is gone, or listing, staging, committing or
 *   reading the branch fails; the dir and record are then left in place, so no work is lost and a
 *   later capture or reclaim can retry. Never throws because there is nothing to commit.
 */
export function captureWorktree(wt: Worktree, options: CaptureOptions = {}): Promise<WorktreeCapture> {
  return captureAs(wt, "shutdown", options);
}

/** {@link captureWorktree} with the commit message chosen by `reason`, under `options.locks`. */
export function captureAs(wt: Worktree, reason: CaptureReason, options: CaptureOptions): Promise<WorktreeCapture> {
  return withLock(options.locks, wt.dir, () => captureUnlocked(wt, reason, options));
}

/** {@link captureAs} for a caller that holds the lock of `wt.dir` already (or uses none). */
export async function captureUnlocked(wt: Worktree, reason: CaptureReason, options: GitRunOptions): Promise<WorktreeCapture> {
  const notes: string[] = [];
  const repo = gitIn(wt.repoRoot, options);
  const repoDir = await repoCommonDir(wt, repo);
  let work: Committed = { committed: false, otherBranches: [] };
  let nestedRepos: string[] = [];
  let removed = true;
  let removedByGit = false;
  const state = await inspectDir(wt, repoDir, options);
  if (state.kind === "ours") {
    const git = gitIn(wt.dir, options);
    const nested = await findNestedRepos(git);
    nestedRepos = nested.all;
    work = await commitLeftovers(wt, git, reason, nested.untracked, notes);
    const removal = nestedRepos.length > 0 ? leaveForNested(wt, nestedRepos, notes) : await removeDir(wt, repo, options, notes);
    removed = removal !== "left";
    removedByGit = removal === "git";
  } else if (state.kind === "foreign") {
    removed = await removeIfEmpty(wt.dir);
    notes.push(removed ? `${state.reason}; it held no files and was removed.` : `${state.reason}; it was left in place.`);
  }
  // `worktree remove` cleans git's admin dir itself; a dir gone by other means needs a prune.
  if (!removedByGit) await repo.probe(["worktree", "prune"]);
  const branch = await settleBranch(wt, repo, removed, notes);
  if (removed) await removeWorktreeRecord(wt.dir);
  return {
    name: wt.name,
    dir: wt.dir,
    branch: wt.branch,
    base: wt.base,
    ...branch,
    committed: work.committed,
    diffCommand: `git diff ${wt.base}..${wt.branch}`,
    otherBranches: work.otherBranches,
    removed,
    nestedRepos,
    notes,
  };
}

/** Nested repositories would be deleted with the dir: it stays, and the note says how to rescue them. */
function leaveForNested(wt: Worktree, nested: readonly string[], notes: string[]): "left" {
  notes.push(
    `${wt.dir} was left in place: it holds nested git repositories (${nested.join(", ")}) whose files and commits exist only there ` +
      `and are not on any branch of ${wt.repoRoot}. Move them somewhere safe, then remove the worktree with ` +
      `\`git -C ${wt.repoRoot} worktree remove --force --force ${wt.dir}\` (a later capture or reclaim then drops its record).`,
  );
  return "left";
}

type DirState = { kind: "missing" } | { kind: "ours" } | { kind: "foreign"; reason: string };

/** The absolute, real common git dir of the repository, or a TeamError when the repository is gone. */
async function repoCommonDir(wt: Worktree, repo: Git): Promise<string> {
  const common = await repo.probe(["rev-parse", "--git-common-dir"]);
  if (!common.ok) {
    throw new TeamError(
      "io_error",
      `Cannot capture worktree ${wt.dir}: its repository ${wt.repoRoot} is not a git repository any more ` +
        `(${common.message}). Expected the repository the worktree was prepared from; restore it, or remove the dir by hand.`,
    );
  }
  return realpath(resolve(wt.repoRoot, common.out));
}

/** Whether `wt.dir` exists and is a worktree (its own top level) of the repository at `repoDir`. */
async function inspectDir(wt: Worktree, repoDir: string, options: GitRunOptions): Promise<DirState> {
  const kind = await pathKind(wt.dir);
  if (kind === "missing") return { kind };
  const what = `${wt.dir} is not a worktree of ${wt.repoRoot}`;
  if (kind === "other") return { kind: "foreign", reason: `${what} (it is not a directory)` };
  const probe = await gitIn(wt.dir, options).probe(["rev-parse", "--show-toplevel", "--git-common-dir"]);
  if (!probe.ok) return { kind: "foreign", reason: `${what} (git: ${probe.message})` };
  const [top = "", common = ""] = probe.out.split("\n");
  const [realTop, realDir, realCommon] = await Promise.all([
    realpath(top).catch(() => top),
    realpath(wt.dir),
    realpath(resolve(wt.dir, common)).catch(() => common),
  ]);
  if (realTop !== realDir) return { kind: "foreign", reason: `${what} (git finds the work tree ${top} above it)` };
  if (realCommon !== repoDir) return { kind: "foreign", reason: `${what} (it belongs to the repository at ${common})` };
  return { kind: "ours" };
}

/** Removes the worktree dir through git, else by hand when git status proves nothing is uncommitted. */
async function removeDir(wt: Worktree, repo: Git, options: GitRunOptions, notes: string[]): Promise<"git" | "by hand" | "left"> {
  const removal = await probeRetrying(repo, ["worktree", "remove", "--force", "--force", wt.dir]);
  if (removal.ok) return "git";
  // git refuses e.g. worktrees with initialised submodules, even with --force.
  const status = await gitIn(wt.dir, options).probe(["status", "--porcelain", "--untracked-files=all", "--ignore-submodules=none"]);
  if (status.ok && status.out === "") {
    await rm(wt.dir, { recursive: true, force: true });
    notes.push(`git could not remove ${wt.dir} (${removal.message}); it held nothing uncommitted and was deleted.`);
    return "by hand";
  }
  const left = status.ok ? `uncommitted: ${status.out.split("\n").slice(0, 5).join(", ")}` : status.message;
  notes.push(`git could not remove ${wt.dir} (${removal.message}); it was left in place (${left}).`);
  return "left";
}

/** Deletes an empty branch (when the dir is gone) or reports what the branch holds. */
async function settleBranch(
  wt: Worktree,
  repo: Git,
  dirRemoved: boolean,
  notes: string[],
): Promise<Pick<WorktreeCapture, "kept" | "commits" | "diffstat">> {
  const ref = `refs/heads/${wt.branch}`;
  const tip = await repo.probe(["rev-parse", "--verify", `${ref}^{commit}`]);
  if (!tip.ok) {
    notes.push(`Branch ${wt.branch} does not exist (deleted by hand, or never created).`);
    return { kept: false, commits: 0, diffstat: "" };
  }
  if (dirRemoved && tip.out === wt.start && (await startIsElsewhere(wt, repo))) {
    await deleteBranch(wt.branch, repo, notes);
    return { kept: false, commits: 0, diffstat: "" };
  }
  const range = `${wt.base}..${ref}`;
  const count = await repo.run(["rev-list", "--count", range]);
  const diffstat = await repo.run(["diff", "--no-color", "--no-ext-diff", "--stat", range, "--"]);
  return { kept: true, commits: Number.parseInt(count, 10), diffstat: diffstat.trim() };
}

/**
 * `git branch -D`, retried while a parallel git holds `.git/config.lock` (deleting a branch also
 * removes its config section) or is adding a worktree (see `probeRetrying`). A first attempt may delete the ref and fail only on the config; the
 * ref being gone then counts as done.
 */
async function deleteBranch(branch: string, repo: Git, notes: string[]): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const deleted = await repo.probe(["branch", "-D", branch]);
    if (deleted.ok) return;
    const tip = await repo.probe(["rev-parse", "--verify", `refs/heads/${branch}`]);
    if (!tip.ok) {
      notes.push(`Branch ${branch} was deleted, but git reported: ${deleted.message}`);
      return;
    }
    if (attempt >= GIT_ATTEMPTS) throw gitFailure(repo.dir, ["branch", "-D", branch], new Error(deleted.message));
    await backOff(attempt);
  }
}

/** The start commit stays reachable without this branch: it is the base, or `wt.from` holds it. */
async function startIsElsewhere(wt: Worktree, repo: Git): Promise<boolean> {
  if (wt.start === wt.base) return true;
  if (wt.from === undefined) return false;
  return (await repo.probe(["merge-base", "--is-ancestor", wt.start, `refs/heads/${wt.from}`])).ok;
}
