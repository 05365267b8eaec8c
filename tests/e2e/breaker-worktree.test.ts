/**
 * Breaker e2e on the real pi CLI: a worktree teammate crashes and the leader at once spawns its
 * successor with handoffFrom (its own name), while the crashed one's worktree is still being
 * captured.
 */
import { execFileSync } from "node:child_process";
import { readdir } from "node:fs/promises";
import { afterEach, expect, it } from "vitest";
import { agentFile } from "../support/leader.ts";
import { spawnCall, startTeam, waitUntil, type AgentScript, type Team } from "../support/team.ts";

let team: Team | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
});

const crashed = (c: { lastUser: string }) => c.lastUser.includes('<harness-event type="teammate_crashed"');

// Found by the breaker: a crashed teammate stopped counting as living once its close was handled,
// but its worktree was captured (and `m.kept` set) only afterwards. A same-name respawn in that
// window passed the name check, its prepareWorktree reclaimed the same worktree while the harness
// captured it, the two `git add -A` collided, and the successor's handoff had no branch. A spawn
// now waits for a stopped incarnation of its name (and its handoff predecessor) to finish closing.
it("a successor spawned right after a crash continues the crashed teammate's kept branch", async () => {
  let respawned = false;
  const leader: AgentScript = (c) => {
    if (c.toolResults.length > 0) return { text: "Noted." };
    if (c.lastUser === "S") return { toolCalls: [spawnCall("alice", "builder", "ASSIGN build it")] };
    if (crashed(c) && !respawned) {
      respawned = true;
      return { toolCalls: [{ name: "teammate_spawn", arguments: { name: "alice", agent: "builder", handoffFrom: "alice" } }] };
    }
    return { text: "Noted." };
  };
  let first = true;
  const alice: AgentScript = (c) => {
    if (first && c.toolResults.length === 0) {
      first = false;
      // Enough files that the capture takes a moment (a real project is much bigger).
      return { toolCalls: [{ name: "bash", arguments: { command: "mkdir -p out && for i in $(seq 1 2000); do echo work-$i > out/f$i.txt; done && echo done" } }] };
    }
    return { text: "working" };
  };
  team = await startTeam({
    agents: { "builder.md": agentFile("builder", "You build.", { tools: "bash,read", worktree: "true" }) },
    scripts: { leader, alice },
  });
  await team.run("S", 60_000);
  const spawned = team.toolEnds("teammate_spawn")[0]!;
  expect(spawned.isError).toBe(false);
  const pid = spawned.details.pid as number;
  const wt = spawned.details.worktree as { dir: string; branch: string };
  await waitUntil("alice's files", async () => (await readdir(`${wt.dir}/out`).catch(() => [])).length >= 2000, 60_000);
  await waitUntil("alice idle", () => team!.model.callsOf("alice").some((c) => c.toolResults.length > 0), 30_000);
  process.kill(pid, "SIGKILL");
  const ends = await team.waitToolEnds("teammate_spawn", 2, 60_000);
  const second = ends[1]!;
  expect(second.isError).toBe(false);
  const events = () => team!.leader.customMessages().map((m) => m.content);
  await waitUntil("the crashed worktree's capture to end", () => events().some((t) => /type="worktree_(kept|capture_failed)"/.test(t)), 30_000);
  // Observed: the reclaim of the successor's prepare committed the work onto the old branch...
  const branches = execFileSync("git", ["branch", "--list", "--format=%(refname:short)"], { cwd: team.env.cwd, encoding: "utf8" });
  expect(branches).toContain(wt.branch);
  // ...while the harness's own capture raced it and told the leader it failed, "left in place".
  expect(events().filter((t) => t.includes('type="worktree_capture_failed"'))).toEqual([]);
  const handoff = () => team!.model.callsOf("alice").find((c) => c.lastUser.includes("You take over from @alice"));
  await waitUntil("the successor's first model call", () => handoff() !== undefined, 30_000);
  const kickoff = handoff();
  expect(kickoff?.lastUser).toContain(`Its work is kept on branch ${wt.branch}`);
  const next = second.details.worktree as { dir: string };
  expect((await readdir(`${next.dir}/out`).catch(() => [])).length).toBe(2000);
});
