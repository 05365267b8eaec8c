/**
 * The commit step of a capture (R20, L23, W14): stage what the teammate left, commit it, and make
 * sure every commit of the worktree is on a branch that the capture reports.
 *
 * Rule: a capture creates commits only on the worktree's own branch or on a rescue branch it makes
 * (`<branch>-rescue-<sha8>`); it never moves a branch the teammate checked out (a user's `feature`,
 * another teammate's branch).
 */
import { rm } from "node:fs/promises";
import { resolve } from "node:path";
import type { Git } from "./git-runner.ts";
import { CAPTURE_IDENTITY_ARGS, captureCommitArgs, captureMessage, type CaptureReason } from "./worktree-naming.ts";
import { addArgs } from "./worktree-nested.ts";
import { pathKind } from "./worktree-paths.ts";
import type { OtherBranch, Worktree } from "./worktree-types.ts";

/** What the commit step did. */
export interface Committed {
  /** A capture commit was made (on the own branch or a rescue branch). */
  committed: boolean;
  /** Branches other than the own one that hold work (see `WorktreeCapture.otherBranches`). */
  otherBranches: OtherBranch[];
}

/**
 * Stages everything in `git.dir` except the `exclude`d nested repositories and commits it when
 * anything is staged. A stale `index.lock` is removed first (the teammate is gone).
 *
 * HEAD on the own branch: a plain `git commit` (fixed identity, `--no-verify`). HEAD elsewhere
 * (another branch, detached, unborn): the leftovers become a commit on top of HEAD made with
 * `git commit-tree`, so no branch moves, and it is put on the own branch when HEAD was exactly at
 * the own branch's tip (a fast-forward, HEAD then points at the own branch again), else on a rescue
 * branch (HEAD is then detached at it). Without leftovers, a HEAD commit the own branch lacks is
 * reported: the teammate's checked-out branch as it is, or a rescue branch for a detached HEAD.
 * Each case adds a note.
 * @throws TeamError `io_error` when staging or committing fails (nothing is deleted then).
 */
export async function commitLeftovers(
  wt: Worktree,
  git: Git,
  reason: CaptureReason,
  exclude: readonly string[],
  notes: string[],
): Promise<Committed> {
  await clearStaleIndexLock(git, notes);
  const head = await git.probe(["symbolic-ref", "-q", "HEAD"]);
  await git.run(addArgs(exclude));
  // Something is staged when the index's tree differs from HEAD's (no HEAD tree: an unborn branch).
  const [index, headTree] = await Promise.all([git.run(["write-tree"]), git.probe(["rev-parse", "--verify", "HEAD^{tree}"])]);
  const staged = !headTree.ok || headTree.out !== index;
  const message = captureMessage({ name: wt.name, spawnId: wt.spawnId, dir: wt.dir, reason });
  if (head.ok && head.out === `refs/heads/${wt.branch}`) {
    if (staged) await git.run(captureCommitArgs(message));
    return { committed: staged, otherBranches: [] };
  }
  return offBranch(wt, git, { head: head.ok ? head.out : undefined, staged, index, message }, notes);
}

interface Leftovers {
  /** The ref HEAD points at (`refs/heads/feature`), or undefined for a detached HEAD. */
  head: string | undefined;
  staged: boolean;
  /** The staged tree. */
  index: string;
  message: string;
}

/** HEAD had left the own branch: commit and keep the work without moving any other branch. */
async function offBranch(wt: Worktree, git: Git, s: Leftovers, notes: string[]): Promise<Committed> {
  const ownRef = `refs/heads/${wt.branch}`;
  const [at, ownTip] = (
    await Promise.all([git.probe(["rev-parse", "--verify", "HEAD^{commit}"]), git.probe(["rev-parse", "--verify", `${ownRef}^{commit}`])])
  ).map((p) => (p.ok ? p.out : undefined));
  const name = s.head?.replace(/^refs\/heads\//, "");
  const untouched = name === undefined ? "" : ` (${name} itself was not changed)`;
  const here =
    `HEAD of ${wt.dir} was ${name === undefined ? "detached" : `on ${name}`}` +
    `${at === undefined ? " with no commit yet" : ` at ${at.slice(0, 12)}`}, not on ${wt.branch}`;
  if (s.staged) {
    const sha = await git.run([...CAPTURE_IDENTITY_ARGS, "commit-tree", s.index, ...(at === undefined ? [] : ["-p", at]), "-m", s.message]);
    if (ownTip !== undefined && at === ownTip) {
      await git.run(["update-ref", ownRef, sha, ownTip]);
      await git.run(["symbolic-ref", "HEAD", ownRef]);
      notes.push(`${here}; it was at the tip of ${wt.branch}, so what was left uncommitted was committed onto ${wt.branch}${untouched}.`);
      return { committed: true, otherBranches: [] };
    }
    const rescue = await keepOnRescueBranch(wt, git, sha);
    await git.run(["update-ref", "--no-deref", "HEAD", sha]);
    notes.push(`${here}; what was left uncommitted was committed on top of it and kept as branch ${rescue.branch}${untouched}.`);
    return { committed: true, otherBranches: [rescue] };
  }
  if (at === undefined || (ownTip !== undefined && (await git.probe(["merge-base", "--is-ancestor", at, ownTip])).ok)) {
    notes.push(`${here}; ${at === undefined ? "nothing was committed there" : `${wt.branch} contains that commit`}.`);
    return { committed: false, otherBranches: [] };
  }
  if (name !== undefined) {
    notes.push(`${here}; ${name} holds commits that ${wt.branch} does not, and was left as it is.`);
    return { committed: false, otherBranches: [await otherBranch(wt, git, name, false)] };
  }
  const rescue = await keepOnRescueBranch(wt, git, at);
  notes.push(`${here}; that commit, which ${wt.branch} does not contain, is kept as branch ${rescue.branch}.`);
  return { committed: false, otherBranches: [rescue] };
}

/** Points `<own branch>-rescue-<sha8>` at `sha` (made, or moved there by an earlier capture). */
async function keepOnRescueBranch(wt: Worktree, git: Git, sha: string): Promise<OtherBranch> {
  const branch = `${wt.branch}-rescue-${sha.slice(0, 8)}`;
  await git.run(["update-ref", `refs/heads/${branch}`, sha]);
  return otherBranch(wt, git, branch, true);
}

/** The report of `branch`; its diff is from the fork point, or all of it when it shares no history with the base. */
async function otherBranch(wt: Worktree, git: Git, branch: string, created: boolean): Promise<OtherBranch> {
  const forked = await git.probe(["merge-base", wt.base, `refs/heads/${branch}`]);
  const diffCommand = forked.ok ? `git diff ${wt.base}...${branch}` : `git log -p ${branch}`;
  return { branch, created, diffCommand };
}

/** A teammate killed mid-command leaves `index.lock`; with the teammate gone it only blocks `git add`. */
async function clearStaleIndexLock(git: Git, notes: string[]): Promise<void> {
  const lock = await git.probe(["rev-parse", "--git-path", "index.lock"]);
  if (!lock.ok) return;
  const path = resolve(git.dir, lock.out);
  if ((await pathKind(path)) === "missing") return;
  await rm(path, { force: true });
  notes.push(`Removed the stale git index lock ${path} left by the teammate.`);
}
