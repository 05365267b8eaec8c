/**
 * The model-call rate (issue 18) on the real pi CLI: a teammate scripted to call `task_list` 250
 * times in a row (the issue saw 975 in 45 s, unseen) raises exactly one `teammate_looping`
 * harness event at the default rate (100 calls in 60 s), which reaches the leader's model and the
 * console's Mail page; the teammate is not stopped. After its report reached the leader, a second
 * run of 150 calls is a new streak with its own one event. The figures are printed.
 */
import { afterEach, describe, expect, it } from "vitest";
import { agentFile } from "../support/leader.ts";
import type { ModelCall, Reply } from "../support/scripted-model.ts";
import { consoleText, isAlive, leaderCommands, sendCall, spawnCall, startTeam, waitStatus, waitUntil, type Team } from "../support/team.ts";
import { harnessEvents } from "../support/worktree.ts";

const AGENTS = { "worker.md": agentFile("worker", "You are a worker.", { tools: "read" }) };
const FIRST = 250;
const SECOND = 150;

let team: Team | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
});

describe("model-call rate", () => {
  it("a teammate calling task_list 250 times in a row raises one teammate_looping event and keeps running; a report starts a new streak", async () => {
    let n = 0;
    const looper = async (_c: ModelCall): Promise<Reply> => {
      n += 1;
      if (n <= FIRST) return { toolCalls: [{ name: "task_list", arguments: {} }] };
      if (n === FIRST + 1) return { toolCalls: [sendCall("leader", "HALFWAY")] };
      if (n === FIRST + 2) await waitUntil("the leader's model to see HALFWAY", () => t.model.callsOf("leader").some((c) => c.lastUser.includes("HALFWAY")), 30_000);
      if (n <= FIRST + 1 + SECOND) return { toolCalls: [{ name: "task_list", arguments: {} }] };
      if (n === FIRST + 2 + SECOND) return { toolCalls: [sendCall("leader", "DONE", "completed")] };
      return { text: "ok" };
    };
    team = await startTeam({ agents: AGENTS, scripts: { leader: leaderCommands({ GO: [spawnCall("looper", "worker", "Loop.")] }), looper } });
    const t = team;
    const t0 = Date.now();
    await t.run("GO");
    await waitUntil("the first teammate_looping event", () => harnessEvents(t, "teammate_looping", "looper").length === 1, 60_000);
    const firstAt = (Date.now() - t0) / 1000;
    await waitUntil("looper's DONE report", () => t.model.callsOf("leader").some((c) => c.lastUser.includes("DONE")), 90_000);
    await waitUntil("the leader to settle", () => t.model.callsOf("leader").at(-1)?.reply !== undefined, 30_000);
    console.log(`model-call rate: event after ~${firstAt.toFixed(1)} s; looper made ${t.model.callsOf("looper").length} calls in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

    const events = harnessEvents(t, "teammate_looping", "looper");
    expect(events).toHaveLength(2);
    for (const e of events) {
      expect(e).toMatch(/^<harness-event type="teammate_looping" teammate="looper">\n@looper made 100 model calls in [\d.]+ s with no report or board step\. /);
      expect(e).toContain("Nothing was stopped.");
    }
    // Each reached the leader's model as its own turn.
    expect(t.model.callsOf("leader").filter((c) => c.lastUser.includes('<harness-event type="teammate_looping"'))).toHaveLength(2);
    // Not stopped: it made every call of its script and its last report arrived; its process lives.
    expect(t.model.callsOf("looper").length).toBeGreaterThanOrEqual(FIRST + SECOND + 2);
    await waitStatus(t.runtimeDir, "looper", "idle", 30_000);
    expect([...t.pids].every(isAlive)).toBe(true);
    expect(await consoleText(t)).toContain("teammate_looping: @looper made 100 model calls in");
  });
});
