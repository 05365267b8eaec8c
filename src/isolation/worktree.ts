/**
 * Teammate worktrees (R20, L23, W14): prepare one per `worktree: true` spawn, capture it at the end,
 * discard it after a failed spawn. Reference: references/worktrees.md.
 */
import { rm } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { TeamError } from "../errors.ts";
import { ensurePrivateDir } from "../store/fs-modes.ts";
import { backOff, GIT_ATTEMPTS, gitFailure, gitIn, probeRetrying, type Git, type GitRunOptions } from "./git-runner.ts";
import { captureAs } from "./worktree-capture.ts";
import { pathKind } from "./worktree-paths.ts";
import { baseConfigKey, isDirOfName, worktreeBranch, worktreeDirName } from "./worktree-naming.ts";
import { reclaimWorktrees } from "./worktree-reclaim.ts";
import { removeWorktreeRecord, writeWorktreeRecord } from "./worktree-record.ts";
import type { CaptureOptions, PrepareResult, PrepareWorktreeOptions, Worktree, WorktreeCapture } from "./worktree-types.ts";

/**
 * Creates the worktree of one spawn (R20): branch `pi-team/<name>-<spawn8>` checked out at
 * `<worktreesRoot>/<name>-<spawn8>` by `git worktree add -b <branch> <dir> <start sha>`, where the
 * start is HEAD of `repoCwd`, or the tip of `fromBranch` for a successor.
 *
 * Order: every check below runs first and a refusal creates nothing. Then `worktreesRoot` is made
 * (mode 0700); leftovers of earlier spawns of the same name (lowercased) under it are reclaimed
 * (committed onto their own branches, see `reclaimWorktrees`, under `options.locks`: a capture of
 * the same dir still running, such as the exit capture of the name's last teammate, ends first), so
 * a crashed session never blocks re-spawning a name; the record `<dir>.json` is written; the worktree is added; the base is stored
 * in git config `branch.<branch>.piTeamBase`. If adding fails, whatever was made is removed again and
 * the add is retried (up to 5 attempts, because parallel adds in one repository make git fail
 * spuriously); safe to call for several names at once.
 * Precondition: no living teammate of this name (ignoring case) uses `worktreesRoot`; the leader's
 * name rules guarantee it. Git hooks of the repository (post-checkout) do run; a failing one fails
 * the prepare (everything is rolled back).
 * Cost: 6 git commands plus the checkout; measured 110-260 ms for a small repository on a busy
 * 2-core machine.
 *
 * @returns the worktree, and the report of the leftovers reclaimed (usually empty).
 * @throws TeamError `invalid_input` (nothing created) when: `name` or `spawnId` cannot name a
 *   worktree; `repoCwd` does not exist or is not inside a git work tree; the repository has no
 *   commit yet (unborn HEAD); `fromBranch` is not a local branch; `base` is not a commit that is an
 *   ancestor of the start point; the branch already exists (a reused spawn id).
 * @throws TeamError `io_error` when `worktreesRoot` cannot be made or git fails to add the worktree
 *   (its message is git's, naming the command and dir).
 */
export async function prepareWorktree(options: PrepareWorktreeOptions): Promise<PrepareResult> {
  const branch = worktreeBranch(options.name, options.spawnId);
  const dirName = worktreeDirName(options.name, options.spawnId);
  const root = resolve(options.worktreesRoot);
  const dir = join(root, dirName);
  const repo = await openRepo(options.repoCwd, options);
  const start = await startPoint(repo.git, options);
  const base = await chooseBase(repo.git, start, options);
  await refuseExisting(repo.git, branch, dir);
  await ensurePrivateDir(root);
  const reclaimed = await reclaimWorktrees({
    env: options.env,
    silenceTimeoutMs: options.silenceTimeoutMs,
    locks: options.locks,
    worktreesRoot: root,
    keep: (leftover) => !isDirOfName(basename(leftover), options.name),
  });
  const worktree: Worktree = {
    name: options.name,
    spawnId: options.spawnId,
    dir,
    cwd: repo.prefix === "" ? dir : join(dir, repo.prefix),
    branch,
    base,
    start,
    repoRoot: repo.root,
    ...(options.fromBranch === undefined ? {} : { from: options.fromBranch }),
  };
  await addWorktree(repo.git, worktree);
  return { worktree, reclaimed };
}

/**
 * Undoes `prepareWorktree` for a spawn that failed after it (L23): removes the dir and deletes the
 * branch when it holds no commits beyond its start. Anything the failed child did write is not
 * thrown away: it is captured as `captureWorktree` would (commit message `... left by a failed
 * spawn`), and a branch with work is kept. Runs under `options.locks` like `captureWorktree`.
 * @returns the capture report; `kept` is false in the usual case.
 * @throws TeamError `io_error` as `captureWorktree`.
 */
export function discardWorktree(wt: Worktree, options: CaptureOptions = {}): Promise<WorktreeCapture> {
  return captureAs(wt, "discard", options);
}

/**
 * `git worktree add` plus the base in git config, retried: a parallel add in the same repository
 * makes git 2.39 die while it lists worktrees. Each failed attempt is rolled back first. A failure
 * after git made the dir (a failing post-checkout hook) is not retried.
 */
async function addWorktree(git: Git, wt: Worktree): Promise<void> {
  const add = ["worktree", "add", "-b", wt.branch, wt.dir, wt.start];
  const config = ["config", baseConfigKey(wt.branch), wt.base];
  for (let attempt = 1; ; attempt++) {
    await writeWorktreeRecord(wt, new Date());
    // In parallel: `git config` prints nothing, so simple-git holds its result 50 ms (see git-runner.ts).
    const [added, configured] = await Promise.all([git.probe(add), probeRetrying(git, config)]);
    if (added.ok && configured.ok) return;
    // The race dies before git makes the dir; a dir that exists means a later step failed, such
    // as a post-checkout hook, and trying again would only repeat it.
    const final = attempt >= GIT_ATTEMPTS || (!added.ok && (await pathKind(wt.dir)) !== "missing");
    await rollBack(git, wt);
    if (final) {
      const [failed, result] = added.ok ? [config, configured] : [add, added];
      throw gitFailure(git.dir, failed, new Error(result.ok ? "" : result.message));
    }
    await backOff(attempt);
  }
}

/**
 * Removes what a failed `worktree add` made. No teammate has run there, so the dir holds only the
 * checkout (and whatever hooks wrote): it is deleted without a capture commit, which would record
 * a half-done checkout as deletions.
 */
async function rollBack(git: Git, wt: Worktree): Promise<void> {
  await git.probe(["worktree", "remove", "--force", "--force", wt.dir]);
  await rm(wt.dir, { recursive: true, force: true });
  await git.probe(["worktree", "prune"]);
  const tip = await git.probe(["rev-parse", "--verify", `refs/heads/${wt.branch}^{commit}`]);
  // Deleting the branch also drops its config section; without a branch, drop the base by hand.
  if (tip.ok && tip.out === wt.start) await probeRetrying(git, ["branch", "-D", wt.branch]);
  else if ((await git.probe(["config", "--get", baseConfigKey(wt.branch)])).ok) {
    await probeRetrying(git, ["config", "--unset", baseConfigKey(wt.branch)]);
  }
  await removeWorktreeRecord(wt.dir);
}

interface Repo {
  git: Git;
  /** Absolute top level of the work tree containing `repoCwd`. */
  root: string;
  /** Path of `repoCwd` inside it, e.g. `packages/app` (empty at the top level). */
  prefix: string;
}

async function openRepo(repoCwd: string, options: GitRunOptions): Promise<Repo> {
  const cwd = resolve(repoCwd);
  const kind = await pathKind(cwd);
  if (kind !== "dir") {
    throw refusal(`${cwd} ${kind === "missing" ? "does not exist" : "is not a directory"}`, cwd);
  }
  const git = gitIn(cwd, options);
  const inside = await git.probe(["rev-parse", "--is-inside-work-tree"]);
  if (!inside.ok || inside.out !== "true") {
    const found = inside.ok ? "it is inside a git dir or bare repository" : "git found no repository";
    throw refusal(`${cwd} is not inside a git work tree (${found})`, cwd);
  }
  const [root = cwd, prefix = ""] = (await git.run(["rev-parse", "--show-toplevel", "--show-prefix"])).split("\n");
  return { git: gitIn(root, options), root, prefix: prefix.replace(/\/$/, "") };
}

async function startPoint(git: Git, options: PrepareWorktreeOptions): Promise<string> {
  if (options.fromBranch !== undefined) {
    const tip = await git.probe(["rev-parse", "--verify", `refs/heads/${options.fromBranch}^{commit}`]);
    if (tip.ok) return tip.out;
    throw new TeamError(
      "invalid_input",
      `Cannot continue branch ${JSON.stringify(options.fromBranch)} in ${git.dir}: no local branch of that name exists. ` +
        "Expected the branch of a kept teammate worktree (e.g. pi-team/alice-3f2a9c1e); see `git branch --list 'pi-team/*'`.",
    );
  }
  const head = await git.probe(["rev-parse", "--verify", "HEAD^{commit}"]);
  if (head.ok) return head.out;
  throw new TeamError(
    "invalid_input",
    `Cannot give a teammate a worktree of ${git.dir}: the repository has no commit yet (HEAD is unborn). ` +
      "A worktree needs a commit to start from; make a first commit, or use a role without worktree: true.",
  );
}

async function chooseBase(git: Git, start: string, options: PrepareWorktreeOptions): Promise<string> {
  let wanted = options.base;
  if (wanted === undefined && options.fromBranch !== undefined) {
    const recorded = await git.probe(["config", "--get", baseConfigKey(options.fromBranch)]);
    if (recorded.ok && recorded.out !== "") wanted = recorded.out;
  }
  if (wanted === undefined) return start;
  if (wanted.startsWith("-")) throw badBase(git, wanted, "it names no commit");
  const sha = await git.probe(["rev-parse", "--verify", `${wanted}^{commit}`]);
  const ancestor = sha.ok && (await git.probe(["merge-base", "--is-ancestor", sha.out, start])).ok;
  if (sha.ok && ancestor) return sha.out;
  throw badBase(git, wanted, sha.ok ? `commit ${sha.out} is not an ancestor of the start point ${start}` : "it names no commit");
}

function badBase(git: Git, wanted: string, found: string): TeamError {
  return new TeamError(
    "invalid_input",
    `Cannot use base ${JSON.stringify(wanted)} in ${git.dir}: ${found}. ` +
      "Expected the base of the branch being continued (a commit it grew from).",
  );
}

async function refuseExisting(git: Git, branch: string, dir: string): Promise<void> {
  const existing = await git.probe(["rev-parse", "--verify", `refs/heads/${branch}`]);
  if (existing.ok) {
    throw new TeamError(
      "invalid_input",
      `Cannot create branch ${branch} in ${git.dir}: it exists already. Expected a new spawn id for every spawn.`,
    );
  }
  if ((await pathKind(dir)) !== "missing") {
    throw new TeamError(
      "invalid_input",
      `Cannot create the worktree ${dir}: something exists at that path already. Expected a new spawn id for every spawn.`,
    );
  }
}

function refusal(what: string, cwd: string): TeamError {
  return new TeamError(
    "invalid_input",
    `Cannot give a teammate a worktree: ${what}. Expected repoCwd to be a dir inside a git work tree with at least ` +
      `one commit (e.g. run \`git -C ${cwd} init\` and commit), or use a role without worktree: true.`,
  );
}

/**
 * Whether `branch` is a local branch of the repository at `repoCwd` (issue 20: a restored worktree
 * teammate starts on its kept branch only if the exit capture kept it). False when git cannot tell.
 */
export async function localBranchExists(repoCwd: string, branch: string): Promise<boolean> {
  const tip = await gitIn(repoCwd).probe(["rev-parse", "--verify", "--quiet", `refs/heads/${branch}^{commit}`]);
  return tip.ok;
}
