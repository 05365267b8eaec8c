/**
 * Issue 8, item 4 acceptance, on the real pi CLI: teammate dialogs reach the user.
 * - A role loads a test extension with its `extensions` field (a path relative to the agent file);
 *   the extension's tool `ask_gate` asks `ctx.ui.confirm`.
 * - The leader (`pi --mode rpc`, whose RPC client is its UI) shows the teammate's confirm with the
 *   teammate's name in the title; the test's RPC client answers `confirmed: true`, and the
 *   teammate's next model request carries the tool result with that answer.
 * - A second confirm nobody answers is cancelled after PI_TEAMMATE_DIALOG_TIMEOUT_MS; the
 *   teammate's model sees "no", and the teammate is not blocked: it sends its terminal report.
 * - No dialog wakes the leader's model.
 * - An `extensions` path where nothing exists refuses the spawn before any process exists.
 */
import { copyFile, mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import type { AnswerUi, RpcUiDialogRequest } from "../../src/process/index.ts";
import { agentFile } from "../support/leader.ts";
import { callText, leaderCommands, sendCall, spawnCall, startTeam, waitUntil, type AgentScript, type Team } from "../support/team.ts";

const GATE_EXTENSION = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "dialog-gate.ts");
const DIALOG_TIMEOUT_MS = 2000;
const FIRST = "Allow rm -rf build?";
const SECOND = "Also delete the cache?";

let team: Team | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
});

/** The gate teammate: asks FIRST, then SECOND, then reports both tool results to the leader. */
const gate: AgentScript = (c) => {
  const last = c.toolResults.at(-1);
  if (!last) return { toolCalls: [{ name: "ask_gate", arguments: { question: FIRST }, id: "g1" }] };
  if (last.id === "g1") return { toolCalls: [{ name: "ask_gate", arguments: { question: SECOND }, id: "g2" }] };
  if (last.id === "g2") return { toolCalls: [{ ...sendCall("leader", `gate done: ${last.content}`, "completed"), id: "g3" }] };
  return { text: "done." };
};

describe("teammate dialogs", () => {
  it("a teammate's confirm is answered through the leader's RPC UI; an unanswered one times out and the teammate goes on", async () => {
    const asked: { request: RpcUiDialogRequest; at: number }[] = [];
    // The test plays the user at the leader's RPC client: yes to the first dialog, silence to the rest.
    const leaderUi: AnswerUi = (request, signal) => {
      asked.push({ request, at: Date.now() });
      if (request.title.endsWith(FIRST)) return Promise.resolve({ confirmed: true });
      return new Promise((resolve) => signal.addEventListener("abort", () => resolve(undefined), { once: true }));
    };
    team = await startTeam({
      agents: { "gate.md": agentFile("gate", "You ask the gate before you delete anything.", { tools: "ask_gate", extensions: "[../../tools/gate.ts]" }) },
      scripts: { leader: leaderCommands({ GO: [spawnCall("gate", "gate", "Clean the build.")] }), gate },
      leaderEnv: { PI_TEAMMATE_DIALOG_TIMEOUT_MS: String(DIALOG_TIMEOUT_MS) },
      leaderUi,
    });
    const t = team;
    await mkdir(join(t.env.cwd, "tools"), { recursive: true });
    await copyFile(GATE_EXTENSION, join(t.env.cwd, "tools", "gate.ts"));

    await t.run("GO");
    const spawned = t.toolEnds("teammate_spawn")[0];
    expect(spawned, "teammate_spawn result").toMatchObject({ isError: false, details: { tools: expect.arrayContaining(["ask_gate"]) } });

    // The first dialog reached the leader's UI, labelled with the teammate's name, and was answered.
    const afterFirst = await t.model.waitForCall((c) => c.agent === "gate" && c.toolResults.some((r) => r.id === "g1"), 30_000);
    expect(asked[0]?.request).toMatchObject({ method: "confirm", title: `@gate: ${FIRST}`, message: "asked by the dialog-gate test extension" });
    expect(afterFirst.toolResults.find((r) => r.id === "g1")?.content).toBe(`gate answer for ${JSON.stringify(FIRST)}: yes`);

    // The second one nobody answers: cancelled after the timeout; the teammate's model sees "no".
    const afterSecond = await t.model.waitForCall((c) => c.agent === "gate" && c.toolResults.some((r) => r.id === "g2"), 30_000);
    const second = asked[1];
    expect(second?.request).toMatchObject({ method: "confirm", title: `@gate: ${SECOND}` });
    expect(second?.request.method === "confirm" && second.request.timeout).toBeGreaterThan(DIALOG_TIMEOUT_MS - 1000);
    expect(afterSecond.toolResults.find((r) => r.id === "g2")?.content).toBe(`gate answer for ${JSON.stringify(SECOND)}: no`);
    expect(afterSecond.at - second!.at).toBeGreaterThanOrEqual(DIALOG_TIMEOUT_MS - 250);
    expect(asked).toHaveLength(2);

    // Not blocked: the teammate finishes with its terminal report.
    await waitUntil("gate's report", () => t.leader.customMessages("teammate-report").length >= 1, 30_000);
    expect(t.leader.customMessages("teammate-report")[0]?.content).toContain(`gate done: gate answer for ${JSON.stringify(SECOND)}: no`);

    // The leader's UI log holds both outcomes; no dialog woke the leader's model: its only calls
    // are the GO turn (spawn, then its result) and the report's turn.
    const dialogs = t.leader.proc.child.uiRequests.filter((r) => r.request.method === "confirm").map((r) => r.answer);
    expect(dialogs[0]).toEqual({ confirmed: true });
    await waitUntil("the leader's turn for the report", () => t.model.callsOf("leader").length >= 3, 30_000);
    const leaderCalls = t.model.callsOf("leader");
    expect(leaderCalls.filter((c) => c.seq < afterSecond.seq)).toHaveLength(2);
    expect(leaderCalls).toHaveLength(3);
    for (const c of leaderCalls) expect(callText(c)).not.toContain(FIRST);
    expect(t.leader.customMessages("harness-event")).toEqual([]);
  });

  it("a role extension path where nothing exists refuses the spawn, naming the file, the field and the value", async () => {
    team = await startTeam({
      agents: { "gate.md": agentFile("gate", "You ask the gate.", { tools: "ask_gate", extensions: "[./missing-gate.ts]" }) },
      scripts: { leader: leaderCommands({ GO: [spawnCall("gate", "gate", "Clean the build.")] }), gate },
    });
    const t = team;
    await t.run("GO");
    const refused = t.toolEnds("teammate_spawn")[0];
    const file = join(t.env.cwd, ".pi", "agents", "gate.md");
    expect(refused?.isError).toBe(true);
    expect(refused?.details.pid).toBeUndefined();
    expect(refused?.text).toContain(`agent "gate" (${file}): field "extensions" has the value "./missing-gate.ts" (resolved to ${join(t.env.cwd, ".pi", "agents", "missing-gate.ts")}), where nothing exists`);
    expect(t.pids.size).toBe(0);
    expect(t.model.callsOf("gate")).toEqual([]);
  });
});
