/**
 * Regressions from a breaker pass, on the real pi CLI: a teammate whose child refuses every wake,
 * a leader steer that lands in the run of a terminal report, and a stop in the window between a
 * teammate's registration and its process handle.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { LeaderHarness } from "../../src/harness/harness.ts";
import { boardLayout, runtimeLayout } from "../../src/store/index.ts";
import { boardWorker, create, leaderCommands, send, spawnIdle, startBoardTeam, until, type BoardTeam } from "../support/board.ts";
import { agentFile, PACKAGE_DIR } from "../support/leader.ts";
import { createPiEnv, type PiEnv } from "../support/pi-env.ts";
import { isAlive } from "../support/process.ts";
import { startScriptedModel, type ScriptedModel } from "../support/scripted-model.ts";
import { sendCall, spawnCall, startTeam, waitUntil, type Team } from "../support/team.ts";

const WORKER = agentFile("worker", "You are a worker.", { tools: "read, bash" });

let team: Team | BoardTeam | undefined;
let model: ScriptedModel | undefined;
let env: PiEnv | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
  await model?.close();
  model = undefined;
  await env?.cleanup();
  env = undefined;
});

const events = (t: Team | BoardTeam, type: string) => t.leader.customMessages("harness-event").filter((m) => m.content.includes(`type="${type}"`));

describe("a teammate whose child refuses every wake (a role pinned to a provider with no key)", () => {
  it("the leader hears once, and the task it was offered goes to a healthy teammate; the board settles", async () => {
    const t = await startBoardTeam({
      agents: { "worker.md": WORKER, "remote.md": agentFile("remote", "You work elsewhere.", { tools: "read", model: "openai/gpt-4o-mini" }) },
      scripts: {
        leader: leaderCommands({ GO: [spawnIdle("bob", "remote")], TASK: [create({ subject: "Task a" })], MSG: [send("bob", "Any news?")], ALICE: [spawnIdle("alice")] }),
        alice: boardWorker({ claimNotices: true, submitAfterClaim: true }),
      },
    });
    team = t;
    await t.run("GO");
    await t.run("TASK");
    await until("the refused-wake event", () => (events(t, "teammate_delivery_failed").length > 0 ? true : undefined), 20_000);
    expect(events(t, "teammate_delivery_failed")[0]!.content).toMatch(/teammate bob was refused/);
    await t.run("MSG"); // refused again: no second event in this streak
    await t.run("ALICE");
    await until("board_settled", () => (events(t, "board_settled").length > 0 ? true : undefined), 30_000);
    const board = await t.waitBoard((f) => f.tasks.every((x) => x.state.status === "completed")); // board.json writes are coalesced
    expect(board.tasks.map((x) => [x.id, x.state.status, x.state.status === "completed" ? x.state.by : undefined])).toEqual([["task-a", "completed", "alice"]]);
    expect(events(t, "teammate_delivery_failed")).toHaveLength(1);
  });
});

describe("a leader steer into the run of a terminal report", () => {
  it("the teammate's answer to it reaches the leader", async () => {
    const t = await startTeam({
      agents: { "worker.md": WORKER },
      scripts: {
        leader: (c) => {
          if (c.toolResults.length === 0 && c.lastUser === "GO") return { toolCalls: [spawnCall("alice", "worker", "TASK")] };
          if (c.toolResults.length === 0 && c.lastUser.includes("DONE-REPORT")) return { toolCalls: [sendCall("alice", "QUESTION: which file?")] };
          return { text: "Noted." };
        },
        alice: (c) => {
          const asked = c.messages.some((m) => JSON.stringify(m.content ?? "").includes("QUESTION"));
          const answered = c.messages.some((m) => JSON.stringify(m.tool_calls ?? "").includes("ANSWER-X"));
          if (asked) return answered ? { text: "answered" } : { toolCalls: [sendCall("leader", "ANSWER-X: README.md")] };
          // The terminal report and a slow tool in one answer: the run goes on after the report.
          return c.toolResults.length === 0 ? { toolCalls: [sendCall("leader", "DONE-REPORT", "completed"), { name: "bash", arguments: { command: "sleep 2" } }] } : { text: "ok" };
        },
      },
    });
    team = t;
    await t.run("GO");
    await waitUntil("the answer", () => t.leader.customMessages("teammate-report").some((m) => m.content.includes("ANSWER-X")), 30_000);
  });
});

describe("a stop between a teammate's registration and its process handle", () => {
  async function harness(): Promise<LeaderHarness> {
    model = await startScriptedModel();
    env = await createPiEnv({ model });
    await mkdir(join(env.agentDir, "agents"), { recursive: true });
    await writeFile(join(env.agentDir, "agents", "worker.md"), WORKER);
    const key = "spawnwindow00000";
    const h = new LeaderHarness({
      cwd: env.cwd,
      layout: runtimeLayout(env.agentDir, key),
      boardDir: boardLayout(env.agentDir, key).root,
      agentDir: env.agentDir,
      piCli: env.piCli,
      packageDir: PACKAGE_DIR,
      env: env.env,
      trusted: () => true,
      leaderModel: () => ({ provider: "scripted", id: "scripted-1" }),
      stopGraceMs: 500,
    });
    await h.start();
    return h;
  }

  for (const how of ["close", "shutdown"] as const) {
    it(`${how} finishes, the spawn fails clearly, and no child is left`, async () => {
      const h = await harness();
      const spawn = h.spawn({ name: "alice", agent: "worker", prompt: "do it" }).then(() => "spawned", (e: unknown) => String(e));
      while (!h.members().some((m) => m.name === "alice")) await new Promise((r) => setImmediate(r));
      const m = h.members()[0]!;
      expect(m.proc).toBeUndefined(); // the window
      await (how === "close" ? h.close() : h.shutdown("alice"));
      expect(await spawn).toMatch(/shut down while it was starting|session is ending|stopped while starting/);
      expect(m.proc ? isAlive(m.proc.pid) : false).toBe(false);
      await h.close();
    });
  }
});
