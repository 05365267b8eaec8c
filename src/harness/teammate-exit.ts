import { reapNote } from "../reap/index.ts";
import { ENV } from "../mail/identity.ts";
import type { TeammateEffect, TeammateEvent } from "../team/lifecycle.ts";
import type { Member } from "../team/member.ts";
import type { ResolvedHarnessOptions } from "./harness-types.ts";
import type { TeamDriver } from "./team-driver.ts";
import { captureHasNews, captureNote, worktreeKeptText } from "./worktree-report.ts";

/** What releasing needs of the team: its console notes and leader events. */
interface ExitHost {
  note(text: string, m?: Member): void;
  event(type: string, teammate: string, body: string): void;
}

/**
 * Watches `m`'s child (started by the spawn): on exit, its outbox is drained and its close applied
 * on its queue, with the board tasks it held; the lifecycle then releases what it held (`release`
 * effect, `releaseHoldings`) and `m.closed` resolves after all of that. Returns at once.
 */
export function watchExit(team: TeamDriver, m: Member): void {
  const proc = m.proc!;
  void proc.exited.then((exit) => team.enqueue(m, async () => {
    team.stream.forget(m); // its pipe is closed: no record of this incarnation can come again
    const records = await team.mail.read(m.outbox); // a last report before the end still counts
    const closed: TeammateEvent = { type: "closed", exit: { code: exit.code, signal: exit.signal }, stderrTail: proc.stderrTail(2048).trim(), claims: team.heldClaims(m) };
    return [{ type: "outbox", records }, closed];
  }));
}

/**
 * Carries out a `release` effect of `m` (R20, L23): stops its child if asked (a spawn given up),
 * ends what it left running (`reapIncarnation`), keeps (`capture`) or removes (`discard`) its
 * worktree, removes its launch dirs. Resolves with what a successor is told: the kept branch and
 * a dir left in place. Never rejects: each failure is noted.
 */
export async function releaseHoldings(host: ExitHost, o: ResolvedHarnessOptions, m: Member, e: Extract<TeammateEffect, { type: "release" }>): Promise<{ kept?: { name: string; base: string }; leftAt?: string }> {
  if (e.stop) await m.proc?.stop({ graceMs: 500, termGraceMs: 500, abortFirst: false });
  // Before the worktree capture: a leftover process could still be writing into it.
  if (e.reap) await reapIncarnation(host, o, m);
  let result: { kept?: { name: string; base: string }; leftAt?: string } = {};
  if (e.worktree?.how === "capture") result = await keepWorktree(host, o, m, e.worktree.wt);
  if (e.worktree?.how === "discard") {
    await o.files.discardWorktree(e.worktree.wt, { locks: o.worktreeLocks }).catch((error: unknown) => host.note(`could not remove the worktree of a failed spawn: ${String(error)}`, m));
  }
  const problem = await o.files.removeLaunchDirs([...e.launchDirs]);
  if (problem) host.note(problem, m);
  return result;
}

/**
 * Once `m`'s child has closed (a stop, a crash, a spawn given up): SIGKILLs every process still
 * carrying its spawn id (src/reap/reaper.ts), which is what its `bash` left running (background,
 * `nohup`, `setsid` or double-forked commands; the whole tree after a SIGKILL), and notes it. Never
 * throws.
 */
export async function reapIncarnation(host: ExitHost, o: ResolvedHarnessOptions, m: Member): Promise<void> {
  try {
    const text = reapNote(await o.files.reapMarked([{ key: ENV.spawnId, value: m.spawnId }]), `@${m.name} (spawn ${m.spawnId})`);
    if (text) host.note(text, m);
  } catch (error) {
    host.note(`could not look for processes @${m.name} left running: ${error instanceof Error ? error.message : String(error)}`, m);
  }
}

/**
 * After a stop or a crash (R20, L23): commits what is left in `m`'s worktree onto its branch,
 * removes the directory and keeps the branch (under the session's shared `locks`, so a
 * same-name respawn's reclaim never captures it at the same time). The leader hears once, with
 * a `worktree_kept` event whenever the capture found anything (work on the branch or on other
 * branches, a capture commit, a dir left in place), with the capture's notes; a worktree with
 * nothing at all loses its empty branch (a note only). See src/harness/worktree-report.ts. Never throws.
 */
async function keepWorktree(host: ExitHost, o: ResolvedHarnessOptions, m: Member, wt: NonNullable<Member["worktree"]>): Promise<{ kept?: { name: string; base: string }; leftAt?: string }> {
  try {
    const cap = await o.files.captureWorktree(wt, { locks: o.worktreeLocks });
    host.note(captureNote(cap), m);
    if (captureHasNews(cap)) host.event("worktree_kept", m.name, worktreeKeptText(`@${m.name} stopped`, cap));
    return { ...(cap.kept ? { kept: { name: cap.branch, base: cap.base } } : {}), ...(cap.removed ? {} : { leftAt: wt.dir }) };
  } catch (error) {
    const text = `@${m.name}'s worktree ${wt.dir} could not be committed and was left in place (nothing deleted): ${error instanceof Error ? error.message : String(error)}`;
    host.note(text, m);
    host.event("worktree_capture_failed", m.name, text);
    return { leftAt: wt.dir };
  }
}
