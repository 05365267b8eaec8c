import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { formatAgentGuidance, formatUntrustedAgentsHint, quoteFileText } from "../agents/index.ts";
import { errorText } from "../error-text.ts";
import { TeamError } from "../errors.ts";
import { registerLeaderBoardTools } from "./board-tools.ts";
import { announceBoardCheck, sessionTrailPort } from "../boardhost/index.ts";
import { agentRolesReferencePath, leaderGuidance } from "./guidance.ts";
import type { LeaderDelivery } from "../team/leader-delivery.ts";
import { agentDir, sessionKey } from "../store/index.ts";
import { registerHeadless } from "./headless.ts";
import { announceStopNotice, endStopText, leaveStopNotice, takeStopNotice } from "./session-boundary.ts";
import { TeamSession } from "./team-session.ts";
import { lastTeamRecord, sessionTeamRecordPort } from "./team-record.ts";
import { restoredLeaderText, restoredUserText, restoreEnabled, TEAMMATES_RESTORED_EVENT, type RestoreOutcome } from "./team-restore.ts";
import { registerLeaderTools } from "./tools.ts";
import { registerTeamCommands } from "./commands.ts";
import { exportAtEnd } from "./run-export.ts";
import { nextTurnNote } from "./user-orders.ts";
import { FinishLine } from "./finish-line.ts";
import { knownModels } from "./model-registry.ts";
import { FINISH_ENTRY_TYPE, HARNESS_EVENT_TYPE, registerTeamRenderers, TEAMMATE_REPORT_TYPE } from "../ui/renderers.ts";
import { installWidget } from "./team-ui.ts";

/** The package root, which every teammate loads with `-e`. */
const PACKAGE_DIR = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
/** At most this many characters of a skipped agent file's diagnostic go into the leader's prompt (issue 18). */
const MAX_DIAGNOSTIC_CHARS = 400;

/** Custom message types the leader's session receives (drawn by src/ui/renderers.ts). */
export const REPORT_MESSAGE = TEAMMATE_REPORT_TYPE;
export const HARNESS_EVENT_MESSAGE = HARNESS_EVENT_TYPE;

/**
 * The leader side of the extension. One `TeamSession` (harness plus board) lives from
 * `session_start` to `session_shutdown`; tools reach it through a getter. Each report or
 * actionable event becomes its own follow-up turn, even while the leader is busy (R26, L2).
 */
export function registerLeader(pi: ExtensionAPI): void {
  let session: TeamSession | undefined;
  // Why the team is off in this session (another leader holds it), for every tool's error.
  let unavailable: string | undefined;

  const finishLine = new FinishLine((teammate, { text, ok }) => pi.appendEntry(FINISH_ENTRY_TYPE, { teammate, text, ok }));
  const deliver = (d: LeaderDelivery): void => {
    const customType = d.kind === "report" ? REPORT_MESSAGE : HARNESS_EVENT_MESSAGE;
    const details = d.kind === "report" ? { ...d.record } : { type: d.type, teammate: d.teammate };
    if (d.kind === "report") finishLine.delivered(d.record.from);
    try {
      pi.sendMessage({ customType, content: d.text, display: true, details }, { deliverAs: "followUp", triggerTurn: true });
    } catch (error) {
      // Never crash the leader over a delivery; the note log keeps it.
      session?.notes.add(`could not deliver a ${customType}: ${String(error)}`);
      if (d.kind === "report") finishLine.shown(d.record.from);
    }
  };
  // A report in the transcript lets its teammate's finish entry follow it.
  pi.on("message_end", (event) => {
    const m = event.message as { role?: string; customType?: string; details?: { from?: unknown } };
    if (m.role === "custom" && m.customType === REPORT_MESSAGE && typeof m.details?.from === "string") finishLine.shown(m.details.from);
  });

  const live = (): TeamSession | undefined => {
    if (!session && unavailable) throw new TeamError("locked", unavailable);
    return session;
  };
  registerLeaderTools(pi, () => live()?.harness, (name) => session?.board.workFor(name));
  registerLeaderBoardTools(pi, () => {
    const s = live();
    return s ? { harness: s.harness, board: s.board, label: s.boardLabel, teamModel: s.teamModel } : undefined;
  });

  registerTeamCommands(pi, () => session);
  registerTeamRenderers(pi);

  pi.on("session_start", async (event, ctx: ExtensionContext) => {
    const old = session;
    session = undefined;
    await old?.close();
    // The team living when this session last ended comes back (issue 20); not into a /new or /fork.
    const teamRecord = sessionTeamRecordPort(pi, ctx);
    const key = sessionKey(ctx.sessionManager.getSessionFile(), ctx.cwd);
    const last = restoreEnabled(process.env) && event.reason !== "new" && event.reason !== "fork" ? lastTeamRecord(teamRecord.entries(), key) : {};
    const restoring = (last.record?.teammates.length ?? 0) > 0;
    // The instance before this one (a /reload, /new, /resume or /fork) says whom it stopped.
    announceStopNotice(pi, ctx, await takeStopNotice(agentDir(process.env), event.reason), HARNESS_EVENT_MESSAGE, restoring);
    const s = new TeamSession({
      sessionFile: ctx.sessionManager.getSessionFile(),
      cwd: ctx.cwd,
      packageDir: PACKAGE_DIR,
      env: process.env,
      trusted: () => ctx.isProjectTrusted(),
      leaderModel: () => (ctx.model ? { provider: ctx.model.provider, id: ctx.model.id } : undefined),
      leaderThinking: () => pi.getThinkingLevel(),
      knownModels: () => knownModels(ctx),
      deliver,
      // The finish entry (R55): in the transcript only, never in the leader model's context.
      onLifeline: (teammate, text, ok) => finishLine.lifeline(teammate, { text, ok }),
      onFailedSubmission: (teammate, text) => pi.appendEntry(FINISH_ENTRY_TYPE, { teammate, text, ok: false }),
      boardTrail: sessionTrailPort(pi, ctx),
      teamRecord,
      leaderNote: nextTurnNote(pi),
    });
    s.dialogs.attach(ctx.hasUI ? ctx.ui : undefined, ctx.mode); // teammates' dialogs reach the user (src/leader/dialog-relay.ts)
    for (const warning of s.warnings) ctx.ui.notify(warning, "warning");
    unavailable = undefined;
    try {
      await s.start();
    } catch (error) {
      unavailable = errorText(error);
      ctx.ui.notify(`pi-resident-teams: ${unavailable}`, "error");
      return;
    }
    session = s;
    announceBoardCheck(pi, ctx, s.board.flag, HARNESS_EVENT_MESSAGE); // a board.json the leader did not write
    installWidget(ctx, s);
    if (last.problem) ctx.ui.notify(`pi-resident-teams: ${last.problem}`, "warning");
    if (!restoring) s.memory.observe(); // a recorded team not brought back is not living: forget it
    else void s.memory.restore(last.record!).then((outcome) => announceRestore(pi, ctx, outcome, event.reason === "reload" ? "The extension was reloaded (/reload)" : "This session was resumed"));
    const discovery = await s.discover();
    const problems = discovery.diagnostics.map((d) => `${d.severity}: ${d.message}`);
    const untrusted = formatUntrustedAgentsHint(discovery);
    if (untrusted) problems.push(untrusted);
    if (problems.length > 0) ctx.ui.notify(`pi-resident-teams agent files:\n${problems.join("\n")}`, "warning");
  });

  /** Stops the session's team; returns the names of the teammates that were living. */
  const stopTeam = async (): Promise<{ stopped: string[]; kept: string[]; closed?: TeamSession }> => {
    const s = session;
    session = undefined;
    const living = s?.harness.members().filter((m) => m.living) ?? [];
    // Sorted: spawns run in parallel, so the order they registered in says nothing.
    const stopped = living.map((m) => m.name).sort((a, b) => a.localeCompare(b));
    await s?.close();
    // The leader's model gets no worktree_kept turn once the session ends: tell the user instead.
    const kept = living.flatMap((m) => (m.kept ? [`@${m.name}: git diff ${m.kept.base}..${m.kept.name}`] : []));
    return { stopped, kept, ...(s ? { closed: s } : {}) };
  };
  pi.on("session_shutdown", async (event, ctx) => {
    const { stopped, kept, closed } = await stopTeam();
    // At quit no next instance tells the user whom this stopped: say it here.
    const ended = event.reason === "quit" ? endStopText(stopped) : undefined;
    const told = [...(ended ? [ended] : []), ...(kept.length > 0 ? [`pi-resident-teams: teammates' work kept on branches:\n${kept.join("\n")}`] : [])];
    if (told.length > 0) tellAtEnd(told.join("\n"), event.reason, ctx);
    // Never silent (W17): the next instance tells the user (and, after /reload, the leader's model).
    const unsaid = await leaveStopNotice({ agentDir: agentDir(process.env), reason: event.reason, teammates: stopped });
    if (unsaid) ctx.ui.notify(unsaid, "warning");
    // Last, once the stop is told: the run as a page, for PI_TEAMMATE_EXPORT (src/leader/run-export.ts).
    const exported = event.reason === "quit" && closed ? await exportAtEnd(closed, process.env) : undefined;
    if (exported) tellAtEnd(exported, event.reason, ctx);
  });
  // `pi -p`: the run stays open while the team works (src/leader/headless.ts).
  registerHeadless(pi, {
    activities: () => (session ? [session.harness, session.board.activity] : []),
    stuck: () => session?.board.activity.stuck(),
    // A signal ended the run: no session_shutdown follows, so say here where the work was kept.
    stopTeam: () => stopTeam().then(async ({ stopped, kept, closed }) => {
      const ended = endStopText(stopped);
      if (ended) process.stderr.write(`${ended}\n`);
      if (kept.length > 0) process.stderr.write(`pi-resident-teams: teammates' work kept on branches:\n${kept.join("\n")}\n`);
      const exported = closed && (await exportAtEnd(closed, process.env));
      if (exported) process.stderr.write(`${exported}\n`);
    }, () => undefined),
  });

  pi.on("before_agent_start", async (event) => {
    const s = session;
    if (!s) return undefined;
    const harness = s.harness;
    const discovery = await s.discover();
    const living = harness.members().filter((m) => m.living).map((m) => `${m.name} (${m.status})`);
    // A parser's error can quote the broken file: quoted and capped like a description (issue 18).
    const broken = discovery.diagnostics.filter((d) => d.severity === "error").map((d) => `- skipped: ${quoteFileText(d.message, MAX_DIAGNOSTIC_CHARS)}`);
    const untrusted = formatUntrustedAgentsHint(discovery);
    const none = untrusted ?? "(none: add .pi/agents/<name>.md files, or spawn with an inline definition)";
    const agentList = [formatAgentGuidance(discovery.agents) || none, ...broken, ...(untrusted && discovery.agents.length ? [untrusted] : [])].join("\n");
    return { systemPrompt: `${event.systemPrompt}\n\n${leaderGuidance({ agentList, living: living.join(", ") || "(none)", rolesReference: agentRolesReferencePath(PACKAGE_DIR), notebook: s.notebook })}` };
  });
}

/** Tells the user and the leader's next turn (no turn is started) who came back. Never throws. */
function announceRestore(pi: ExtensionAPI, ctx: ExtensionContext, outcome: RestoreOutcome, why: string): void {
  try {
    const user = restoredUserText(outcome);
    if (user) ctx.ui.notify(user, outcome.failed.length > 0 ? "warning" : "info");
    const text = restoredLeaderText(outcome, why);
    if (text) pi.sendMessage({ customType: HARNESS_EVENT_MESSAGE, content: text, display: true, details: { type: TEAMMATES_RESTORED_EVENT, teammates: outcome.back.map((r) => r.name) } }, { deliverAs: "nextTurn" });
  } catch {
    // A failed notification must not break the session.
  }
}

/**
 * Tells the user, at a session's end, whom it stopped and where the stopped worktree teammates'
 * work is. A notice in the TUI is gone with the screen at quit, so there the text goes to stderr
 * once Pi has restored the terminal (at process exit); print and json modes have no UI to notify
 * and get stderr now.
 */
function tellAtEnd(text: string, reason: string, ctx: ExtensionContext): void {
  if (ctx.mode === "tui" && reason === "quit") process.once("exit", () => process.stderr.write(`${text}\n`));
  else if (ctx.mode === "print" || ctx.mode === "json") process.stderr.write(`${text}\n`);
  else ctx.ui.notify(text, "info");
}
