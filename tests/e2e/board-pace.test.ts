/**
 * Issue 17 on the real pi CLI, with the scripted model and the default notice pace (five minutes;
 * no test here shortens it): dependent work flows without idle gaps, a failed task is offered again
 * at once, a second failure parks and escalates in one leader turn, and `pi -p` finishes the board
 * or says why not (W20–W22).
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseBoardFile, type BoardFile } from "../../src/board/index.ts";
import { sessionKey } from "../../src/store/layout.ts";
import { readFile } from "node:fs/promises";
import {
  create,
  leaderCommands,
  spawnIdle,
  startBoardTeam,
  taskOf,
  until,
  type AgentScript,
  type BoardTeam,
} from "../support/board.ts";
import { closeHeadless, exitOf, startHeadless, type HeadlessRun } from "../support/headless.ts";
import { agentFile } from "../support/leader.ts";
import type { ModelCall, Reply } from "../support/scripted-model.ts";
import { consoleText, sendCall, spawnCall } from "../support/team.ts";
import { harnessEvents } from "../support/worktree.ts";

const AGENTS = { "worker.md": agentFile("worker", "You are a worker.", { tools: "read" }) };
/** Far below the default pace: a board that waited for a paced notice cannot finish inside it. */
const FLOW_TIMEOUT_MS = 90_000;

const NOTICE_ID = /Board notice:[^\n]*\n- `([^`]+)`/;
const CLAIMED = /^Claimed task ([^:\s]+):/;

/**
 * A board teammate that claims the first task of each notice and submits it at once:
 * `failed` while `fail(taskId)` says so, else `completed`.
 */
function worker(fail: (taskId: string) => boolean = () => false): AgentScript {
  return (c) => {
    const claimed = CLAIMED.exec(c.toolResults[0]?.content ?? "");
    if (claimed) {
      const taskId = claimed[1]!;
      const failed = fail(taskId);
      return { toolCalls: [{ name: "task_submit", arguments: { taskId, status: failed ? "failed" : "completed", result: failed ? `FAILED-${taskId}: the build is broken` : `done ${taskId} by ${c.agent}` } }] };
    }
    if (c.toolResults.length > 0) return { text: "ok" };
    const notice = NOTICE_ID.exec(c.lastUser);
    return notice ? { toolCalls: [{ name: "task_claim", arguments: { taskId: notice[1] } }] } : { text: "ok" };
  };
}

/** When each task was claimed (the model call that made the accepted claim, ms) and completed. */
function timeline(t: BoardTeam, file: BoardFile, id: string): { claimedAt: number; completedAt: number } {
  const claims = t.model.calls.filter((c) => (c.reply?.toolCalls ?? []).some((x) => x.name === "task_claim" && x.arguments.taskId === id));
  const s = taskOf(file, id)!.state;
  return { claimedAt: claims.at(-1)!.at, completedAt: s.status === "completed" ? s.completedAt : Number.NaN };
}

let team: BoardTeam | undefined;
let headless: HeadlessRun | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
  if (headless) await closeHeadless(headless);
  headless = undefined;
});

describe("work that flows under the default pace (W20)", () => {
  it("a chain code → (test, docs) with two idle board teammates finishes without waiting for a paced notice", async () => {
    team = await startBoardTeam({
      agents: AGENTS,
      scripts: {
        leader: leaderCommands({
          SPAWN: [spawnIdle("alice"), spawnIdle("bob")],
          CHAIN: [
            create({ subject: "Code" }),
            create({ subject: "Test", dependsOn: ["code"] }),
            create({ subject: "Docs", dependsOn: ["code"] }),
          ],
        }),
        alice: worker(),
        bob: worker(),
      },
    });
    await team.run("SPAWN");
    await team.run("CHAIN");
    const file = await team.waitBoard((f) => f.tasks.length === 3 && f.tasks.every((t) => t.state.status === "completed"), FLOW_TIMEOUT_MS);
    const code = timeline(team, file, "code");
    const gaps = ["test", "docs"].map((id) => timeline(team!, file, id).claimedAt - code.completedAt);
    console.log(`idle gaps after code completed: test ${gaps[0]} ms, docs ${gaps[1]} ms (pace 300000 ms)`);
    // Both dependents were claimed after code completed, and by the two teammates between them.
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(0);
  });

  it("a task released as failed is offered again at once, and task_list marks the failure", async () => {
    let failures = 0;
    const failFirst = () => failures++ === 0;
    team = await startBoardTeam({
      agents: AGENTS,
      scripts: {
        leader: leaderCommands({
          SPAWN: [spawnIdle("alice"), spawnIdle("bob")],
          TASK: [create({ subject: "Build" })],
          LIST: [{ name: "task_list", arguments: {} }],
        }),
        alice: worker(failFirst),
        bob: worker(failFirst),
      },
    });
    await team.run("SPAWN");
    await team.run("TASK");
    const file = await team.waitBoard((f) => taskOf(f, "build")?.state.status === "completed", FLOW_TIMEOUT_MS);
    expect(taskOf(file, "build")!.failedSubmits).toBe(1);
    // The board_settled turn may be the one run() sees settle: wait for the task_list result itself.
    await team.run("LIST");
    const list = await until("the task_list result", () => team!.toolEnds("task_list").at(-1)?.text, 30_000);
    expect(list).toContain("- `build` [completed · failed ×1] Build");
  });
});

describe("a failure is seen and bounded (W22)", () => {
  it("a second failure parks the task and costs the leader one turn that escalates it with the settle summary; both failures are Mail rows", async () => {
    team = await startBoardTeam({
      agents: AGENTS,
      scripts: {
        leader: leaderCommands({ SPAWN: [spawnIdle("alice")], TASK: [create({ subject: "Flaky" })], PING: [] }),
        alice: worker(() => true),
      },
    });
    await team.run("SPAWN");
    await team.run("TASK");
    const file = await team.waitBoard((f) => taskOf(f, "flaky")?.state.status === "parked", FLOW_TIMEOUT_MS);
    expect(taskOf(file, "flaky")!.failedSubmits).toBe(2);
    const settled = await until("the board_settled event", () => harnessEvents(team!, "board_settled")[0]);
    expect(settled).toContain("Task `flaky` (Flaky) was submitted as failed 2 times and is parked with @alice. Last reason: FAILED-flaky: the build is broken");
    expect(settled).toContain("- `flaky` [parked · failed ×2] Flaky · with @alice after 2 failed submissions");
    await team.run("PING"); // a barrier: any second event would have been delivered by now
    const leaderTurns = team.model.callsOf("leader").filter((c) => c.toolResults.length === 0 && c.lastUser.includes("<harness-event")).length;
    console.log(`failed twice: ${team.model.callsOf("alice").length} teammate calls, ${leaderTurns} leader turn(s) from harness events`);
    expect(harnessEvents(team, "verify_escalation")).toEqual([]);
    expect(harnessEvents(team, "board_settled")).toHaveLength(1);
    const mail = await consoleText(team);
    expect(mail).toContain("task_submit failed: `flaky` (failed ×1): FAILED-flaky");
    expect(mail).toContain("task_submit failed: `flaky` (failed ×2): FAILED-flaky");
    expect(mail).toMatch(/#flaky · parked · failed ×2 · Flaky/); // the Board page's list
  });
});

/** A headless leader: GO makes `go`'s tool calls; a board_settled event gets the final text. */
function headlessLeader(go: Reply["toolCalls"]) {
  return (c: ModelCall): Reply => {
    if (c.toolResults.length > 0) return { text: "Started." };
    if (c.lastUser === "GO") return { toolCalls: go ?? [] };
    if (c.lastUser.includes('type="board_settled"')) return { text: "FINAL: the board is done." };
    return { text: "Noted." };
  };
}

async function headlessBoard(r: HeadlessRun): Promise<BoardFile> {
  const text = await readFile(join(r.env.agentDir, "tasks", sessionKey(undefined, r.env.cwd), "board.json"), "utf8");
  const parsed = parseBoardFile(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.file;
}

describe("pi -p finishes the board or says why not (W21)", () => {
  it("exits 0 only after every task of the chain completed", async () => {
    const go = [
      spawnIdle("alice"),
      spawnIdle("bob"),
      create({ subject: "Code" }),
      create({ subject: "Test", dependsOn: ["code"] }),
      create({ subject: "Docs", dependsOn: ["code"] }),
    ];
    const w = worker();
    headless = await startHeadless((c) => (c.agent === "leader" ? headlessLeader(go)(c) : w(c)), AGENTS);
    const exit = await exitOf(headless, FLOW_TIMEOUT_MS);
    expect(exit, headless.stderr()).toMatchObject({ code: 0, signal: null });
    const file = await headlessBoard(headless);
    expect(file.tasks.map((t) => [t.id, t.state.status])).toEqual([["code", "completed"], ["test", "completed"], ["docs", "completed"]]);
    expect(headless.stdout().trim()).toBe("FINAL: the board is done.");
  });

  it("a board no living teammate can take ends the run with the stderr summary and exit 3", async () => {
    const go = [spawnCall("alice", "worker", "KICKOFF: tidy up"), create({ subject: "Docs" })];
    const alice = (c: ModelCall): Reply =>
      c.toolResults.length === 0 && c.lastUser.includes("KICKOFF") ? { toolCalls: [sendCall("leader", "tidied", "completed")] } : { text: "ok" };
    headless = await startHeadless((c) => (c.agent === "leader" ? headlessLeader(go)(c) : alice(c)), AGENTS);
    const exit = await exitOf(headless, FLOW_TIMEOUT_MS);
    expect(exit, headless.stderr()).toMatchObject({ code: 3, signal: null });
    expect(headless.stderr()).toContain("pi-resident-teams: The task board is stuck: 1 task (1 pending); no teammate is working and none can take what is left.");
    expect(headless.stderr()).toContain("- `docs` [pending] Docs: no teammate can take it: @alice holds a direct assignment");
    expect(headless.stderr()).toContain("Exit code 3: the board is stuck.");
    expect((await headlessBoard(headless)).tasks[0]!.state.status).toBe("pending");
  });
});
