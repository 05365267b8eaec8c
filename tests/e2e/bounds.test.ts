/**
 * Bounds held in code, on the real pi CLI with scripted models that misbehave on purpose: 200
 * parallel reports in one answer, an outbox replaced under its name, and messages over the one
 * message limit on every path the leader has (kickoff, steer, held for the next wake).
 */
import { copyFile, rename } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MESSAGE_MAX_BYTES } from "../../src/mail/limits.ts";
import { agentFile } from "../support/leader.ts";
import type { ModelCall, Reply } from "../support/scripted-model.ts";
import { leaderCommands, sendCall, spawnCall, startTeam, waitStatus, waitUntil, type Team } from "../support/team.ts";

const AGENTS = { "worker.md": agentFile("worker", "You are a worker.", { tools: "read" }) };

let team: Team | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
});

const reportTurns = (t: Team, tag: string) =>
  t.model.calls.filter((c) => c.agent === "leader" && c.toolResults.length === 0 && c.lastUser.includes('<teammate-report from="alice"') && c.lastUser.includes(tag));

describe("bounds", () => {
  it("200 parallel reports in one answer give one leader turn and 199 clear refusals", async () => {
    let refusals: ModelCall | undefined;
    team = await startTeam({
      agents: AGENTS,
      scripts: {
        leader: leaderCommands({ SPAWN: [spawnCall("alice", "worker")], BURST: [sendCall("alice", "BURST")] }),
        alice: (c): Reply => {
          if (c.toolResults.length > 0) {
            refusals = c;
            return { text: "done" };
          }
          if (!c.lastUser.includes("BURST")) return { text: "ok" };
          return { toolCalls: Array.from({ length: 200 }, (_, i) => sendCall("leader", `BURST-REPORT-${i}`)) };
        },
      },
    });
    await team.run("SPAWN");
    await waitStatus(team.runtimeDir, "alice", "idle", 30_000);
    await team.run("BURST");
    await waitUntil("alice's answer to the 200 results", () => refusals !== undefined, 60_000);
    await waitStatus(team.runtimeDir, "alice", "idle", 60_000);
    await team.model.waitForCall((c) => c.agent === "leader" && c.lastUser.includes("BURST-REPORT-"), 30_000);
    await team.run("after the burst"); // the leader's queue has drained once this run settles

    expect(refusals?.toolResults).toHaveLength(200);
    const refused = refusals!.toolResults.filter((r) => r.content.includes("at most one report per answer"));
    expect(refused).toHaveLength(199);
    expect(reportTurns(team, "BURST-REPORT-")).toHaveLength(1);
  }, 120_000);

  it("an outbox replaced under its name (new inode) re-delivers nothing", async () => {
    team = await startTeam({
      agents: AGENTS,
      scripts: {
        leader: leaderCommands({ SPAWN: [spawnCall("alice", "worker")], FIRST: [sendCall("alice", "REPORT FIRST-REPORT")], SECOND: [sendCall("alice", "REPORT SECOND-REPORT")] }),
        alice: (c): Reply => {
          const m = /REPORT (\S+)/.exec(c.lastUser);
          return c.toolResults.length === 0 && m ? { toolCalls: [sendCall("leader", m[1]!)] } : { text: "ok" };
        },
      },
    });
    await team.run("SPAWN");
    await waitStatus(team.runtimeDir, "alice", "idle", 30_000);
    await team.run("FIRST");
    await team.model.waitForCall((c) => c.agent === "leader" && c.lastUser.includes("FIRST-REPORT") && c.lastUser.includes("<teammate-report"), 30_000);

    const outbox = join(team.runtimeDir, "outbox", "alice.jsonl");
    await copyFile(outbox, `${outbox}.copy`);
    await rename(`${outbox}.copy`, outbox); // same bytes, new inode: the leader reads it from byte 0
    await team.run("SECOND");
    await team.model.waitForCall((c) => c.agent === "leader" && c.lastUser.includes("SECOND-REPORT") && c.lastUser.includes("<teammate-report"), 30_000);
    await team.run("after the second report");

    expect(reportTurns(team, "FIRST-REPORT")).toHaveLength(1);
    expect(reportTurns(team, "SECOND-REPORT")).toHaveLength(1);
  }, 120_000);

  it("an oversized kickoff, steer and queued message get the same clear error and send nothing", async () => {
    const huge = "x".repeat(MESSAGE_MAX_BYTES + 100);
    const held: (() => void)[] = [];
    team = await startTeam({
      agents: AGENTS,
      scripts: {
        leader: leaderCommands({
          SPAWN: [spawnCall("idle", "worker"), spawnCall("busy", "worker", "WORK")],
          KICKOFF: [spawnCall("carol", "worker", huge)],
          STEER: [sendCall("busy", huge)],
          QUEUE: [sendCall("idle", huge)],
        }),
        busy: (c) => (c.lastUser.includes("WORK") && c.toolResults.length === 0 ? new Promise<Reply>((resolve) => held.push(() => resolve({ text: "ok" }))) : { text: "ok" }),
      },
    });
    try {
      await team.run("SPAWN");
      await waitStatus(team.runtimeDir, "idle", "idle", 30_000);
      await waitStatus(team.runtimeDir, "busy", "working", 30_000);
      for (const prompt of ["KICKOFF", "STEER", "QUEUE"]) await team.run(prompt);
      const ends = team.toolEnds().filter((t) => (t.args.prompt ?? t.args.message) === huge);
      expect(ends.map((t) => t.toolName)).toEqual(["teammate_spawn", "send_message", "send_message"]);
      const limit = `every message may be at most ${MESSAGE_MAX_BYTES} bytes (48 KiB). Nothing was sent`;
      for (const t of ends) {
        expect(t.isError, t.text).toBe(true);
        expect(t.text).toContain(`is ${MESSAGE_MAX_BYTES + 102} bytes (as JSON, UTF-8)`);
        expect(t.text).toContain(limit);
      }
      expect(team.model.calls.some((c) => c.agent !== "leader" && c.lastUser.includes(huge.slice(0, 1000)))).toBe(false);
    } finally {
      held.splice(0).forEach((answer) => answer());
    }
  }, 120_000);
});
