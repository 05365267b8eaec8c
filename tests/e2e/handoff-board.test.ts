/**
 * Issue 7 item 3 on the real pi CLI: `handoffFrom` a teammate that worked the board. The task
 * the predecessor held is named in the handoff but never transferred: its stop released it, the
 * successor gets the handoff as a message at its first wake (not as a kickoff, which would be a
 * direct assignment and shut it out of the board), and claims the task itself through the board.
 * With a prompt of the leader's, the successor has a direct assignment instead and its claim is
 * refused, as the handoff told it.
 */
import { afterEach, describe, expect, it } from "vitest";
import { agentFile } from "../support/leader.ts";
import type { ModelCall, Reply } from "../support/scripted-model.ts";
import { boardWorker, create, holderName, leaderCommands, spawnIdle, startBoardTeam, taskOf, toolResultsSeen, until, type BoardTeam } from "../support/board.ts";

const AGENTS = { "worker.md": agentFile("worker", "You are a worker.", { tools: "read" }) };
const TASK = "port-the-parser";

let team: BoardTeam | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
});

/** A successor that claims the first task its handoff names, then submits it. */
function successor(c: ModelCall): Reply {
  const claimed = /^Claimed task ([^:\s]+):/.exec(c.toolResults[0]?.content ?? "");
  if (claimed) return { toolCalls: [{ name: "task_submit", arguments: { taskId: claimed[1], status: "completed", result: `finished by ${c.agent}` } }] };
  if (c.toolResults.length > 0) return { text: "ok" };
  const named = /You take over from @ann[\s\S]*?- `([^`]+)`/.exec(c.lastUser);
  return named ? { toolCalls: [{ name: "task_claim", arguments: { taskId: named[1] } }] } : { text: "ok" };
}

const handoff = (name: string, prompt?: string) => ({
  name: "teammate_spawn",
  arguments: { name, agent: "worker", handoffFrom: "ann", ...(prompt ? { prompt } : {}) },
});

async function annHoldsTheTask(): Promise<BoardTeam> {
  const t = await startBoardTeam({
    agents: AGENTS,
    scripts: {
      leader: leaderCommands({
        GO: [create({ subject: "Port the parser" }), spawnIdle("ann")],
        STOP: [{ name: "teammate_shutdown", arguments: { name: "ann" } }],
        NEXT: [handoff("ben")],
        ASSIGNED: [handoff("cy", "Only write the docs.")],
      }),
      ann: boardWorker({ claimNotices: true }),
      ben: successor,
      cy: successor,
    },
  });
  await t.run("GO");
  await t.waitBoard((f) => holderName(taskOf(f, TASK)) === "ann");
  await t.run("STOP");
  await t.waitBoard((f) => taskOf(f, TASK)?.state.status === "pending");
  return t;
}

describe("handoffFrom a board worker", () => {
  it("the successor is told the released task at its first wake, claims it itself and completes it", async () => {
    team = await annHoldsTheTask();
    await team.run("NEXT");
    const spawned = team.toolEnds("teammate_spawn").at(-1)!;
    expect(spawned.isError).toBe(false);
    expect(spawned.details).toMatchObject({ kickoff: false, handoffAs: "mail", handoffFrom: "ann" });
    const first = await until("ben's first model call", () => team!.model.callsOf("ben")[0]);
    expect(first.lastUser).toContain("You take over from @ann");
    expect(first.lastUser).toContain(`\`${TASK}\`: Port the parser`);
    expect(first.lastUser).toContain("claim it yourself with task_claim");
    const claim = await until("ben's claim decision", () => toolResultsSeen(team!.model, "ben", "task_claim")[0]);
    expect(claim).toMatch(/^Claimed task port-the-parser:/);
    const done = await team.waitBoard((f) => taskOf(f, TASK)?.state.status === "completed");
    expect(taskOf(done, TASK)?.state).toMatchObject({ status: "completed", by: "ben" });
  });

  it("with the leader's prompt the successor has a direct assignment: the handoff says the task stays on the board, and a claim is refused", async () => {
    team = await annHoldsTheTask();
    await team.run("ASSIGNED");
    const spawned = team.toolEnds("teammate_spawn").at(-1)!;
    expect(spawned.details).toMatchObject({ kickoff: true, handoffFrom: "ann" });
    const first = await until("cy's first model call", () => team!.model.callsOf("cy")[0]);
    expect(first.lastUser).toContain("you cannot claim board tasks now");
    expect(first.lastUser).toContain("Only write the docs.");
    const claim = await until("cy's claim decision", () => toolResultsSeen(team!.model, "cy", "task_claim")[0]);
    expect(claim).not.toMatch(/^Claimed task/);
    const file = await team.readBoard();
    expect(taskOf(file!, TASK)?.state.status).toBe("pending");
  });
});
