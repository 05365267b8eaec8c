import { reapNote } from "../reap/index.ts";
import { ENV } from "../team/identity.ts";
import type { Member } from "../team/member.ts";
import type { ResolvedHarnessOptions } from "./harness-types.ts";
import type { TeamDriver } from "./team-driver.ts";
import { captureHasNews, captureNote, worktreeKeptText } from "./worktree-report.ts";

/**
 * Watches `m`'s child (started by the spawn): on exit, ends what it left running (`reapIncarnation`)
 * while it drains its outbox and closes it on its queue, then keeps its worktree's work and removes
 * the dirs its launch made; `m.closed` resolves after all of that. Returns at once.
 */
export function watchExit(team: TeamDriver, o: ResolvedHarnessOptions, m: Member): void {
  const proc = m.proc!;
  // Before the worktree capture: a leftover process could still be writing into it.
  const reaped = proc.exited.then(() => reapIncarnation(team, o, m));
  void proc.exited.then((exit) => team.enqueue(m, async () => {
    for (const dispose of m.disposers.splice(0)) dispose();
    team.stream.forget(m); // its pipe is closed: no record of this incarnation can come again
    const records = await team.mail.read(m.outbox); // a last report before the end still counts
    return [{ type: "outbox", records }, { type: "closed", exit: { code: exit.code, signal: exit.signal }, stderrTail: proc.stderrTail(2048).trim() }];
  })).then(() => reaped).then(() => keepWorktree(team, o, m))
    .then(() => o.files.removeLaunchDirs(m.launchDirs.splice(0)))
    .then((problem) => problem && team.note(problem, m))
    .finally(() => m.markClosed());
}

/**
 * Once `m`'s child has closed (a stop, a crash, a spawn given up): SIGKILLs every process still
 * carrying its spawn id (src/reap/reaper.ts), which is what its `bash` left running (background,
 * `nohup`, `setsid` or double-forked commands; the whole tree after a SIGKILL), and notes it. Never
 * throws.
 */
export async function reapIncarnation(team: TeamDriver, o: ResolvedHarnessOptions, m: Member): Promise<void> {
  try {
    const text = reapNote(await o.files.reapMarked([{ key: ENV.spawnId, value: m.spawnId }]), `@${m.name} (spawn ${m.spawnId})`);
    if (text) team.note(text, m);
  } catch (error) {
    team.note(`could not look for processes @${m.name} left running: ${error instanceof Error ? error.message : String(error)}`, m);
  }
}

/**
 * After a stop or a crash (R20, L23): commits what is left in `m`'s worktree onto its branch,
 * removes the directory and keeps the branch (under the session's shared `locks`, so a
 * same-name respawn's reclaim never captures it at the same time). The leader hears once, with
 * a `worktree_kept` event whenever the capture found anything (work on the branch or on other
 * branches, a capture commit, a dir left in place), with the capture's notes; a worktree with
 * nothing at all loses its empty branch (a note only). See src/leader/worktree-report.ts. Never throws.
 */
async function keepWorktree(team: TeamDriver, o: ResolvedHarnessOptions, m: Member): Promise<void> {
  if (!m.worktree) return;
  try {
    const cap = await o.files.captureWorktree(m.worktree, { locks: o.worktreeLocks });
    if (cap.kept) m.kept = { name: cap.branch, base: cap.base };
    if (!cap.removed) m.leftAt = m.worktree.dir;
    team.note(captureNote(cap), m);
    if (captureHasNews(cap)) team.event("worktree_kept", m.name, worktreeKeptText(`@${m.name} stopped`, cap));
  } catch (error) {
    const text = `@${m.name}'s worktree ${m.worktree.dir} could not be committed and was left in place (nothing deleted): ${error instanceof Error ? error.message : String(error)}`;
    m.leftAt = m.worktree.dir;
    team.note(text, m);
    team.event("worktree_capture_failed", m.name, text);
  }
}
