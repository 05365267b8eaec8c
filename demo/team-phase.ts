/**
 * The team scenario: the leader spawns two teammates with kickoffs (builder from the
 * implementer agent, scout from the researcher agent); scout mails builder; both send an
 * intermediate and a terminal report; the leader steers builder while it works; then the leader
 * shuts both down. Every answer below is decided from what the calling model was given, so the
 * scenario follows what the processes really deliver, in whatever order it arrives.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ModelCall, Reply, ReplyToolCall } from "../tests/support/scripted-model.ts";
import { call, pastCalls, received, withTimeout } from "./scripting.ts";
import type { Phase, PhaseResult, Stage } from "./stage.ts";
import type { Wrapped } from "./transcript.ts";

const USER_TASK =
  "Add a farewell(name) function next to greet() in this project. Use a researcher to locate greet() and an implementer to write the code.";
const SCOUT_KICKOFF = "Find where greet() is defined and tell builder exactly where farewell() should go. Report to me when done.";
const BUILDER_KICKOFF = "Add farewell(name) returning `Goodbye, <name>!` next to greet(). scout will tell you where greet() lives.";
const PEER_NOTE = "greet() is in src/greet.js, lines 1-3. Put farewell() right after it, same export style.";
const STEER_NOTE = "Also add a small test for farewell() in test/greet.test.js.";
/** How long builder's model holds each answer while it waits for its mail (keeps it `working`). */
const HOLD_MS = 700;
/** Upper bound on held answers, so a lost message ends the scenario instead of hanging it. */
const MAX_HOLDS = 14;

const FAREWELL_SOURCE =
  'export function greet(name) {\n  return `Hello, ${name}!`;\n}\n\nexport function farewell(name) {\n  return `Goodbye, ${name}!`;\n}\n';
const FAREWELL_TEST =
  'import assert from "node:assert/strict";\nimport { farewell } from "../src/greet.js";\n\nassert.equal(farewell("Ada"), "Goodbye, Ada!");\n';

function send(to: string, message: string, status?: string): ReplyToolCall {
  return { name: "send_message", arguments: status ? { to, message, status } : { to, message } };
}

function isTerminal(b: Wrapped): boolean {
  return b.kind === "teammate-report" && (b.status === "completed" || b.status === "failed");
}

/** The team phase. `finished` resolves once the leader's model has seen both shutdown results. */
export function teamPhase(): Phase {
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (finish = resolve));

  const leader = (c: ModelCall): Reply => {
    const done = pastCalls(c.messages);
    const spawned = (n: string) => done.some((t) => t.name === "teammate_spawn" && t.args.name === n);
    const got = received(c.messages);
    const lastTools = c.toolResults.length > 0 ? done.slice(-c.toolResults.length).map((t) => t.name) : [];
    if (lastTools.includes("teammate_shutdown")) {
      finish();
      return { text: "Both teammates reported and are shut down. farewell() is in src/greet.js with a test." };
    }
    if (!spawned("builder")) return call("teammate_spawn", { name: "builder", agent: "implementer", prompt: BUILDER_KICKOFF });
    if (!spawned("scout")) return call("teammate_spawn", { name: "scout", agent: "researcher", prompt: SCOUT_KICKOFF });
    const steered = done.some((t) => t.name === "send_message");
    if (!steered && got.some((b) => b.kind === "teammate-report" && b.from === "builder" && b.status === "in_progress")) {
      return { toolCalls: [send("builder", STEER_NOTE)] };
    }
    const terminals = new Set(got.filter(isTerminal).map((b) => b.from));
    if (terminals.has("builder") && terminals.has("scout") && !done.some((t) => t.name === "teammate_shutdown")) {
      return { toolCalls: [{ name: "teammate_shutdown", arguments: { name: "scout" } }, { name: "teammate_shutdown", arguments: { name: "builder" } }] };
    }
    return { text: lastTools.length > 0 ? "Done for now; waiting for the teammates' reports." : "Noted; waiting for the remaining reports." };
  };

  const scout = (c: ModelCall): Reply => {
    const done = pastCalls(c.messages);
    const sent = (to: string, terminal = false) =>
      done.some((t) => t.name === "send_message" && t.args.to === to && (!terminal || t.args.status !== undefined));
    if (sent("leader", true)) return { text: "Nothing more to do." };
    if (!done.some((t) => t.name === "read")) return call("read", { path: "src/greet.js" });
    if (!sent("leader")) return { toolCalls: [send("leader", "greet() is defined in src/greet.js (lines 1-3); there is no farewell() yet. Telling builder.")] };
    if (!sent("builder")) return { toolCalls: [send("builder", PEER_NOTE)] };
    return { toolCalls: [send("leader", "Done: greet() is at src/greet.js:1-3 and builder has the location.", "completed")] };
  };

  const builder = (c: ModelCall): Reply => {
    const done = pastCalls(c.messages);
    const got = received(c.messages);
    const mailFrom = (who: string) => got.some((b) => b.kind === "teammate-mail" && b.from === who);
    const wrote = (path: string) => done.some((t) => t.name === "write" && t.args.path === path);
    const reports = done.filter((t) => t.name === "send_message" && t.args.to === "leader");
    if (reports.some((t) => t.args.status !== undefined)) return { text: "Nothing more to do." };
    if (reports.length === 0) return { toolCalls: [send("leader", "Starting on farewell(); waiting for scout's pointer to greet().")] };
    const holds = done.filter((t) => t.name === "read").length;
    if (!(mailFrom("scout") && mailFrom("leader")) && holds < MAX_HOLDS) {
      return { ...call("read", { path: "src/greet.js" }), delayMs: HOLD_MS };
    }
    if (!wrote("src/greet.js")) return call("write", { path: "src/greet.js", content: FAREWELL_SOURCE });
    if (mailFrom("leader") && !wrote("test/greet.test.js")) return call("write", { path: "test/greet.test.js", content: FAREWELL_TEST });
    return { toolCalls: [send("leader", "Added farewell() after greet() in src/greet.js (where scout pointed) and test/greet.test.js as you asked.", "completed")] };
  };

  return {
    title: "team: spawn, peer mail, reports, steer, shutdown",
    reply(c) {
      if (c.agent === "leader") return leader(c);
      if (c.agent === "scout") return scout(c);
      if (c.agent === "builder") return builder(c);
      return { text: "ok" };
    },
    async run(stage) {
      const { leader: pi, log } = stage;
      log.line("user", `→ leader ${JSON.stringify(USER_TASK)}`);
      await pi.prompt(USER_TASK);
      await withTimeout(finished, 35_000, "the leader never saw both shutdown results");
      const mark = pi.events.length;
      await pi.waitForEvent((e, i) => i >= mark && e.type === "agent_settled", 15_000);
      return checkTeam(stage);
    },
  };
}

function git(cwd: string, args: string[]): string {
  return execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/** Checks the scenario against what the model calls and the leader's events show. */
function checkTeam(stage: Stage): PhaseResult {
  const { model, leader } = stage;
  const failures: string[] = [];
  const expect = (ok: boolean, what: string) => {
    if (!ok) failures.push(what);
  };
  const results = leader.events.flatMap((e) =>
    e.type === "tool_execution_end"
      ? [{ tool: e.toolName, error: e.isError, text: JSON.stringify(e.result), details: (e.result as { details?: Record<string, unknown> }).details ?? {} }]
      : []);
  const harnessEvents = leader.customMessages("harness-event");
  const reports = leader.customMessages("teammate-report");
  const reportsFrom = (who: string) => reports.filter((r) => r.content.includes(`from="${who}"`));
  const leaderSees = (needle: string) => model.callsOf("leader").some((c) => JSON.stringify(c.messages).includes(needle));
  const builderGotPeer = model.callsOf("builder").find((c) => received(c.messages).some((b) => b.kind === "teammate-mail" && b.from === "scout"));
  const steer = results.find((r) => r.tool === "send_message");
  const shutdowns = results.filter((r) => r.tool === "teammate_shutdown");

  for (const who of ["scout", "builder"]) {
    expect(reportsFrom(who).length === 2, `${who}: expected 2 reports delivered to the leader, saw ${reportsFrom(who).length}`);
    expect(reportsFrom(who).some((r) => r.content.includes('status="completed"')), `${who}: no terminal report reached the leader`);
  }
  expect(builderGotPeer !== undefined, "scout's peer message never reached builder's model");
  expect(!leaderSees(PEER_NOTE) && !leaderSees("teammate-mail"), "peer mail leaked into a leader model request");
  expect(steer !== undefined && steer.text.includes("steered:"), `the leader's send_message was not steered: ${steer?.text ?? "never called"}`);
  expect(shutdowns.length === 2 && shutdowns.every((s) => !s.error), "expected two successful teammate_shutdown results");
  expect(harnessEvents.length === 0, `expected no harness-event turn (no crash; a requested shutdown starts no turn), saw ${harnessEvents.length}`);
  const changed = git(stage.env.cwd, ["status", "--short", "--untracked-files=all"]).trim().split("\n").filter(Boolean);
  const source = readFileSync(join(stage.env.cwd, "src/greet.js"), "utf8");
  expect(source.includes("export function farewell"), "src/greet.js has no farewell() after the scenario");
  stage.log.line("project", `git status after the scenario: ${changed.map((l) => l.trim()).join(", ") || "(clean)"}`);

  const calls = ["leader", "scout", "builder"].map((a) => `${a} ${model.callsOf(a).length}`).join(", ");
  return {
    summary: [
      `model calls: ${calls} (total ${model.calls.length})`,
      `reports delivered to the leader as turns: ${reports.length} (scout ${reportsFrom("scout").length}, builder ${reportsFrom("builder").length})`,
      `peer messages: 1 sent scout → builder, reached builder's model in call #${builderGotPeer?.seq ?? "-"}; in leader requests: ${leaderSees(PEER_NOTE) ? "YES (leak)" : "never"}`,
      `leader → builder while working: ${steer?.text.includes("steered:") ? "steered" : "not steered"}`,
      `shutdowns: ${shutdowns.map((s) => `${String(s.details.name)} ${String(s.details.exit)}`).join(", ")}; harness-event turns: ${harnessEvents.length}`,
      `project changes by the teammates' tools: ${changed.map((l) => l.trim()).join(", ")}`,
    ],
    failures,
  };
}
