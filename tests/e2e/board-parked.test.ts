/**
 * Issue 6 items 4 and 5 on the real pi CLI.
 * - Parked tasks stay parked (R45, L10). Regression: a holder that resubmitted a parked task
 *   started a new reviewer every time (12 reviewer runs in 4 s). Now its task_submit(completed)
 *   is refused at once and no reviewer starts (counted by the reviewer's model calls and by the
 *   holding's `reviews` in board.json); the escalation names the holder and, the board being
 *   settled otherwise, comes in the board_settled turn (one turn per park, W22); after the
 *   leader's send_message reopen exactly one more reviewer runs, and its FAIL parks the task
 *   again without a second escalation.
 * - The board-settled event: two tasks complete and the leader gets exactly one board_settled
 *   turn (no turn per task). The same answer spawns the teammates and creates the tasks, so
 *   task_create runs while the spawns are in flight: it must not say "no teammate is alive".
 */
import { afterEach, describe, expect, it } from "vitest";
import { agentFile } from "../support/leader.ts";
import { contentText, type ModelCall, type Reply } from "../support/scripted-model.ts";
import {
  boardWorker,
  create,
  leaderCommands,
  spawnIdle,
  startBoardTeam,
  taskOf,
  toolResultsSeen,
  until,
  type AgentScript,
  type BoardTeam,
} from "../support/board.ts";

const AGENTS = { "worker.md": agentFile("worker", "You are a worker.", { tools: "read" }) };
const TASK = "document-the-board";
const REFUSED = "task_submit rejected (parked)";
const RETRIES = 3;

let team: BoardTeam | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
});

/** The holding of a claimed, in-review or parked task of board.json. */
function holdingOf(t: { state: { status: string } } | undefined): { failures: number } | undefined {
  return t && "holding" in t.state ? (t.state as { holding: { failures: number } }).holding : undefined;
}

/** The review attempt a reviewer prompt names. */
function attemptOf(c: ModelCall): number | undefined {
  const m = /\(review attempt (\d+)\)/.exec(c.lastUser);
  return m ? Number(m[1]) : undefined;
}

/** Refused submits the model saw since the last user message of this call. */
function refusalsSinceUser(c: ModelCall): number {
  let n = 0;
  for (let i = c.messages.length - 1; i >= 0; i--) {
    const m = c.messages[i]!;
    if (m.role === "user") break;
    if (m.role === "tool" && contentText(m.content ?? null).includes(REFUSED)) n += 1;
  }
  return n;
}

/**
 * A holder that ignores "do not resubmit": it claims the noticed task, submits it, resubmits on
 * any findings (parked ones too) and on the leader's allowance, and retries a refused submit
 * `RETRIES` times in a row before it ends its turn.
 */
function defiantHolder(): AgentScript {
  const submit = (taskId: string): Reply => ({ toolCalls: [{ name: "task_submit", arguments: { taskId, status: "completed", result: `try of ${taskId}` } }] });
  return (c) => {
    if (c.toolResults.length > 0) {
      const first = c.toolResults[0]!.content;
      const claimed = /^Claimed task ([^:\s]+):/.exec(first);
      if (claimed) return submit(claimed[1]!);
      if (first.includes(REFUSED) && refusalsSinceUser(c) < RETRIES) return submit(TASK);
      return { text: "ok" };
    }
    const notice = /Board notice:[^\n]*\n- `([^`]+)`/.exec(c.lastUser);
    if (notice) return { toolCalls: [{ name: "task_claim", arguments: { taskId: notice[1] } }] };
    if (c.lastUser.includes(`Review of \`${TASK}\` failed`) || c.lastUser.includes(`The leader allows one more review attempt of \`${TASK}\``)) return submit(TASK);
    return { text: "ok" };
  };
}

const isEvent = (type: string) => (c: ModelCall): boolean =>
  c.agent === "leader" && c.toolResults.length === 0 && c.lastUser.includes(`<harness-event type="${type}"`);

/** Waits until the leader settled after its `n`-th turn started by a `type` harness event. */
async function leaderSettledAfterEvent(t: BoardTeam, type: string, n: number): Promise<void> {
  const events = t.leader.events;
  const at = () => {
    const idx = events.map((e, i) => (e.type === "message_end" && JSON.stringify(e).includes(`harness-event type=\\"${type}\\"`) ? i : -1)).filter((i) => i >= 0);
    return idx[n - 1] ?? -1;
  };
  await t.leader.waitForEvent((e, i) => e.type === "agent_settled" && at() >= 0 && i > at(), 60_000);
}

describe("parked tasks stay parked (R45, L10)", () => {
  it("a parked holder's resubmits start no reviewer; the escalation names the holder in the settle turn; reopen allows exactly one more review", async () => {
    team = await startBoardTeam({
      agents: AGENTS,
      scripts: {
        leader: leaderCommands({
          SPAWN: [spawnIdle("alice")],
          CREATE: [create({ subject: "Document the board", description: "Add a board section to README.md.", verify: "The README has a board section." })],
          REOPEN: [{ name: "send_message", arguments: { to: "alice", message: "Address the findings, then submit once more.", reopen: true } }],
        }),
        alice: defiantHolder(),
        reviewer: (c) => ({ text: attemptOf(c) === undefined ? "VERDICT: FAIL - still no section" : `VERDICT: FAIL - FINDING-${attemptOf(c)}` }),
      },
    });
    const t = team;
    await t.run("SPAWN");
    await t.run("CREATE");

    // Two FAILs park it; every task is then settled, so the one escalation waits for alice to idle
    // and comes in the board_settled turn, naming alice (W22).
    const escalation = await t.model.waitForCall(isEvent("board_settled"), 90_000);
    expect(escalation.lastUser).toContain('<harness-event type="board_settled" teammate="task-board">');
    expect(escalation.lastUser).toContain(`Task \`${TASK}\` (Document the board) failed review twice and is parked with @alice`);
    expect(escalation.lastUser).toContain('send_message({ to: "alice", message: "<what to fix>", reopen: true })');

    // alice resubmits anyway, RETRIES times: every one is refused at once and no reviewer starts.
    const refused = () => toolResultsSeen(t.model, "alice", "task_submit").filter((r) => r.includes(REFUSED));
    await until("alice's refused resubmits", () => (refused().length >= RETRIES ? true : undefined), 60_000);
    for (const r of refused()) expect(r).toContain("Do not resubmit");
    const parked = await t.waitBoard((f) => taskOf(f, TASK)?.state.status === "parked");
    expect(taskOf(parked, TASK)!.state).toMatchObject({ status: "parked", holding: { holder: { name: "alice" }, failures: 2, reviews: 2 } });
    expect(t.model.callsOf("reviewer").map(attemptOf)).toEqual([1, 2]);
    expect((await t.readBoard()) && taskOf((await t.readBoard())!, TASK)!.state).toMatchObject({ holding: { reviews: 2 } });
    await leaderSettledAfterEvent(t, "board_settled", 1);

    // The leader reopens alice: exactly one more reviewer runs, and its FAIL parks the task again.
    await t.run("REOPEN");
    const reopen = t.toolEnds("send_message").at(-1)!;
    expect(reopen.isError).toBe(false);
    expect(reopen.text).toContain(`one more review attempt allowed for \`${TASK}\``);
    await t.model.waitForCall((c) => c.agent === "reviewer" && attemptOf(c) === 3, 60_000);
    await until("alice's refused resubmits after the third FAIL", () => (refused().length >= 2 * RETRIES ? true : undefined), 60_000);
    await t.model.waitForCall((c) => isEvent("board_settled")(c) && t.model.calls.filter(isEvent("board_settled")).length >= 2, 60_000);
    await leaderSettledAfterEvent(t, "board_settled", 2);

    // board.json is written within 250 ms of a change (coalesced): wait for the third park there.
    const final = await t.waitBoard((f) => taskOf(f, TASK)?.state.status === "parked" && holdingOf(taskOf(f, TASK))?.failures === 3);
    expect(taskOf(final, TASK)!.state).toMatchObject({ status: "parked", holding: { failures: 3, reviews: 3 } });
    expect(taskOf(final, TASK)!.state).not.toHaveProperty("allowance");
    expect(t.model.callsOf("reviewer").map(attemptOf)).toEqual([1, 2, 3]);
    expect(t.model.calls.filter(isEvent("verify_escalation"))).toHaveLength(0);
    const escalations = t.leader.customMessages("harness-event").filter((m) => m.content.includes("failed review twice and is parked"));
    expect(escalations).toHaveLength(1);
    expect(escalations[0]!.content).toContain('type="board_settled"');
    // alice heard the allowance from the board, and the third FAIL as "parked again".
    expect(t.model.callsOf("alice").some((c) => c.lastUser.includes(`The leader allows one more review attempt of \`${TASK}\``))).toBe(true);
    expect(t.model.callsOf("alice").some((c) => c.lastUser.includes(`Review of \`${TASK}\` failed again (attempt 3)`))).toBe(true);
  });
});

describe("board settled (issue 6 item 5)", () => {
  it("two tasks completing give exactly one board_settled turn; task_create during the spawns does not ask for teammate_spawn", async () => {
    team = await startBoardTeam({
      agents: AGENTS,
      scripts: {
        leader: leaderCommands({
          GO: [spawnIdle("alice"), spawnIdle("bob"), create({ subject: "Write the intro" }), create({ subject: "Write the outro" })],
        }),
        alice: boardWorker({ claimNotices: true, submitAfterClaim: true }),
        bob: boardWorker({ claimNotices: true, submitAfterClaim: true }),
      },
    });
    const t = team;
    await t.run("GO");

    // The creates ran while both spawns were still in flight.
    const creates = t.toolEnds("task_create");
    expect(creates).toHaveLength(2);
    for (const c of creates) {
      expect(c.isError).toBe(false);
      expect(c.text).not.toContain("No teammate is alive");
      expect(c.text).toMatch(/(@alice, @bob|@bob, @alice) are starting; the task reaches them once they are ready/);
    }
    // A spawn without kickoff on a board with claimable work says so.
    const spawns = t.toolEnds("teammate_spawn");
    expect(spawns.some((s) => /it was offered board work \(`write-the-(intro|outro)`/.test(s.text))).toBe(true);

    await t.waitBoard((f) => ["write-the-intro", "write-the-outro"].every((id) => taskOf(f, id)?.state.status === "completed"), 60_000);
    const settled = await t.model.waitForCall(isEvent("board_settled"), 60_000);
    expect(settled.lastUser).toContain('<harness-event type="board_settled" teammate="task-board">');
    expect(settled.lastUser).toContain("2 tasks (2 completed)");
    for (const id of ["write-the-intro", "write-the-outro"]) expect(settled.lastUser).toMatch(new RegExp(`\`${id}\` \\[completed\\] .* · result: done ${id} by (alice|bob)`));
    await leaderSettledAfterEvent(t, "board_settled", 1);

    expect(t.model.calls.filter(isEvent("board_settled"))).toHaveLength(1);
    expect(t.leader.customMessages("harness-event").filter((m) => m.content.includes('type="board_settled"'))).toHaveLength(1);
    // No turn per task: the leader's only turns without tool results are GO and the summary.
    const turns = t.model.callsOf("leader").filter((c) => c.toolResults.length === 0);
    expect(turns.map((c) => (c.lastUser === "GO" ? "GO" : c.lastUser.includes("board_settled") ? "settled" : c.lastUser.slice(0, 80)))).toEqual(["GO", "settled"]);
  });
});
