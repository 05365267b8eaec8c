/**
 * Issue 6 items 2 and 3 on the real pi CLI: a teammate whose model hangs yields exactly one stall
 * notice (small thresholds through the real environment variables), and a teammate whose runs end
 * without a terminal report gets exactly one reminder, then the leader one harness event.
 */
import { afterEach, describe, expect, it } from "vitest";
import { agentFile } from "../support/leader.ts";
import { leaderCommands, spawnCall, startTeam, waitUntil, type Team } from "../support/team.ts";

const AGENTS = { "worker.md": agentFile("worker", "You are a worker.", { tools: "read" }) };

let team: Team | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
});

const events = (t: Team, type: string) => t.leader.customMessages("harness-event").filter((m) => m.content.includes(`type="${type}"`));

describe("stall heartbeat", () => {
  it("a model that never answers yields exactly one notice naming shutdown plus respawn, and the teammate is not killed", async () => {
    team = await startTeam({
      agents: AGENTS,
      leaderEnv: { PI_TEAMMATE_STALL_NOTICE_MS: "60000", PI_TEAMMATE_SILENT_STALL_MS: "800" },
      scripts: {
        leader: leaderCommands({ GO: [spawnCall("alice", "worker", "TASK")] }),
        alice: () => ({ delayMs: 120_000, text: "too late" }), // hangs at the provider
      },
    });
    await team.run("GO");
    await waitUntil("a stall notice", () => events(team!, "teammate_stalled").length > 0, 20_000);
    const [notice] = events(team, "teammate_stalled");
    expect(notice!.content).toMatch(/\[agent\] @alice stalled · silent \d+s/);
    expect(notice!.content).toMatch(/spawned \d+s ago; lifetime usage 0 tokens/);
    expect(notice!.content).toMatch(/teammate_shutdown[\s\S]*teammate_spawn/);
    // Three more thresholds of silence: still one notice for this episode, and alice lives.
    await new Promise((r) => setTimeout(r, 2500));
    expect(events(team, "teammate_stalled")).toHaveLength(1);
    const pid = team.toolEnds("teammate_spawn")[0]!.details.pid as number;
    expect(() => process.kill(pid, 0)).not.toThrow();
    // The notice was its own leader turn, and nothing about health was put on a routing result.
    expect(team.model.callsOf("leader").some((c) => c.lastUser.includes("stalled · silent"))).toBe(true);
    expect(team.toolEnds().some((t) => t.text.includes("stalled"))).toBe(false);
  });
});

describe("ending a run without a report (L31)", () => {
  it("one reminder to the teammate, then one harness event for the leader with the tail of its last text", async () => {
    team = await startTeam({
      agents: AGENTS,
      scripts: {
        leader: leaderCommands({ GO: [spawnCall("alice", "worker", "TASK")] }),
        alice: (c) => ({ text: c.lastUser.includes("<harness-reminder>") ? "Still thinking about it, REMINDED." : "I looked around, FIRST-RUN." }),
      },
    });
    await team.run("GO");
    await waitUntil("the no-report event", () => events(team!, "teammate_no_report").length > 0, 20_000);
    const [event] = events(team, "teammate_no_report");
    expect(event!.content).toMatch(/alice went idle twice without a terminal report/);
    expect(event!.content).toContain("REMINDED.");
    // A barrier turn: nothing else was owed, and no second reminder or event follows.
    await team.run("PING");
    const reminders = team.model.callsOf("alice").filter((c) => c.lastUser.includes("<harness-reminder>"));
    expect(reminders).toHaveLength(1);
    expect(team.model.callsOf("alice")).toHaveLength(2);
    expect(events(team, "teammate_no_report")).toHaveLength(1);
  });

  it("a teammate that reports terminally gets no reminder", async () => {
    team = await startTeam({
      agents: AGENTS,
      scripts: {
        leader: leaderCommands({ GO: [spawnCall("alice", "worker", "TASK")] }),
        alice: (c) => (c.toolResults.length === 0 ? { toolCalls: [{ name: "send_message", arguments: { to: "leader", message: "done", status: "completed" } }] } : { text: "bye" }),
      },
    });
    await team.run("GO");
    await waitUntil("the report", () => team!.leader.customMessages("teammate-report").length > 0, 20_000);
    await team.run("PING");
    expect(team.model.callsOf("alice").some((c) => c.lastUser.includes("<harness-reminder>"))).toBe(false);
    expect(events(team, "teammate_no_report")).toHaveLength(0);
  });
});
