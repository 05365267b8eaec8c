import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { ExtensionAPI, ExtensionContext, SessionShutdownEvent, SessionStartEvent } from "@earendil-works/pi-coding-agent";
import { Type, type Static } from "typebox";
import { errorText } from "../error-text.ts";
import { harnessEventText } from "../team/prompts.ts";
import { readValidated, SnapshotWriter, sweepNotes, sweepRuntimeDirs } from "../store/index.ts";

/**
 * What happens to the team at a session boundary, beyond the harness's own close (R57, W17).
 *
 * Every `session_shutdown` stops every teammate (leader.ts). On quit that is the end. On `/new`,
 * `/resume` and `/fork` Pi builds a new extension instance for the next session; on `/reload` it
 * builds one for the same session, with freshly loaded code. Teammates are not handed over: a
 * teammate is a child process spoken to over stdio pipes that only the old instance holds, and the
 * two instances share nothing in memory (see references/runtime-state.md "Session boundaries").
 * So the old instance leaves a small stop notice naming whom it stopped, and the new instance,
 * in the same process, reads it at `session_start` and says so: always to the user, and after a
 * reload also to the leader's model in its next turn, since its conversation goes on and it would
 * otherwise keep addressing teammates that are gone. After `/new`, `/resume` or `/fork` the model
 * is not told: nothing of the old session reaches a new one (L29).
 */

/** Version of the stop notice file. */
export const STOP_NOTICE_VERSION = 1;

const StopNoticeSchema = Type.Object({
  v: Type.Literal(STOP_NOTICE_VERSION),
  pid: Type.Integer({ minimum: 1 }),
  reason: Type.Union([Type.Literal("reload"), Type.Literal("new"), Type.Literal("resume"), Type.Literal("fork")]),
  at: Type.Integer({ minimum: 0 }),
  teammates: Type.Array(Type.String(), { minItems: 1 }),
});

/** The notice the old instance leaves: who was stopped at which boundary. */
export type StopNotice = Static<typeof StopNoticeSchema>;

/** Custom type of the leader-turn message after a reload (also the `details.type`). */
export const TEAMMATES_STOPPED_EVENT = "teammates_stopped";

/**
 * `<agent dir>/teammate/.stopped-<pid>.json`: keyed by process, not by session, because the
 * instance that reads it may run a different session (a `/new` with a session file). The sweep
 * removes one whose process is gone (src/store/sweep.ts).
 */
export function stopNoticePath(agentDirPath: string, pid: number = process.pid): string {
  return join(agentDirPath, "teammate", `.stopped-${pid}.json`);
}

/** Options of `leaveStopNotice`. */
export interface LeaveStopNoticeOptions {
  agentDir: string;
  reason: SessionShutdownEvent["reason"];
  /** Names of the teammates that were living when the shutdown began. */
  teammates: string[];
  pid?: number;
  now?: () => number;
}

/**
 * Called by the old instance in `session_shutdown`, after its teammates were stopped. Writes
 * nothing on quit (no instance follows) or when nobody was stopped.
 * @returns undefined when written or not needed, else a message saying what could not be written
 *   (the caller then tells the user itself: a stop is never silent).
 */
export async function leaveStopNotice(o: LeaveStopNoticeOptions): Promise<string | undefined> {
  if (o.reason === "quit" || o.teammates.length === 0) return undefined;
  const pid = o.pid ?? process.pid;
  const notice: StopNotice = { v: STOP_NOTICE_VERSION, pid, reason: o.reason, at: (o.now ?? Date.now)(), teammates: o.teammates };
  try {
    await new SnapshotWriter().write(stopNoticePath(o.agentDir, pid), notice);
    return undefined;
  } catch (error) {
    return `pi-resident-teams: ${stopSentence(notice)} (the note for the next session could not be written: ${errorText(error)})`;
  }
}

/**
 * Called by the new instance first thing in `session_start`: reads and removes this process's
 * stop notice. A notice at `startup` was left by an earlier process with the same pid and is only
 * removed; one whose boundary does not match `reason` is stale and removed too.
 * @returns the notice, or undefined (none, stale, or unreadable: `problem` says which).
 */
export async function takeStopNotice(
  agentDirPath: string,
  reason: SessionStartEvent["reason"],
  pid: number = process.pid,
): Promise<{ notice?: StopNotice; problem?: string }> {
  const path = stopNoticePath(agentDirPath, pid);
  const read = await readValidated(path, StopNoticeSchema, "stop notice");
  if (!read.ok && read.reason === "missing") return {};
  await rm(path, { force: true }).catch(() => undefined);
  if (reason === "startup") return {};
  if (!read.ok) return { problem: read.message };
  const notice = read.value;
  if (notice.reason !== reason || notice.pid !== pid) return {};
  return { notice };
}

/** "/reload stopped 2 teammates: @alice, @bob". */
function stopSentence(n: Pick<StopNotice, "reason" | "teammates">): string {
  const who = n.teammates.map((t) => `@${t}`).join(", ");
  const count = n.teammates.length === 1 ? "1 teammate" : `${n.teammates.length} teammates`;
  return `/${n.reason} stopped ${count}: ${who}`;
}

/**
 * The one line the user gets when the session ends for good (quit, `pi -p` done, a signal) with
 * teammates still living: they were stopped, and tasks they held are pending again; no next
 * instance will say so (W17). Undefined when nobody was stopped.
 */
export function endStopText(teammates: readonly string[]): string | undefined {
  if (teammates.length === 0) return undefined;
  const count = teammates.length === 1 ? "1 teammate" : `${teammates.length} teammates`;
  return `pi-resident-teams: the session ended and stopped ${count}: ${teammates.map((t) => `@${t}`).join(", ")}`;
}

/** The user's notification for a notice. */
export function stopNoticeUserText(n: StopNotice): string {
  if (n.reason === "reload") {
    return `pi-resident-teams: ${stopSentence(n)}. A running teammate cannot be handed over to the reloaded extension, so it was shut down; tasks it held are pending again. Ask for them again (teammate_spawn) if still needed.`;
  }
  return `pi-resident-teams: ${stopSentence(n)} of the previous session. Teammates belong to the session that spawned them.`;
}

/** The leader model's next-turn message after a reload (undefined for other boundaries, L29). */
export function stopNoticeLeaderText(n: StopNotice): string | undefined {
  if (n.reason !== "reload") return undefined;
  const who = n.teammates.map((t) => `@${t}`).join(", ");
  return harnessEventText({
    type: TEAMMATES_STOPPED_EVENT,
    teammate: n.teammates.join(","),
    body: `The extension was reloaded (/reload), which shut down every teammate: ${who}. They are gone: messages to them fail, and tasks they held are pending on the board again. If their work is still needed, spawn them again with teammate_spawn and restate the assignment; their earlier context is lost.`,
  });
}

/**
 * Tells the user (warning notification) and, after a reload, the leader's next turn
 * (`deliverAs: "nextTurn"`: no turn is started, the message rides with the next prompt). With
 * `restoring` a reload only tells the user that the team is coming back.
 * Never throws.
 */
export function announceStopNotice(pi: ExtensionAPI, ctx: ExtensionContext, taken: { notice?: StopNotice; problem?: string }, customType: string, restoring = false): void {
  try {
    if (taken.problem) ctx.ui.notify(`pi-resident-teams: ${taken.problem}`, "warning");
    const n = taken.notice;
    if (!n) return;
    // A reload that brings the team back: the restore's own message names who came back (issue 20).
    if (restoring && n.reason === "reload") {
      ctx.ui.notify(`pi-resident-teams: ${stopSentence(n)}; restoring them with their context.`, "info");
      return;
    }
    ctx.ui.notify(stopNoticeUserText(n), "warning");
    const text = stopNoticeLeaderText(n);
    if (text) {
      pi.sendMessage(
        { customType, content: text, display: true, details: { type: TEAMMATES_STOPPED_EVENT, teammates: n.teammates, reason: n.reason } },
        { deliverAs: "nextTurn" },
      );
    }
  } catch {
    // A failed notification must not stop the session from starting.
  }
}

/**
 * Sweeps other sessions' leftover runtime dirs in the background (src/store/sweep.ts) and writes
 * what it removed or could not remove to `note` (the harness note log, never the terminal).
 * @returns the sweep, for tests; it never rejects.
 */
export function startSweep(o: { agentDir: string; ownKey: string; note: (text: string) => void }): Promise<void> {
  return sweepRuntimeDirs({ agentDir: o.agentDir, ownKey: o.ownKey })
    .then((report) => {
      for (const line of sweepNotes(report)) o.note(line);
    })
    .catch((error: unknown) => o.note(`sweep failed: ${errorText(error)}`));
}
