/**
 * The heartbeat scenario: the leader spawns `sleepy` with a kickoff, and sleepy's model never
 * answers (a request stuck at the provider). The harness notices the silence once, with the
 * remedy, as its own leader turn; the leader's model follows the remedy and shuts sleepy down.
 * The demo's leader runs with PI_TEAMMATE_SILENT_STALL_MS small (see STALL_ENV) so this takes
 * seconds instead of five minutes.
 */
import type { ModelCall, Reply } from "../tests/support/scripted-model.ts";
import { call, pastCalls, withTimeout } from "./scripting.ts";
import type { Phase, PhaseResult, Stage } from "./stage.ts";

/**
 * Heartbeat thresholds of the demo's leader: tier 2 after 5 s, tier 1 after a minute. The silence
 * clock of a teammate runs from its spawn until its child is ready, and a start (pi, plus a git
 * worktree for a worktree role) takes up to about 2.6 s on a busy 2-core machine: tier 2 must stay
 * well above that, or a slow start gets a stall notice of its own.
 */
export const STALL_ENV = { PI_TEAMMATE_SILENT_STALL_MS: "5000", PI_TEAMMATE_STALL_NOTICE_MS: "60000" };

const USER_TASK = "Ask a researcher to list the TODO comments in this project.";
const NOTICE = "stalled · silent";

/** The stall phase. `finished` resolves once the leader's model has seen the shutdown result. */
export function stallPhase(): Phase {
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (finish = resolve));

  const leader = (c: ModelCall): Reply => {
    const done = pastCalls(c.messages);
    if (c.toolResults.length > 0 && done.at(-1)?.name === "teammate_shutdown" && done.at(-1)?.args.name === "sleepy") {
      finish();
      return { text: "sleepy was stuck at the provider and is shut down; I will respawn it when the provider answers again." };
    }
    if (!done.some((t) => t.name === "teammate_spawn" && t.args.name === "sleepy")) {
      return call("teammate_spawn", { name: "sleepy", agent: "researcher", prompt: "List every TODO comment in src/ with its file and line." });
    }
    const shutDown = done.some((t) => t.name === "teammate_shutdown" && t.args.name === "sleepy");
    if (c.lastUser.includes(NOTICE) && !shutDown) return call("teammate_shutdown", { name: "sleepy" });
    return { text: "Waiting for sleepy's report." };
  };

  return {
    title: "heartbeat: a teammate stuck at the provider gets one stall notice",
    reply(c) {
      if (c.agent === "leader") return leader(c);
      if (c.agent === "sleepy") return { delayMs: 60_000, text: "too late" }; // never answers in time
      return { text: "ok" };
    },
    async run(stage) {
      const { leader: pi, log } = stage;
      log.line("user", `→ leader ${JSON.stringify(USER_TASK)}`);
      await pi.prompt(USER_TASK);
      await withTimeout(finished, 20_000, "the leader never shut sleepy down after a stall notice");
      const mark = pi.events.length;
      await pi.waitForEvent((e, i) => i >= mark && e.type === "agent_settled", 15_000);
      return checkStall(stage);
    },
  };
}

function checkStall(stage: Stage): PhaseResult {
  const notices = stage.leader.customMessages("harness-event").filter((m) => m.content.includes('type="teammate_stalled"'));
  const failures: string[] = [];
  if (notices.length !== 1) failures.push(`expected exactly one stall notice, saw ${notices.length}`);
  const title = notices[0]?.content.split("\n").find((l) => l.includes(NOTICE)) ?? "(none)";
  if (!/teammate_shutdown[\s\S]*teammate_spawn/.test(notices[0]?.content ?? "")) failures.push("the stall notice does not name shutdown plus respawn");
  const sleepyCalls = stage.model.callsOf("sleepy").length;
  return {
    summary: [`stall notices: ${notices.length} (${title}); sleepy's model calls: ${sleepyCalls} (none answered); remedy taken: teammate_shutdown`],
    failures,
  };
}
