/**
 * What the leader hears about a worktree capture (R20, R30, L23): the `worktree_kept` event body
 * and the harness-log note. Pure: no I/O.
 *
 * Rule: the leader gets an event whenever the capture found anything — work on the teammate's
 * branch, work on other branches (a rescue branch, the branch the teammate checked out), a capture
 * commit, or a dir left in place — and every note of the capture goes with it. "No changes" is said
 * only when there was nothing at all and the capture noted nothing.
 */
import type { WorktreeCapture } from "../isolation/index.ts";

/** Whether the capture found something the leader must hear of (see the module rule). */
export function captureHasNews(cap: WorktreeCapture): boolean {
  return cap.kept || cap.committed || cap.otherBranches.length > 0 || !cap.removed;
}

/**
 * The `worktree_kept` event body: `subject` (e.g. `@bob stopped`), what became of the dir and the
 * branch, the diffstat, the command to inspect each branch holding work, nested repositories left
 * in the dir, the merge hint, and the capture's notes. Lines joined with `\n`.
 */
export function worktreeKeptText(subject: string, cap: WorktreeCapture): string {
  const dir = cap.removed
    ? `its worktree was ${cap.committed ? "committed" : "already committed"} and removed`
    : `its worktree was ${cap.committed ? "committed but " : ""}left in place at ${cap.dir}`;
  const work = cap.kept && cap.commits > 0;
  const branch = work
    ? `its work is kept on branch ${cap.branch} (${commitsText(cap.commits)} on top of ${cap.base.slice(0, 12)})`
    : cap.kept
      ? `its branch ${cap.branch} holds no commit beyond ${cap.base.slice(0, 12)}`
      : `its own branch ${cap.branch} held no work and is gone`;
  const lines = [`${subject}; ${dir}, and ${branch}.`];
  if (work) {
    if (cap.diffstat !== "") lines.push(cap.diffstat);
    lines.push(`Inspect it with: ${cap.diffCommand}`);
  }
  for (const other of cap.otherBranches) {
    const what = other.created ? "a rescue branch the capture made for commits that were on no branch" : "the branch the teammate had checked out, left as it was";
    lines.push(`Work is also on branch ${other.branch} (${what}). Inspect it with: ${other.diffCommand}`);
  }
  if (cap.nestedRepos.length > 0) {
    lines.push(`Nested git repositories in ${cap.dir} are not on any branch and exist only there: ${cap.nestedRepos.join(", ")}.`);
  }
  if (work) {
    const remove = cap.removed ? `; delete it with: git branch -D ${cap.branch}` : "";
    lines.push(`Merge it with: git merge ${cap.branch} (or git cherry-pick)${remove}.`);
  }
  if (cap.notes.length > 0) lines.push(`Notes: ${cap.notes.join(" ")}`);
  return lines.join("\n");
}

/** The one-line harness-log note of a capture; carries every note of the capture. */
export function captureNote(cap: WorktreeCapture): string {
  const notes = cap.notes.length > 0 ? ` Notes: ${cap.notes.join(" ")}` : "";
  if (!captureHasNews(cap)) {
    if (notes === "") return `worktree ${cap.dir} had no changes; it and its empty branch ${cap.branch} were removed`;
    return `worktree ${cap.dir} was removed and no branch of it was kept (${cap.branch}).${notes}`;
  }
  const parts = [cap.kept ? `work kept on branch ${cap.branch}: ${cap.diffCommand}` : `branch ${cap.branch} held no work and is gone`];
  for (const other of cap.otherBranches) parts.push(`work also on branch ${other.branch}: ${other.diffCommand}`);
  if (!cap.removed) parts.push(`worktree left in place at ${cap.dir}`);
  return `${parts.join("; ")}.${notes}`;
}

function commitsText(n: number): string {
  return `${n} commit${n === 1 ? "" : "s"}`;
}
