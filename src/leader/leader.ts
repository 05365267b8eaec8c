import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { formatAgentGuidance, formatUntrustedAgentsHint, type AgentDiscovery } from "../agents/index.ts";
import { resolvePiCli } from "../process/index.ts";
import { agentDir, boardLayout, runtimeLayout, sessionKey } from "../store/index.ts";
import { resolveNoticePace } from "../board/index.ts";
import { TeamError } from "../errors.ts";
import type { Member } from "../team/member.ts";
import { BoardHost, type BoardMate } from "./board-host.ts";
import { registerLeaderBoardTools } from "./board-tools.ts";
import { leaderGuidance } from "./guidance.ts";
import { LeaderHarness, type LeaderDelivery } from "./harness.ts";
import { NoteLog } from "./notes.ts";
import { registerLeaderTools } from "./tools.ts";

/** The package root, which every teammate loads with `-e`. */
const PACKAGE_DIR = dirname(dirname(dirname(fileURLToPath(import.meta.url))));

/** Custom message types the leader's session receives. */
export const REPORT_MESSAGE = "teammate-report";
export const HARNESS_EVENT_MESSAGE = "harness-event";

/**
 * The leader side of the extension. The harness lives from `session_start` to
 * `session_shutdown`; tools registered here reach it through a getter. Each report or
 * actionable event becomes its own follow-up turn, even while the leader is busy (R26, L2).
 */
export function registerLeader(pi: ExtensionAPI): void {
  let harness: LeaderHarness | undefined;
  let board: BoardHost | undefined;
  let boardLabel = "";
  let discovery: AgentDiscovery | undefined;
  let notes: NoteLog | undefined;

  const deliver = (d: LeaderDelivery): void => {
    const customType = d.kind === "report" ? REPORT_MESSAGE : HARNESS_EVENT_MESSAGE;
    const details = d.kind === "report" ? { ...d.record } : { type: d.type, teammate: d.teammate };
    try {
      pi.sendMessage({ customType, content: d.text, display: true, details }, { deliverAs: "followUp", triggerTurn: true });
    } catch (error) {
      // Never crash the leader over a delivery; the note log keeps it.
      notes?.add(`could not deliver a ${customType}: ${String(error)}`);
    }
  };

  // Why the team is off in this session (another leader holds it), for every tool's error.
  let unavailable: string | undefined;
  const live = () => {
    if (!harness && unavailable) throw new TeamError("locked", unavailable);
    return harness;
  };
  registerLeaderTools(pi, live, (name) => board?.workFor(name));
  registerLeaderBoardTools(pi, () => (live() && board ? { harness: harness!, board, label: boardLabel } : undefined));

  pi.on("session_start", async (_event, ctx: ExtensionContext) => {
    // Harness first: stopping its teammates releases their claims on the board (R21), which the
    // board's close then writes.
    await harness?.close();
    await board?.close();
    const key = sessionKey(ctx.sessionManager.getSessionFile(), ctx.cwd);
    const dir = agentDir();
    const boardPaths = boardLayout(dir, key);
    const piCli = resolvePiCli();
    const leaderModel = () => (ctx.model ? { provider: ctx.model.provider, id: ctx.model.id } : undefined);
    const layout = runtimeLayout(dir, key);
    const log = new NoteLog({ file: join(layout.logDir, "harness.log") });
    notes = log;
    const note = (text: string) => log.add(text);
    const pace = resolveNoticePace(process.env.PI_TEAMMATE_NOTICE_PACE_MS);
    if (pace.warning) ctx.ui.notify(pace.warning, "warning");
    const h = new LeaderHarness({
      cwd: ctx.cwd,
      layout,
      boardDir: boardPaths.root,
      agentDir: dir,
      piCli,
      packageDir: PACKAGE_DIR,
      env: process.env,
      trusted: () => ctx.isProjectTrusted(),
      leaderModel,
      deliver,
      note: (n) => note(`${n.teammate ? `@${n.teammate}: ` : ""}${n.text}`),
      onIdle: () => board?.offerWork(),
      onGone: (m, reason) => board?.holderGone({ name: m.name, spawnId: m.spawnId }, reason),
      onReopen: (m) => board?.allowResubmit({ name: m.name, spawnId: m.spawnId }),
    });
    const b = new BoardHost({
      layout: boardPaths,
      cwd: ctx.cwd,
      piCli,
      env: process.env,
      mates: () => h.members().filter((m) => m.living && !m.requestedShutdown).map(boardMate),
      tell: (to, text) => h.tell(to, text),
      escalate: (e) => h.event("verify_escalation", e.holder.name, e.text),
      teamWorking: () => h.spawning().length > 0 || h.members().some(working),
      onSettled: (s) => h.event("board_settled", "task-board", s.text),
      spawning: () => [...h.spawning(), ...h.members().filter((m) => m.living && m.status === "starting").map((m) => m.name)],
      teamModel: leaderModel,
      note,
      paceMs: pace.paceMs,
    });
    unavailable = undefined;
    try {
      await h.start();
    } catch (error) {
      unavailable = error instanceof Error ? error.message : String(error);
      harness = undefined;
      board = undefined;
      ctx.ui.notify(`pi-resident-teams: ${unavailable}`, "error");
      return;
    }
    harness = h;
    board = b;
    boardLabel = `${key} (${boardPaths.board})`;
    await b.start();
    discovery = await h.discover();
    const problems = discovery.diagnostics.map((d) => `${d.severity}: ${d.message}`);
    const untrusted = formatUntrustedAgentsHint(discovery);
    if (untrusted) problems.push(untrusted);
    if (problems.length > 0) ctx.ui.notify(`pi-resident-teams agent files:\n${problems.join("\n")}`, "warning");
  });

  pi.on("session_shutdown", async () => {
    const h = harness;
    const b = board;
    harness = undefined;
    await h?.close(); // releases the teammates' claims through onGone, so `board` must still be set (R21)
    board = undefined;
    await b?.close();
  });

  pi.on("before_agent_start", async (event) => {
    if (!harness) return undefined;
    discovery = await harness.discover();
    const living = harness.members().filter((m) => m.living).map((m) => `${m.name} (${m.status})`);
    const broken = discovery.diagnostics.filter((d) => d.severity === "error").map((d) => `- skipped: ${d.message}`);
    const untrusted = formatUntrustedAgentsHint(discovery);
    const none = untrusted ?? "(none: add .pi/agents/<name>.md files)";
    const agentList = [formatAgentGuidance(discovery.agents) || none, ...broken, ...(untrusted && discovery.agents.length ? [untrusted] : [])].join("\n");
    return { systemPrompt: `${event.systemPrompt}\n\n${leaderGuidance({ agentList, living: living.join(", ") || "(none)" })}` };
  });
}

/** Busy for the board-settled rule: starting or working, or mail for it in flight. */
function working(m: Member): boolean {
  return m.living && !m.requestedShutdown && (m.status !== "idle" || m.delivering || m.pendingMail.length > 0);
}

/** The board's view of a living teammate. */
function boardMate(m: Member): BoardMate {
  return {
    name: m.name,
    spawnId: m.spawnId,
    // A wake in flight (or mail waiting for one) means the teammate is busy with that mail, e.g.
    // a notice: until it really idles, its offered task must not go to another teammate (R36).
    idle: m.status === "idle" && !m.delivering && m.pendingMail.length === 0,
    hasAssignment: m.direct !== "none",
    assignmentResources: m.direct === "open" ? m.resources : undefined,
    roleVerify: m.agent.verify,
  };
}
