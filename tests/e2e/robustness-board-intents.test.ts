/**
 * Break-it regressions on the real pi CLI, board intents:
 * - inputs that pass the tool schema but not the intent schema (a 65-character task id, a
 *   61 000-character result) are refused at once with the field and the limit, instead of the
 *   teammate's tool call hanging for the 120 s decision timeout;
 * - an invalid intent on disk that its named spawn did not seal gets no decision, even with a
 *   usable id (a sealed invalid one is answered: tests/unit/boardhost/board-host-intents.test.ts);
 * - intent ids are file names: "../../../ESCAPED" never makes the leader write a file outside
 *   the board's folders, and "nodir/poison" never blocks the claims after it.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { agentFile } from "../support/leader.ts";
import type { ModelCall, Reply } from "../support/scripted-model.ts";
import { boardWorker, cmd, create, leaderCommands, send, spawnIdle, startBoardTeam, firstToolResults, taskOf, until, type BoardTeam } from "../support/board.ts";

const AGENTS = { "worker.md": agentFile("worker", "You are a worker.", { tools: "read" }) };
const TASK = "robust-task";
const LONG_ID = "t".repeat(65);
const BIG_RESULT = "r".repeat(61_000);

let team: BoardTeam | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
});

/** Alice obeys LONGCLAIM / BIGSUBMIT with the oversized calls, and `CMD ...` like boardWorker. */
function alice(c: ModelCall): Reply {
  if (c.toolResults.length === 0 && c.lastUser.includes("LONGCLAIM")) return { toolCalls: [{ name: "task_claim", arguments: { taskId: LONG_ID } }] };
  if (c.toolResults.length === 0 && c.lastUser.includes("BIGSUBMIT")) {
    return { toolCalls: [{ name: "task_submit", arguments: { taskId: TASK, status: "completed", result: BIG_RESULT } }] };
  }
  return boardWorker()(c) as Reply;
}

async function start(): Promise<BoardTeam> {
  team = await startBoardTeam({
    agents: AGENTS,
    scripts: {
      leader: leaderCommands({
        SPAWN: [spawnIdle("alice")],
        CREATE: [create({ subject: "Robust task" })],
        LONG: [send("alice", "LONGCLAIM")],
        BIG: [send("alice", "BIGSUBMIT")],
        CLAIM: [send("alice", cmd("claim", TASK))],
      }),
      alice,
    },
  });
  await team.run("SPAWN");
  await team.run("CREATE");
  expect(team.toolEnds("task_create")[0]!.text).toContain(`Created task \`${TASK}\``);
  return team;
}

/** File names under `dir`, recursively. */
async function namesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe("board inputs beyond the intent limits", () => {
  it("an over-long task id or result is refused in the same call, naming the field and the limit", async () => {
    const t = await start();

    await t.run("LONG");
    const [claimResult] = await firstToolResults(t.model, "alice", "task_claim", 20_000); // far below the 120 s decision timeout the call used to wait out
    expect(claimResult).toContain("taskId");
    expect(claimResult).toContain("65 characters");
    expect(claimResult).toContain("at most 48 characters");

    await t.run("BIG");
    const [submitResult] = await firstToolResults(t.model, "alice", "task_submit", 20_000);
    expect(submitResult).toContain("result");
    expect(submitResult).toContain("61000 characters");
    expect(submitResult).toContain("at most 60000 characters");
    expect(submitResult!.length).toBeLessThan(1000); // the result is not echoed back whole

    // Nothing reached the leader: no intent was published, the task is untouched.
    expect(await namesUnder(join(t.boardDir, "claims"))).toEqual([]);
    expect(await namesUnder(join(t.boardDir, "submissions"))).toEqual([]);
    const file = await t.waitBoard((f) => taskOf(f, TASK) !== undefined);
    expect(taskOf(file, TASK)!.state.status).toBe("pending");
  });

  it("an invalid intent not sealed by its named spawn is set aside and refused, with no decision even though its id is usable", async () => {
    const t = await start();
    const intent = { v: 2, id: "foreign-1", from: "alice", spawnId: "whatever", at: Date.now(), action: "claim", taskId: LONG_ID };
    await writeFile(join(t.boardDir, "claims", "foreign-1.json"), JSON.stringify(intent), { mode: 0o600 });
    await until("foreign-1 set aside", async () => ((await readdir(join(t.boardDir, "claims", "invalid")).catch(() => [])).some((n) => n.startsWith("foreign-1.")) ? true : undefined), 15_000);
    const log = await readFile(join(t.runtimeDir, "logs", "harness.log"), "utf8");
    expect(log).toContain(`refused: not signed by alice's spawn: intent ${join(t.boardDir, "claims", "foreign-1.json")}`);
    expect(await readdir(t.boardDir)).not.toContain("decisions"); // answers travel on the pipe, never as files
  });
});

describe("intent ids used as file names", () => {
  it("an id with ../ writes nothing outside the board's folders, an id with / blocks nothing, and a real claim is answered", async () => {
    const t = await start();
    const hostile = (id: string) => ({ v: 2, id, from: "alice", spawnId: "whatever", at: Date.now(), action: "claim", taskId: "nope" });
    // Sorted before any real claim, so the leader meets them first.
    await writeFile(join(t.boardDir, "claims", "aaa-escape.json"), JSON.stringify(hostile("../../../ESCAPED")), { mode: 0o600 });
    await writeFile(join(t.boardDir, "claims", "aab-poison.json"), JSON.stringify(hostile("nodir/poison")), { mode: 0o600 });

    await t.run("CLAIM");
    const [claimResult] = await firstToolResults(t.model, "alice", "task_claim", 30_000);
    expect(claimResult).toContain(`Claimed task ${TASK}:`);

    await until("both hostile intents set aside", async () => {
      const names = await readdir(join(t.boardDir, "claims", "invalid")).catch(() => []);
      return names.length === 2 ? names : undefined;
    }, 15_000);
    const everything = await namesUnder(t.env.root);
    const setAside = join(t.boardDir, "claims", "invalid");
    expect(everything.filter((p) => !p.startsWith(setAside) && (p.includes("ESCAPED") || p.includes("poison")))).toEqual([]);
    const file = await t.waitBoard((f) => taskOf(f, TASK)?.state.status === "claimed");
    expect(taskOf(file, TASK)!.state.status).toBe("claimed");
  });
});
