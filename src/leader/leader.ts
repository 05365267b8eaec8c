import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { formatAgentGuidance, type AgentDiscovery } from "../agents/index.ts";
import { resolvePiCli } from "../process/index.ts";
import { agentDir, boardLayout, runtimeLayout, sessionKey } from "../store/index.ts";
import { leaderGuidance } from "./guidance.ts";
import { LeaderHarness, type LeaderDelivery } from "./harness.ts";
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
  let discovery: AgentDiscovery | undefined;

  const deliver = (d: LeaderDelivery): void => {
    const customType = d.kind === "report" ? REPORT_MESSAGE : HARNESS_EVENT_MESSAGE;
    const details = d.kind === "report" ? { ...d.record } : { type: d.type, teammate: d.teammate };
    try {
      pi.sendMessage({ customType, content: d.text, display: true, details }, { deliverAs: "followUp", triggerTurn: true });
    } catch (error) {
      // Never crash the leader over a delivery; the console shows it.
      process.stderr.write(`pi-resident-teams: could not deliver a ${customType}: ${String(error)}\n`);
    }
  };

  registerLeaderTools(pi, () => harness);

  pi.on("session_start", async (_event, ctx: ExtensionContext) => {
    await harness?.close();
    const key = sessionKey(ctx.sessionManager.getSessionFile(), ctx.cwd);
    const dir = agentDir();
    harness = new LeaderHarness({
      cwd: ctx.cwd,
      layout: runtimeLayout(dir, key),
      boardDir: boardLayout(dir, key).root,
      agentDir: dir,
      piCli: resolvePiCli(),
      packageDir: PACKAGE_DIR,
      env: process.env,
      trusted: () => ctx.isProjectTrusted(),
      leaderModel: () => (ctx.model ? { provider: ctx.model.provider, id: ctx.model.id } : undefined),
      deliver,
    });
    await harness.start();
    discovery = await harness.discover();
  });

  pi.on("session_shutdown", async () => {
    const h = harness;
    harness = undefined;
    await h?.close();
  });

  pi.on("before_agent_start", async (event) => {
    if (!harness) return undefined;
    discovery = await harness.discover();
    const living = harness.members().filter((m) => m.living).map((m) => `${m.name} (${m.status})`);
    const agentList = formatAgentGuidance(discovery.agents) || "(none: add .pi/agents/<name>.md files)";
    return { systemPrompt: `${event.systemPrompt}\n\n${leaderGuidance({ agentList, living: living.join(", ") || "(none)" })}` };
  });
}
