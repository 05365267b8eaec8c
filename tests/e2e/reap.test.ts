/**
 * Issue 18, "nothing outlives its teammate", on the real pi CLI: whatever a teammate's or a
 * reviewer's `bash` started (a foreground command still running, and commands left behind with
 * `setsid`, `nohup` and a double fork) is ended when that child is SIGKILLed, shut down, or its
 * leader ends or is killed. The processes are counted by the markers in their environment
 * (src/reap/reaper.ts); the goal is 0 within 5 s (acceptance), polled.
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { reapMarked } from "../../src/reap/index.ts";
import { statParent } from "../../src/reap/proc-parse.ts";
import { ENV } from "../../src/mail/identity.ts";
import { boardWorker, create, spawnIdle, startBoardTeam, taskOf, type BoardTeam } from "../support/board.ts";
import { agentFile } from "../support/leader.ts";
import { leaderMarker, markedPids, spawnMarker, waitNoneMarked, describePid, type Marker } from "../support/leftovers.ts";
import type { ModelCall, Reply, ReplyToolCall } from "../support/scripted-model.ts";
import { leaderCommands, sendCall, spawnCall, startTeam, waitUntil, type Team } from "../support/team.ts";

const AGENTS = { "worker.md": agentFile("worker", "You are a worker.", { tools: "read, bash" }) };

/** A bash call that leaves three sleeps behind (setsid, nohup, double fork) and runs a fourth in the foreground. */
const leaveBehind = (tag: number, foreground = true): ReplyToolCall => ({
  name: "bash",
  arguments: {
    command: [
      `setsid sleep ${tag}1 >/dev/null 2>&1 </dev/null &`,
      `nohup sleep ${tag}2 >/dev/null 2>&1 &`,
      `(sleep ${tag}3 >/dev/null 2>&1 &)`,
      foreground ? `sleep ${tag}4` : "true",
    ].join("\n"),
  },
});

/** The pids carrying `markers` whose command line is one of the sleeps of `tag`. */
async function sleepsOf(markers: Marker[], tag: number): Promise<string[]> {
  return (await markedPids(markers)).map(describePid).filter((d) => d.includes(`sleep ${tag}`));
}

/** The teammate's first call runs `call`; every later one answers "ok". */
const firstCall = (call: ReplyToolCall) => (c: ModelCall): Reply => (c.toolResults.length === 0 && c.messages.filter((m) => m.role === "assistant").length === 0 ? { toolCalls: [call] } : { text: "ok" });

let team: Team | BoardTeam | undefined;
afterEach(async () => {
  const leaderPid = team?.leader.pid;
  await team?.stop();
  team = undefined;
  // A failed test leaves no sleep behind (every one of them carries the leader's pid).
  if (leaderPid && process.platform === "linux") await reapMarked([leaderMarker(leaderPid)]);
});

const spawned = (t: Team, name: string): { pid: number; spawnId: string } => {
  const end = t.toolEnds("teammate_spawn").find((e) => e.details.name === name);
  expect(end, `teammate_spawn of ${name}`).toMatchObject({ isError: false });
  return { pid: end!.details.pid as number, spawnId: end!.details.spawnId as string };
};

describe.runIf(process.platform === "linux")("nothing outlives its teammate", () => {
  it("a teammate SIGKILLed during a bash call: its foreground, setsid, nohup and double-forked sleeps are gone within 5 s", async () => {
    team = await startTeam({ agents: AGENTS, scripts: { leader: leaderCommands({ SPAWN: [spawnCall("alice", "worker", "GO")] }), alice: firstCall(leaveBehind(414)) } });
    const t = team;
    await t.run("SPAWN");
    const alice = spawned(t, "alice");
    await waitUntil("alice's four sleeps", async () => (await sleepsOf([spawnMarker(alice.spawnId)], 414)).length === 4, 30_000);

    process.kill(alice.pid, "SIGKILL");
    const { left, ms } = await waitNoneMarked([spawnMarker(alice.spawnId)], 5000);
    console.log(`[e2e reap] a SIGKILLed teammate's processes gone ${ms} ms after the kill`);
    expect(left).toEqual([]);
  });

  it("the leader SIGKILLed: a teammate in a bash call and one streaming reports end their own leftovers on the way out", async () => {
    // eve streams reports after her bash call, so a write to the dead leader's pipe kills her Pi (EPIPE).
    const streaming = (c: ModelCall): Reply => {
      const n = c.messages.filter((m) => m.role === "assistant").length;
      if (n === 0) return { toolCalls: [leaveBehind(425, false)] };
      return n > 200 ? { text: "done" } : { toolCalls: [sendCall("leader", `report ${n}`)], delayMs: 20 };
    };
    team = await startTeam({ agents: AGENTS, scripts: { leader: leaderCommands({ SPAWN: [spawnCall("bob", "worker", "GO"), spawnCall("eve", "worker", "GO")] }), bob: firstCall(leaveBehind(424)), eve: streaming } });
    const t = team;
    await t.leader.prompt("SPAWN");
    await t.waitToolEnds("teammate_spawn", 2, 60_000);
    const bob = spawned(t, "bob");
    const eve = spawned(t, "eve");
    await waitUntil("the sleeps of bob and eve", async () => (await sleepsOf([spawnMarker(bob.spawnId)], 424)).length === 4 && (await sleepsOf([spawnMarker(eve.spawnId)], 425)).length === 3, 30_000);
    await t.model.waitForCall((c) => c.agent === "eve" && c.messages.filter((m) => m.role === "assistant").length > 3, 30_000);

    const leaderPid = t.leader.pid;
    process.kill(leaderPid, "SIGKILL");
    const { left, ms } = await waitNoneMarked([leaderMarker(leaderPid)], 5000);
    console.log(`[e2e reap] the team of a SIGKILLed leader gone ${ms} ms after the kill`);
    expect(left).toEqual([]);
  });

  it("teammate_shutdown and the leader's quit end what a teammate left in the background", async () => {
    const leaderScript = leaderCommands({ SPAWN: [spawnCall("cy", "worker", "GO"), spawnCall("dee", "worker", "GO")], STOP: [{ name: "teammate_shutdown", arguments: { name: "cy" } }] });
    const bg = (tag: number) => firstCall(leaveBehind(tag, false));
    team = await startTeam({ agents: AGENTS, scripts: { leader: leaderScript, cy: bg(434), dee: bg(444) } });
    const t = team;
    await t.run("SPAWN");
    const cy = spawned(t, "cy");
    const dee = spawned(t, "dee");
    await waitUntil("the sleeps of cy and dee", async () => (await sleepsOf([spawnMarker(cy.spawnId)], 434)).length === 3 && (await sleepsOf([spawnMarker(dee.spawnId)], 444)).length === 3, 30_000);

    await t.run("STOP");
    expect((await waitNoneMarked([spawnMarker(cy.spawnId)], 5000)).left).toEqual([]);
    expect(await sleepsOf([spawnMarker(dee.spawnId)], 444)).toHaveLength(3); // a peer's are not touched

    const leaderPid = t.leader.pid;
    const exit = await t.leader.proc.stop({ graceMs: 15_000, termGraceMs: 2000 });
    expect(exit).toMatchObject({ code: 0, signal: null });
    // The kills were sent before the leader exited; the poll only lets them take effect.
    expect((await waitNoneMarked([leaderMarker(leaderPid)], 5000)).left).toEqual([]);
  });
});

/** The reviewer process of the leader `leaderPid` (its child with PI_TEAMS_ROLE=reviewer) and its review id. */
async function reviewerOf(leaderPid: number): Promise<{ pid: number; marker: Marker } | undefined> {
  for (const pid of await markedPids([leaderMarker(leaderPid)])) {
    try {
      if (statParent(readFileSync(`/proc/${pid}/stat`, "utf8")) !== leaderPid) continue;
      const env = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
      const id = env.find((e) => e.startsWith(`${ENV.reviewId}=`));
      if (env.includes(`${ENV.role}=reviewer`) && id) return { pid, marker: { key: ENV.reviewId, value: id.slice(ENV.reviewId.length + 1) } };
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

/** alice claims and submits the one gated task; the reviewer runs `reviewer`. */
async function gatedTeam(reviewer: (c: ModelCall) => Reply | Promise<Reply>): Promise<BoardTeam> {
  const t = await startBoardTeam({
    agents: AGENTS,
    scripts: {
      leader: leaderCommands({ SPAWN: [spawnIdle("alice")], CREATE: [create({ subject: "Check the reaper", verify: "CRITERIA: it works" })] }),
      alice: boardWorker({ claimNotices: true, submitAfterClaim: true }),
      reviewer,
    },
  });
  await t.run("SPAWN");
  await t.run("CREATE");
  return t;
}

describe.runIf(process.platform === "linux")("nothing outlives its reviewer", () => {
  it("a reviewer that answers: what its bash left in the background is gone once it has stopped", async () => {
    let seen: { marker: Marker; sleeps: string[] } | undefined;
    let leaderPid = 0;
    team = await gatedTeam(async (c) => {
      if (c.toolResults.length === 0) return { toolCalls: [leaveBehind(454, false)] };
      // Captured while this reviewer waits for its verdict to arrive.
      const r = await reviewerOf(leaderPid);
      if (r) seen = { marker: r.marker, sleeps: await sleepsOf([r.marker], 454) };
      return { text: "VERDICT: PASS" };
    });
    const t = team;
    leaderPid = t.leader.pid;
    await t.waitBoard((f) => taskOf(f, "check-the-reaper")?.state.status === "completed", 60_000);
    expect(seen?.sleeps).toHaveLength(3);
    expect((await waitNoneMarked([seen!.marker], 5000)).left).toEqual([]);
  });

  it("a reviewer SIGKILLed during a bash call: its foreground, setsid, nohup and double-forked sleeps are gone within 5 s", async () => {
    team = await gatedTeam((c) => (c.toolResults.length === 0 ? { toolCalls: [leaveBehind(464)] } : { text: "VERDICT: PASS" }));
    const t = team;
    await waitUntil("the reviewer's four sleeps", async () => (await sleepsOf([leaderMarker(t.leader.pid)], 464)).length === 4, 60_000);
    const reviewer = await reviewerOf(t.leader.pid);
    expect(reviewer).toBeDefined();

    process.kill(reviewer!.pid, "SIGKILL");
    const { left, ms } = await waitNoneMarked([reviewer!.marker], 5000);
    console.log(`[e2e reap] a SIGKILLed reviewer's processes gone ${ms} ms after the kill`);
    expect(left).toEqual([]);
  });
});
