/**
 * Issue 20 on the real pi CLI with the scripted model: a leader SIGKILLed with three teammates (one
 * in a worktree, one mid-assignment) is resumed with `-c`, and the same three come back idle with
 * their contexts: no model call until one is woken, then each one's next request holds a marker of
 * its first conversation, and the worktree one works on its kept branch. The leader's next turn is
 * told once who came back.
 */
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RpcEvent } from "../../src/process/index.ts";
import { agentFile, startLeader, type Leader } from "../support/leader.ts";
import { contentText, type ModelCall, type Reply } from "../support/scripted-model.ts";
import { callText, isAlive, leaderCommands, readRoster, sendCall, spawnCall, startTeam, waitGone, waitUntil, type Team } from "../support/team.ts";
import { NO_GIT_IDENTITY, readCall, writeCall } from "../support/worktree.ts";
import { sessionKey } from "../../src/store/index.ts";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";

const AGENTS = {
  "worker.md": agentFile("worker", "You are a worker.", { tools: "read, bash" }),
  "builder.md": agentFile("builder", "You are a builder.", { tools: "read, write, bash", worktree: "true" }),
};
const MARK = { ann: "ANN-MARK-HERON", bob: "BOB-MARK-QUARTZ", cal: "CAL-MARK-MAPLE" };
const WAKE = "WAKE-UP-AFTER-RESUME";

/** Answers by the last user message (its marker) and the turn within it, so a restored context's old turns do not shift the script. */
function byPrompt(plan: Record<string, Reply[]>): (c: ModelCall) => Reply {
  return (c) => {
    const at = c.messages.findLastIndex((m) => m.role === "user");
    const turn = c.messages.slice(at + 1).filter((m) => m.role === "assistant").length;
    const key = Object.keys(plan).find((k) => c.lastUser.includes(k));
    return (key ? plan[key]![turn] : undefined) ?? { text: "done" };
  };
}

async function sessionFile(dir: string): Promise<string> {
  const files = (await readdir(dir, { recursive: true })).filter((n) => String(n).endsWith(".jsonl"));
  expect(files).toHaveLength(1);
  return join(dir, String(files[0]));
}

let team: Team | undefined;
let next: Leader | undefined;
const cleanup: string[] = [];
afterEach(async () => {
  const [leader, t] = [next, team];
  next = undefined;
  team = undefined;
  await leader?.stop().catch(() => undefined); // the second leader first: the team's stop ends the model
  await t?.stop();
  await Promise.all(cleanup.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe("a team that survives the leader (issue 20)", () => {
  it("a SIGKILLed leader resumed with -c brings back its three teammates idle, with their contexts, at no model cost until woken", async () => {
    const sessions = await mkdtemp(join(tmpdir(), "prt-leader-sessions-"));
    cleanup.push(sessions);
    team = await startTeam({
      agents: AGENTS,
      leaderEnv: NO_GIT_IDENTITY,
      leaderArgs: ["--session-dir", sessions, "--session-id", randomUUID()],
      scripts: {
        leader: leaderCommands({
          GO: [spawnCall("ann", "worker", `Report at once. ${MARK.ann}`), spawnCall("bob", "worker", `Work long. ${MARK.bob}`), spawnCall("cal", "builder", `Write c.txt. ${MARK.cal}`)],
          WAKE: ["ann", "bob", "cal"].map((n) => sendCall(n, WAKE)),
        }),
        ann: byPrompt({ [MARK.ann]: [{ toolCalls: [sendCall("leader", "ANN-DONE", "completed")] }], [WAKE]: [{ toolCalls: [sendCall("leader", "ANN-AWAKE", "completed")] }] }),
        bob: byPrompt({ [MARK.bob]: [{ toolCalls: [{ name: "bash", arguments: { command: "sleep 600" } }] }], [WAKE]: [{ toolCalls: [sendCall("leader", "BOB-AWAKE", "completed")] }] }),
        cal: byPrompt({
          [MARK.cal]: [{ toolCalls: [writeCall("c.txt", "CAL-WORK\n")] }, { toolCalls: [sendCall("leader", "CAL-DONE", "completed")] }],
          [WAKE]: [{ toolCalls: [readCall("c.txt")] }, { toolCalls: [sendCall("leader", "CAL-AWAKE", "completed")] }],
        }),
      },
    });
    const t = team;
    const reports = (l: Pick<Leader, "customMessages">) => l.customMessages("teammate-report").map((m) => m.content);
    await t.run("GO", 60_000);
    await waitUntil("ann's and cal's reports, bob working", () => reports(t.leader).some((r) => r.includes("ANN-DONE")) && reports(t.leader).some((r) => r.includes("CAL-DONE")) && t.model.callsOf("bob").length >= 1, 30_000);
    const spawns = new Map(t.toolEnds("teammate_spawn").map((e) => [String(e.details.name), e.details]));
    const calBranch = String((spawns.get("cal")!.worktree as { branch: string }).branch);

    // The leader and its teammates die at once: no stop, no capture, nothing written at the end.
    const pids = [t.leader.pid, ...[...spawns.values()].map((d) => Number(d.pid))];
    for (const pid of pids) if (isAlive(pid)) process.kill(pid, "SIGKILL");
    expect((await waitGone(pids, 10_000)).alive).toEqual([]);
    const file = await sessionFile(sessions);
    const callsBefore = t.model.calls.length;

    next = await startLeader(t.env, { extraEnv: NO_GIT_IDENTITY, args: ["--session-dir", sessions, "-c"] });
    const leader = next;
    const runtimeDir = join(t.env.agentDir, "teammate", sessionKey(file, t.env.cwd));
    await waitUntil("ann, bob and cal idle again", async () => {
      const roster = await readRoster(runtimeDir);
      const idle = roster?.teammates.filter((m) => m.status === "idle").map((m) => m.name).sort();
      return JSON.stringify(idle) === JSON.stringify(["ann", "bob", "cal"]);
    }, 60_000);
    for (const m of (await readRoster(runtimeDir))!.teammates) if (m.pid) t.pids.add(m.pid);

    // A barrier: one leader run (its cal worktree_kept turn, or this prompt) and still no teammate call.
    await runOn(leader, "PING");
    const teammateCalls = t.model.calls.slice(callsBefore).filter((c) => c.agent !== "leader");
    expect(teammateCalls, "a restored team makes no model call until woken").toEqual([]);
    // The restore's message rides with the next prompt, after the user's text.
    const ping = t.model.calls.slice(callsBefore).find((c) => c.agent === "leader" && c.messages.some((m) => m.role === "user" && contentText(m.content ?? null) === "PING"));
    expect(ping, "the leader's PING request").toBeDefined();
    const told = callText(ping!);
    expect(told).toContain("teammates_restored");
    for (const name of ["ann", "bob", "cal"]) expect(told).toContain(`@${name} (agent`);
    expect(told).toContain("its context is back");
    expect(told).toContain("its worktree is on branch");

    await runOn(leader, "WAKE");
    await waitUntil("three answers to the wake", () => ["ANN-AWAKE", "BOB-AWAKE", "CAL-AWAKE"].every((w) => reports(leader).some((r) => r.includes(w))), 60_000);
    for (const name of ["ann", "bob", "cal"] as const) {
      const woken = t.model.calls.slice(callsBefore).filter((c) => c.agent === name);
      expect(woken.length, `${name}'s calls after the resume`).toBeGreaterThanOrEqual(1);
      expect(woken[0]!.lastUser).toContain(WAKE);
      expect(callText(woken[0]!), `${name}'s first request after the resume holds its first conversation`).toContain(MARK[name]);
    }
    // Cal's new worktree started from its kept branch: the file it wrote before the kill is there.
    const calRead = t.model.calls.slice(callsBefore).filter((c) => c.agent === "cal")[1];
    expect(calRead?.toolResults[0]?.content).toContain("CAL-WORK");
    expect(calBranch).toMatch(/^pi-team\/cal-/);
  }, 180_000);
});

/** Sends `prompt` to `leader` and waits for the run it starts to settle. */
async function runOn(leader: Leader, prompt: string): Promise<void> {
  const from = leader.events.length;
  await leader.prompt(prompt);
  const isPrompt = (e: RpcEvent): boolean => e.type === "message_end" && JSON.stringify(e.message).includes(prompt);
  const at = leader.events.indexOf(await leader.waitForEvent((e, i) => i >= from && isPrompt(e), 30_000));
  await leader.waitForEvent((e, i) => i > at && e.type === "agent_settled", 60_000);
}
