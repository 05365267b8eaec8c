/**
 * Issue 2 acceptance on the real pi CLI: spawn refusals. The 9th living teammate is refused
 * with a clear error; a broken agent file is named, with its field, in the spawn error while the
 * good definitions keep working. Every test has its own model, env and leader.
 */
import { join } from "node:path";
import { readFile } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { agentFile } from "../support/leader.ts";
import { isAlive, leaderCommands, spawnCall, startTeam, type Team } from "../support/team.ts";

let team: Team | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
});

describe("living limit", () => {
  it("refuses the 9th spawn while 8 live, even when the model asks for all nine at once", async () => {
    const names = Array.from({ length: 9 }, (_, i) => `mate${i + 1}`);
    team = await startTeam({
      agents: { "worker.md": agentFile("worker", "You are a worker.", { tools: "read" }) },
      scripts: { leader: leaderCommands({ NINE: names.map((n) => spawnCall(n, "worker")) }) },
    });
    await team.run("NINE", 90_000);
    const ends = team.toolEnds("teammate_spawn");
    expect(ends).toHaveLength(9);
    const ok = ends.filter((e) => !e.isError);
    const refused = ends.filter((e) => e.isError);
    expect(ok).toHaveLength(8);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.text).toMatch(/teammate_spawn: 8 teammates are alive \(.+\); at most 8 may live at once\. Shut one down with teammate_shutdown first\./);
    const pids = ok.map((e) => e.details.pid as number);
    expect(new Set(pids).size).toBe(8);
    expect(pids.filter(isAlive)).toHaveLength(8);
    // No teammate model calls: none had a kickoff.
    expect(team.model.calls.filter((c) => c.agent !== "leader")).toEqual([]);

    const roster = JSON.parse(await readFile(join(team.runtimeDir, "roster.json"), "utf8")) as {
      teammates: { name: string; status: string }[];
    };
    expect(roster.teammates.filter((t) => t.status !== "stopped")).toHaveLength(8);

    // And asked again later, alone, the 9th is still refused.
    team.script("leader", leaderCommands({ AGAIN: [spawnCall("late", "worker")] }));
    await team.run("AGAIN");
    const again = team.toolEnds("teammate_spawn").at(-1)!;
    expect(again.isError).toBe(true);
    expect(again.text).toContain("at most 8 may live at once");
  });
});

describe("names", () => {
  it("two spawns of one name (case-insensitive) in one reply: exactly one starts", async () => {
    team = await startTeam({
      agents: { "worker.md": agentFile("worker", "You are a worker.") },
      scripts: { leader: leaderCommands({ TWINS: [spawnCall("alice", "worker"), spawnCall("Alice", "worker")] }) },
    });
    await team.run("TWINS");
    const ends = team.toolEnds("teammate_spawn");
    expect(ends).toHaveLength(2);
    expect(ends.filter((e) => !e.isError)).toHaveLength(1);
    const refused = ends.find((e) => e.isError)!;
    expect(refused.text).toMatch(/^teammate_spawn: .*alice/i);
    expect(team.pids.size).toBe(1);
  });
});

describe("broken agent files", () => {
  it("spawning from a broken file errors naming the file and the field; good files still spawn", async () => {
    team = await startTeam({
      agents: {
        "worker.md": agentFile("worker", "You are a worker."),
        "flaky.md": agentFile("flaky", "Broken worktree.", { worktree: '"yes"' }),
        "badmodel.md": agentFile("badmodel", "Broken model.", { model: "not a model" }),
      },
      scripts: {
        leader: leaderCommands({
          SPAWN: [spawnCall("ann", "flaky"), spawnCall("ben", "badmodel"), spawnCall("cat", "worker")],
        }),
      },
    });
    await team.run("SPAWN");
    const byName = (n: string) => team!.toolEnds("teammate_spawn").find((e) => e.args.name === n);
    const agentsDir = join(team.env.cwd, ".pi", "agents");

    const flaky = byName("ann")!;
    expect(flaky.isError).toBe(true);
    expect(flaky.text).toContain(join(agentsDir, "flaky.md"));
    expect(flaky.text).toContain('field "worktree"');
    expect(flaky.text).toContain('"yes"');

    const badModel = byName("ben")!;
    expect(badModel.isError).toBe(true);
    expect(badModel.text).toContain(join(agentsDir, "badmodel.md"));
    expect(badModel.text).toContain('field "model"');

    const cat = byName("cat");
    expect(cat).toMatchObject({ isError: false, details: { agent: "worker", status: "idle" } });
    // The error reaches the leader's model as the tool result it answers.
    const answered = team.model.callsOf("leader")[1]!;
    expect(answered.toolResults.map((r) => r.content).join("\n")).toContain('field "worktree"');
  });
});
