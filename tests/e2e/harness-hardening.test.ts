import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { agentFile, startLeader, type Leader } from "../support/leader.ts";
import { callText, leaderCommands, sendCall, spawnCall, startTeam, waitStatus, waitUntil, type Team } from "../support/team.ts";

const AGENTS = { "worker.md": agentFile("worker", "ROLE", { tools: "read" }) };
let team: Team | undefined;
let extra: Leader | undefined;
afterEach(async () => {
  await extra?.stop();
  extra = undefined;
  await team?.stop();
  team = undefined;
});

const harnessEvents = (t: Team, type: string) => t.model.callsOf("leader").filter((c) => c.lastUser.includes(`<harness-event type="${type}"`));

it("a mailbox the leader cannot read is noted and skipped; the leader's session survives", async () => {
  team = await startTeam({
    agents: AGENTS,
    scripts: { leader: leaderCommands({ S: [spawnCall("alice", "worker")], M: [sendCall("alice", "STILL-ALIVE")] }) },
  });
  await team.run("S");
  const outbox = join(team.runtimeDir, "outbox", "alice.jsonl");
  await rm(outbox, { force: true });
  await mkdir(outbox); // reading it fails with EISDIR, not ENOENT
  await mkdir(join(team.runtimeDir, "outbox", "probe.jsonl")); // a change event in the folder triggers a read
  await team.run("M"); // the leader still answers and routes
  expect(team.leader.proc.running).toBe(true);
  expect(team.toolEnds("send_message").at(-1)?.text).toMatch(/^(queued|steered)/);
});

it("a respawn under another letter case keeps both mail directions working", async () => {
  team = await startTeam({
    agents: AGENTS,
    scripts: {
      leader: leaderCommands({
        S1: [spawnCall("Bob", "worker", "ASSIGN one")],
        SD: [{ name: "teammate_shutdown", arguments: { name: "Bob" } }],
        S2: [spawnCall("bob", "worker")],
        Q: [sendCall("bob", "QUEUED-FROM-LEADER")],
      }),
      Bob: (c) => (c.toolResults.length === 0 ? { toolCalls: [sendCall("leader", "REPORT-Bob", "completed")] } : { text: "ok" }),
      bob: (c) => (c.toolResults.length === 0 ? { toolCalls: [sendCall("leader", "REPORT-bob", "completed")] } : { text: "ok" }),
    },
  });
  await team.run("S1");
  await team.model.waitForCall((c) => c.agent === "leader" && c.lastUser.includes("REPORT-Bob"));
  await team.run("SD");
  await team.run("S2");
  await waitStatus(team.runtimeDir, "bob", "idle");
  await team.run("Q");
  const woken = await team.model.waitForCall((c) => c.agent === "bob" && callText(c).includes("QUEUED-FROM-LEADER"));
  expect(woken).toBeDefined();
  await team.model.waitForCall((c) => c.agent === "leader" && c.lastUser.includes("REPORT-bob"));
});

it("a second leader on the same session is refused; the first keeps its runtime dir", async () => {
  team = await startTeam({ agents: AGENTS, scripts: { leader: leaderCommands({ S: [spawnCall("alice", "worker")] }) } });
  await team.run("S");
  extra = await startLeader(team.env);
  const t = team;
  t.script("leader", (c) => {
    if (c.lastUser === "S2" && c.toolResults.length === 0) return { toolCalls: [spawnCall("carol", "worker")] };
    return leaderCommands({ S: [spawnCall("alice", "worker")] })(c);
  });
  await extra.prompt("S2");
  const refused = await t.model.waitForCall((c) => c.agent === "leader" && c.toolResults.some((r) => r.content.includes("Another leader")));
  expect(refused.toolResults[0]!.content).toContain(`pid ${t.leader.pid}`);
  await extra.stop();
  extra = undefined;
  // The refused leader's exit did not delete the first leader's state.
  await waitStatus(t.runtimeDir, "alice", "idle");
});

it("an assignment run that ends on a model error reaches the leader as one harness event", async () => {
  team = await startTeam({
    agents: AGENTS,
    scripts: {
      leader: leaderCommands({ K: [spawnCall("g2", "worker", "do it")] }),
      g2: () => ({ error: "The model `no-such-id` does not exist", status: 404 }),
    },
  });
  await team.run("K");
  const t = team;
  await t.model.waitForCall((c) => c.agent === "leader" && c.lastUser.includes('<harness-event type="teammate_run_failed" teammate="g2"'));
  expect(harnessEvents(t, "teammate_run_failed")[0]!.lastUser).toContain("no-such-id");
  await waitUntil("no second event", async () => harnessEvents(t, "teammate_run_failed").length === 1);
});
