/**
 * Issue 10 on the real pi CLI: teammates started by a launcher, whose records travel on their own
 * RPC pipe (the stream transport). A `bwrap` teammate cannot write outside its tree, yet reports,
 * mails a local peer and works a board task. An `ssh:127.0.0.1` teammate (a throwaway sshd on a
 * free port) reports, takes a steer, claims a task, and a SIGKILL of its remote pi gives one
 * diagnostic and returns the task to pending. Both are spawned without a kickoff (a direct
 * assignment would keep them from claiming): the board's notice of the task wakes them. Each
 * skips, saying why, where its engine cannot run.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BWRAP_WORKS } from "../support/bwrap.ts";
import { sessionKey } from "../../src/store/layout.ts";
import { agentFile } from "../support/leader.ts";
import type { ModelCall, Reply } from "../support/scripted-model.ts";
import { HAS_SSHD, startSshd, type TestSshd } from "../support/sshd.ts";
import { callText, leaderCommands, sendCall, spawnCall, startTeam, waitUntil, type Team } from "../support/team.ts";

if (!HAS_SSHD) console.warn("sshd or ssh-keygen is missing here: the ssh launcher test is skipped.");

let team: Team | undefined;
let sshd: TestSshd | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
  await sshd?.stop();
  sshd = undefined;
});

/** Replies in order, one per model call of that agent; "done" after the last. */
function steps(list: Array<Reply | ((c: ModelCall) => Reply | Promise<Reply>)>): (c: ModelCall) => Promise<Reply> {
  let i = 0;
  return async (c) => {
    const step = list[i++];
    if (!step) return { text: "done" };
    return typeof step === "function" ? step(c) : step;
  };
}

const tool = (name: string, args: Record<string, unknown>): Reply => ({ toolCalls: [{ name, arguments: args }] });
const resultOf = (c: ModelCall | undefined): string => c?.toolResults[0]?.content ?? "";

async function taskStatus(t: Team, id: string): Promise<string | undefined> {
  const text = await readFile(join(t.env.agentDir, "tasks", sessionKey(undefined, t.env.cwd), "board.json"), "utf8").catch(() => "");
  const board = text ? (JSON.parse(text) as { tasks: Array<{ id: string; state: { status: string } }> }) : undefined;
  return board?.tasks.find((x) => x.id === id)?.state.status;
}

describe.skipIf(!BWRAP_WORKS)("launcher bwrap over the stream transport", () => {
  it("cannot write to the leader's home or the project's .git, yet reports, mails a local peer and completes a board task", async () => {
    const probe = `pi-teams-bwrap-probe-${process.pid}-${Date.now()}`;
    team = await startTeam({
      agents: {
        "boxed.md": agentFile("boxed", "You work in a box.", { tools: "bash", launcher: "bwrap" }),
        "worker.md": agentFile("worker", "You help."),
      },
      scripts: {
        leader: leaderCommands({
          TASK: [{ name: "task_create", arguments: { subject: "Boxed task" } }],
          SPAWN: [spawnCall("mate", "worker"), spawnCall("box", "boxed")],
        }),
        box: steps([
          tool("bash", { command: `touch "$HOME/${probe}"; echo "rc=$?"; mkdir -p .git/hooks && touch .git/hooks/post-checkout; echo "git=$?"; touch made-by-box; echo "project=$?"` }),
          tool("send_message", { to: "mate", message: "hello from the box" }),
          tool("task_claim", { taskId: "boxed-task" }),
          tool("task_submit", { taskId: "boxed-task", status: "completed", result: "done in the box" }),
          tool("send_message", { to: "leader", message: "box done", status: "completed" }),
        ]),
      },
    });
    const t = team;
    await t.run("TASK");
    await t.run("SPAWN", 60_000);
    const spawns = t.toolEnds("teammate_spawn");
    expect(spawns.map((s) => [s.isError, s.text.slice(0, 200)]).filter(([e]) => e)).toEqual([]);
    await waitUntil("box's terminal report to reach the leader", () => t.model.callsOf("leader").some((c) => callText(c).includes("box done")), 60_000);
    const box = t.model.callsOf("box");
    // Pi's bash tool merges stdout and stderr as they arrive, so touch's error (stderr) and the
    // echoes (stdout) come in no set order: each fact is checked on its own line.
    const probed = resultOf(box[1]);
    expect(probed).toMatch(new RegExp(`^touch: cannot touch \\S*/${probe}\\S*: Read-only file system$`, "m"));
    expect(probed).toMatch(/^rc=1$/m);
    expect(probed).toMatch(/^git=1$/m); // the project is its to change, but not its .git (hooks run outside)
    expect(probed).toMatch(/^project=0$/m);
    expect(existsSync(join(t.env.cwd, ".git", "hooks", "post-checkout"))).toBe(false);
    expect(existsSync(join(t.env.cwd, "made-by-box"))).toBe(true);
    expect(existsSync(join(homedir(), probe))).toBe(false);
    expect(resultOf(box[2])).toBe("queued: message to mate.");
    expect(resultOf(box[3])).toMatch(/^Claimed task boxed-task: Boxed task\./);
    expect(resultOf(box[4])).toBe("Task boxed-task is completed.");
    await waitUntil("mate to get the box's mail", () => t.model.callsOf("mate").some((c) => callText(c).includes("hello from the box")), 30_000);
    const mail = t.model.callsOf("mate").find((c) => callText(c).includes("hello from the box"));
    expect(callText(mail!)).toMatch(/from="box"/);
    await waitUntil("board.json to show boxed-task completed", async () => (await taskStatus(t, "boxed-task")) === "completed", 15_000);
  }, 150_000);
});

describe.skipIf(!HAS_SSHD)("launcher ssh:127.0.0.1 over the stream transport", () => {
  it("reports, takes a steer, claims a task; a SIGKILL of its remote pi gives one diagnostic and returns the task", async () => {
    sshd = await startSshd();
    let piPid = 0;
    team = await startTeam({
      agents: { "far.md": agentFile("far", "You work on another host.", { tools: "bash", launcher: "ssh:127.0.0.1" }) },
      envOptions: { settings: { piTeams: { ssh: { options: sshd.options } } } },
      scripts: {
        leader: leaderCommands({
          TASK: [{ name: "task_create", arguments: { subject: "Far task" } }],
          SPAWN: [spawnCall("far", "far")],
          STEER: [sendCall("far", "STEERED now")],
        }),
        far: steps([
          tool("send_message", { to: "leader", message: "far started" }),
          tool("bash", { command: "echo pid=$PPID; sleep 4" }),
          (c) => (callText(c).includes("STEERED now") ? tool("task_claim", { taskId: "far-task" }) : { text: "no steer seen" }),
          tool("bash", { command: "sleep 60" }),
        ]),
      },
    });
    const t = team;
    await t.run("TASK");
    await t.run("SPAWN", 60_000);
    const spawn = t.toolEnds("teammate_spawn")[0];
    expect(spawn?.isError, spawn?.text).toBe(false);
    await waitUntil("far's bash to start (its second model call answered)", () => t.model.callsOf("far").length >= 2, 30_000);
    await waitUntil("far's report to reach the leader", () => t.model.callsOf("leader").some((c) => callText(c).includes("far started")), 30_000);
    await t.run("STEER");
    await waitUntil("far's claim result", () => t.model.callsOf("far").length >= 4, 30_000);
    const far = t.model.callsOf("far");
    // The bash result sits before the steer in far's context (tool results count after the last user message).
    piPid = Number(/pid=(\d+)/.exec(callText(far[3]!))?.[1]);
    expect(callText(far[2]!)).toContain("STEERED now");
    expect(resultOf(far[3])).toMatch(/^Claimed task far-task: Far task\./);
    expect(await taskStatus(t, "far-task")).toBe("claimed");

    expect(piPid).toBeGreaterThan(1);
    process.kill(piPid, "SIGKILL"); // the pi on the "other host", not the ssh client the leader started
    const crashed = (c: ModelCall) => c.agent === "leader" && c.lastUser.includes('<harness-event type="teammate_crashed" teammate="far">');
    await t.model.waitForCall(crashed, 30_000);
    await waitUntil("far-task back to pending", async () => (await taskStatus(t, "far-task")) === "pending", 15_000);
    await t.run("TASK"); // a barrier turn: a second diagnostic would have come by now
    expect(t.model.calls.filter(crashed)).toHaveLength(1);
  }, 150_000);
});
