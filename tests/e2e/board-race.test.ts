/**
 * Issue 3 acceptance (a) on the real pi CLI: eight teammate processes race task_claim on one
 * task. The leader alone applies the claim intents, so exactly one holds it and the other seven
 * get a rejection, with its reason, in the result of their own tool call.
 */
import { afterEach, describe, expect, it } from "vitest";
import { agentFile } from "../support/leader.ts";
import type { ModelCall, Reply } from "../support/scripted-model.ts";
import { create, holderName, leaderCommands, send, spawnIdle, startBoardTeam, taskOf, toolResultsSeen, until, type BoardTeam } from "../support/board.ts";

const AGENTS = { "worker.md": agentFile("worker", "You are a worker.", { tools: "read" }) };
const NAMES = ["w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8"];
const TASK = "race-for-the-one-task";

let team: BoardTeam | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
});

describe("claim race", () => {
  it("eight teammates claim one task at once: exactly one holds it, seven get the reason in their tool result", async () => {
    // Each teammate claims exactly once, on the first wake that names the task (a board notice or
    // the leader's message). Replies to those claims are held until all eight are waiting, so the
    // eight task_claim calls are released together: a real race between eight processes.
    const claimed = new Set<string>();
    const waiting: (() => void)[] = [];
    const barrier = (c: ModelCall): Promise<Reply> | Reply => {
      if (c.toolResults.length > 0 || claimed.has(c.agent) || !c.lastUser.includes(TASK)) return { text: "ok" };
      claimed.add(c.agent);
      const reply: Reply = { toolCalls: [{ name: "task_claim", arguments: { taskId: TASK } }] };
      return new Promise<Reply>((resolve) => {
        waiting.push(() => resolve(reply));
        if (waiting.length === NAMES.length) for (const go of waiting) go();
      });
    };
    team = await startBoardTeam({
      agents: AGENTS,
      scripts: {
        leader: leaderCommands({
          SPAWN: NAMES.map((n) => spawnIdle(n)),
          CREATE: [create({ subject: "Race for the one task", resources: ["src/race"] })],
          RACE: NAMES.map((n) => send(n, `Claim task ${TASK} now.`)),
        }),
        ...Object.fromEntries(NAMES.map((n) => [n, barrier])),
      },
    });
    const { model } = team;

    await team.run("SPAWN", 90_000);
    const spawns = team.toolEnds("teammate_spawn");
    expect(spawns.map((s) => s.isError)).toEqual(NAMES.map(() => false));
    expect(spawns.map((s) => s.details.kickoff)).toEqual(NAMES.map(() => false));

    await team.run("CREATE");
    expect(team.toolEnds("task_create")[0]!.text).toContain(`Created task \`${TASK}\``);
    await team.run("RACE");

    // Every teammate's model saw the decision as the result of its own task_claim call.
    const seen = await until("eight claim decisions", () => {
      const all = NAMES.map((n) => toolResultsSeen(model, n, "task_claim"));
      return all.every((r) => r.length === 1) ? all.map((r) => r[0]!) : undefined;
    }, 60_000);
    const winners = NAMES.filter((_, i) => seen[i]!.startsWith(`Claimed task ${TASK}:`));
    expect(winners).toHaveLength(1);
    const winner = winners[0]!;
    const losers = NAMES.map((n, i) => ({ n, text: seen[i]! })).filter((x) => x.n !== winner);
    expect(losers).toHaveLength(7);
    for (const { text } of losers) {
      expect(text).toContain("task_claim rejected (not_pending)");
      expect(text).toContain(`Task \`${TASK}\` is already claimed by @${winner}`);
    }
    // Every one of the eight really called task_claim exactly once.
    const claimCalls = model.calls.flatMap((c) => (c.reply?.toolCalls ?? []).filter((t) => t.name === "task_claim").map(() => c.agent));
    expect([...claimCalls].sort()).toEqual([...NAMES].sort());

    // The board agrees: one holder, the winner.
    const file = await team.waitBoard((f) => taskOf(f, TASK)?.state.status === "claimed");
    expect(holderName(taskOf(file, TASK))).toBe(winner);
    expect(file.tasks).toHaveLength(1);
  });
});
