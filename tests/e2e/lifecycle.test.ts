/**
 * Issue 2 acceptance on the real pi CLI: the end of teammates. A requested shutdown leaves no
 * process and no leader turn; a SIGKILLed teammate is one harness-event turn; a SIGKILLed
 * leader leaves no child alive after 5 s. Every test has its own model, env and leader.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { agentFile } from "../support/leader.ts";
import type { ModelCall } from "../support/scripted-model.ts";
import { isAlive, leaderCommands, sendCall, spawnCall, startTeam, waitGone, waitStatus, type Team } from "../support/team.ts";

const AGENTS = { "worker.md": agentFile("worker", "You are a worker.", { tools: "read" }) };

let team: Team | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
});

const harnessTurn = (c: ModelCall): boolean =>
  c.agent === "leader" && c.toolResults.length === 0 && c.lastUser.includes("<harness-event");

const spawnedPid = (t: Team, name: string): number => {
  const end = t.toolEnds("teammate_spawn").find((e) => e.details.name === name);
  expect(end, `teammate_spawn of ${name}`).toMatchObject({ isError: false });
  const pid = end!.details.pid;
  expect(typeof pid).toBe("number");
  return pid as number;
};

describe("teammate_shutdown", () => {
  it("leaves no process and does not start a leader turn", async () => {
    team = await startTeam({
      agents: AGENTS,
      scripts: {
        leader: leaderCommands({
          SPAWN: [spawnCall("alice", "worker")],
          SHUTDOWN: [{ name: "teammate_shutdown", arguments: { name: "alice" } }],
        }),
      },
    });
    const { model, leader } = team;
    await team.run("SPAWN");
    const pid = spawnedPid(team, "alice");
    expect(isAlive(pid)).toBe(true);

    await team.run("SHUTDOWN");
    const [end] = team.toolEnds("teammate_shutdown");
    expect(end).toMatchObject({ isError: false, details: { name: "alice" } });
    expect(end!.text).toMatch(/^Teammate alice shut down \(stopped/);
    // The tool returns after the child closed: the process is gone at once.
    expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: "ESRCH" }));

    // A barrier turn: anything the shutdown had queued for the leader would run before it settles.
    await team.run("PING");
    expect(model.callsOf("leader").map((c) => (c.toolResults.length > 0 ? `${c.lastUser}+result` : c.lastUser))).toEqual([
      "SPAWN", "SPAWN+result", "SHUTDOWN", "SHUTDOWN+result", "PING",
    ]);
    expect(leader.events.filter((e) => e.type === "agent_start")).toHaveLength(3);
    expect(leader.customMessages()).toEqual([]);
    expect(model.callsOf("alice")).toHaveLength(0);
  });
});

describe("respawn", () => {
  it("a teammate shut down can be respawned under the same name, and the new incarnation's report arrives", async () => {
    team = await startTeam({
      agents: AGENTS,
      scripts: {
        leader: leaderCommands({
          FIRST: [spawnCall("alice", "worker", "ASSIGN-1")],
          SHUTDOWN: [{ name: "teammate_shutdown", arguments: { name: "alice" } }],
          SECOND: [spawnCall("alice", "worker", "ASSIGN-2")],
        }),
        alice: (c) => {
          const n = c.lastUser.includes("ASSIGN-2") ? 2 : 1;
          return c.toolResults.length === 0 ? { toolCalls: [sendCall("leader", `REPORT-${n}`, "completed")] } : { text: "done" };
        },
      },
    });
    const { model } = team;
    const reportOf = (n: number) => (c: ModelCall) => c.agent === "leader" && c.toolResults.length === 0 && c.lastUser.includes(`REPORT-${n}`);
    await team.run("FIRST");
    await model.waitForCall(reportOf(1), 30_000);
    await waitStatus(team.runtimeDir, "alice", "idle");
    await team.run("SHUTDOWN");
    const first = spawnedPid(team, "alice");
    expect(isAlive(first)).toBe(false);

    await team.run("SECOND");
    const spawns = team.toolEnds("teammate_spawn");
    expect(spawns).toHaveLength(2);
    expect(spawns[1]).toMatchObject({ isError: false, details: { name: "alice" } });
    expect(spawns[1]!.details.spawnId).not.toBe(spawns[0]!.details.spawnId);
    await model.waitForCall(reportOf(2), 30_000);
    expect(model.calls.filter(reportOf(1))).toHaveLength(1);
    expect(model.calls.filter(reportOf(2))).toHaveLength(1);
  });
});

describe("crash of a teammate", () => {
  it("SIGKILL of a teammate yields exactly one harness-event turn naming it and the signal", async () => {
    team = await startTeam({
      agents: AGENTS,
      scripts: { leader: leaderCommands({ SPAWN: [spawnCall("alice", "worker"), spawnCall("bob", "worker")] }) },
    });
    const { model, leader } = team;
    await team.run("SPAWN");
    const alice = spawnedPid(team, "alice");
    const bob = spawnedPid(team, "bob");

    process.kill(alice, "SIGKILL");
    const turn = await model.waitForCall(harnessTurn, 30_000);
    expect(turn.lastUser).toContain('<harness-event type="teammate_crashed" teammate="alice">');
    expect(turn.lastUser).toContain("Teammate alice (agent worker) stopped unexpectedly: signal SIGKILL.");
    expect(turn.lastUser).not.toContain("teammate=\"bob\"");
    expect(turn.lastUser).toContain(`Stderr log: ${join(team.runtimeDir, "logs", "alice.log")}`);
    // It held nothing, so nothing is said to have gone back to the board (R56).
    expect(turn.lastUser).toContain("It held no board tasks.");
    expect(turn.lastUser).not.toContain("went back to the board");

    // A barrier turn, then count: one harness event, one leader turn for it, bob untouched.
    await leader.waitSettledCount(2);
    await team.run("PING");
    expect(model.calls.filter(harnessTurn)).toHaveLength(1);
    const events = leader.customMessages("harness-event");
    expect(events).toHaveLength(1);
    expect(events[0]!.content).toContain('teammate="alice"');
    expect(events[0]!.content).toContain("SIGKILL");
    expect(leader.customMessages("teammate-report")).toEqual([]);
    expect(isAlive(bob)).toBe(true);
  });
});

describe("session end", () => {
  it("the leader exiting (stdin EOF) stops every teammate first: none alive, runtime dir removed", async () => {
    team = await startTeam({
      agents: AGENTS,
      scripts: {
        leader: leaderCommands({ SPAWN: [spawnCall("alice", "worker"), spawnCall("bob", "worker", "ASSIGN-bob: think long")] }),
        bob: () => ({ text: "never sent", delayMs: 120_000 }),
      },
    });
    const { model, leader, runtimeDir } = team;
    await team.run("SPAWN");
    await model.waitForCall((c) => c.agent === "bob", 30_000);
    const pids = [spawnedPid(team, "alice"), spawnedPid(team, "bob")];
    expect(existsSync(runtimeDir)).toBe(true);

    const exit = await leader.proc.stop({ graceMs: 15_000, termGraceMs: 2000 });
    expect(exit).toMatchObject({ code: 0, signal: null });
    // session_shutdown stopped both before the leader exited; nothing reported a crash.
    expect(pids.filter(isAlive)).toEqual([]);
    expect(existsSync(runtimeDir)).toBe(false);
    expect(model.calls.filter(harnessTurn)).toEqual([]);
    expect(leader.customMessages("harness-event")).toEqual([]);
  });
});

describe("crash of the leader", () => {
  it("SIGKILL of the leader leaves no child alive after 5 s (idle and working teammates)", async () => {
    team = await startTeam({
      agents: AGENTS,
      scripts: {
        leader: leaderCommands({ SPAWN: [spawnCall("alice", "worker"), spawnCall("bob", "worker", "ASSIGN-bob: think long")] }),
        // Bob never gets an answer: he is mid-request (working) when the leader dies.
        bob: () => ({ text: "never sent", delayMs: 120_000 }),
      },
    });
    const { model, leader } = team;
    await team.run("SPAWN");
    await model.waitForCall((c) => c.agent === "bob", 30_000);
    const pids = [spawnedPid(team, "alice"), spawnedPid(team, "bob")];
    expect(pids.filter(isAlive)).toEqual(pids);

    process.kill(leader.pid, "SIGKILL");
    const { alive, ms } = await waitGone(pids, 5_000);
    console.log(`[e2e lifecycle] children gone ${ms} ms after the leader's SIGKILL`);
    expect(alive).toEqual([]);
    expect(isAlive(leader.pid)).toBe(false);
  });
});
