/**
 * Session boundaries on the real pi CLI (issue 6, item 7; W17, L29, R57, R59): `/new` (RPC
 * `new_session`) leaves no teammate alive and a working team in the new session; resuming a
 * session file (RPC `switch_session`) finds its board again; `/reload` (a test command calling
 * `ctx.reload()`, the same `AgentSession.reload()` the TUI's `/reload` runs) stops every teammate
 * and says so to the user and in the leader's next turn; a starting leader sweeps the runtime
 * dirs of leaders that are gone, into its harness log only.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { stopNoticePath } from "../../src/leader/session-boundary.ts";
import { sessionKey } from "../../src/store/layout.ts";
import { agentFile } from "../support/leader.ts";
import {
  cmd,
  create,
  holderName,
  isAlive,
  leaderCommands,
  listCall,
  send,
  spawnIdle,
  startBoardTeam,
  taskOf,
  boardWorker,
  until,
  type BoardTeam,
} from "../support/board.ts";
import { contentText } from "../support/scripted-model.ts";
import { callText, readRoster, waitGone } from "../support/team.ts";

const AGENTS = { "worker.md": agentFile("worker", "You are a worker.", { tools: "read" }) };
const RELOAD_EXTENSION = fileURLToPath(new URL("../fixtures/reload-command.ts", import.meta.url));

let team: BoardTeam | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
});

/** The pid a successful teammate_spawn of `name` returned (the latest one). */
function spawnedPid(t: BoardTeam, name: string): number {
  const end = t.toolEnds("teammate_spawn").filter((e) => e.details.name === name).at(-1);
  expect(end, `teammate_spawn of ${name}`).toMatchObject({ isError: false });
  return end!.details.pid as number;
}

/** Texts of the leader's `notify` UI requests so far. */
function notices(t: BoardTeam): string[] {
  return t.leader.proc.child.uiRequests.flatMap((r) => (r.request.method === "notify" ? [r.request.message] : []));
}

const sessionFileOf = async (t: BoardTeam): Promise<string> => {
  const file = (await t.leader.proc.child.getState()).sessionFile;
  expect(file).toBeTruthy();
  return file!;
};

describe("/new", () => {
  it("stops every teammate, tells the user, and the new session's team works", async () => {
    team = await startBoardTeam({
      agents: AGENTS,
      args: (env) => ["--session-dir", join(env.root, "sessions")],
      scripts: { leader: leaderCommands({ SPAWN: [spawnIdle("alice")], SPAWN2: [spawnIdle("bob")] }) },
    });
    const { env, model } = team;
    await team.run("SPAWN");
    const alice = spawnedPid(team, "alice");
    expect(isAlive(alice)).toBe(true);
    const file1 = await sessionFileOf(team);
    const runtime1 = join(env.agentDir, "teammate", sessionKey(file1, env.cwd));
    expect(existsSync(runtime1)).toBe(true);

    expect(await team.leader.proc.child.send({ type: "new_session" })).toEqual({ cancelled: false });
    // Pi awaits session_shutdown before it answers, and the shutdown waits for the child's close.
    expect(isAlive(alice)).toBe(false);
    expect(existsSync(runtime1)).toBe(false);
    const file2 = await sessionFileOf(team);
    expect(file2).not.toBe(file1);
    expect(notices(team)).toContain("pi-resident-teams: /new stopped 1 teammate: @alice of the previous session. Teammates belong to the session that spawned them.");
    expect(existsSync(stopNoticePath(env.agentDir, team.leader.pid))).toBe(false);

    await team.run("SPAWN2");
    const bob = spawnedPid(team, "bob");
    expect(isAlive(bob)).toBe(true);
    const runtime2 = join(env.agentDir, "teammate", sessionKey(file2, env.cwd));
    expect((await readRoster(runtime2))?.teammates.map((t) => t.name)).toEqual(["bob"]);
    // Nothing of the old session reached the new session's model (L29).
    const [fresh] = model.callsOf("leader").filter((c) => c.lastUser === "SPAWN2");
    expect(callText(fresh!)).not.toMatch(/alice|teammates_stopped/);
  });
});

describe("/fork", () => {
  it("a clone (Pi's fork at the current entry) stops every teammate and the forked session's team works", async () => {
    team = await startBoardTeam({
      agents: AGENTS,
      args: (env) => ["--session-dir", join(env.root, "sessions")],
      scripts: { leader: leaderCommands({ SPAWN: [spawnIdle("alice")] }) },
    });
    await team.run("SPAWN");
    const alice = spawnedPid(team, "alice");
    const file1 = await sessionFileOf(team);

    expect(await team.leader.proc.child.send({ type: "clone" })).toEqual({ cancelled: false });
    expect(isAlive(alice)).toBe(false);
    expect(await sessionFileOf(team)).not.toBe(file1);
    expect(notices(team)).toContain("pi-resident-teams: /fork stopped 1 teammate: @alice of the previous session. Teammates belong to the session that spawned them.");

    // The fork carries the conversation (the model saw "SPAWN" before), yet a new alice can start.
    await team.run("SPAWN");
    const again = spawnedPid(team, "alice");
    expect(again).not.toBe(alice);
    expect(isAlive(again)).toBe(true);
  });
});

describe("resume", () => {
  it("switching back to a session file reuses its board; the claim of the stopped teammate is pending again (restoring off)", async () => {
    team = await startBoardTeam({
      agents: AGENTS,
      args: (env) => ["--session-dir", join(env.root, "sessions")],
      extraEnv: { PI_TEAMMATE_RESTORE: "off" },
      scripts: {
        leader: leaderCommands({
          SPAWN: [spawnIdle("alice")],
          CREATE: [create({ subject: "Resume me", resources: ["one"] })],
          CLAIM: [send("alice", cmd("claim", "resume-me"))],
          LIST: [listCall],
        }),
        alice: boardWorker(),
      },
    });
    const { env } = team;
    await team.run("SPAWN");
    const alice = spawnedPid(team, "alice");
    const file1 = await sessionFileOf(team);
    team.boardDir = join(env.agentDir, "tasks", sessionKey(file1, env.cwd));
    await team.run("CREATE");
    await team.run("CLAIM");
    await team.waitBoard((f) => holderName(taskOf(f, "resume-me")) === "alice");

    expect(await team.leader.proc.child.send({ type: "new_session" })).toEqual({ cancelled: false });
    expect(isAlive(alice)).toBe(false);
    expect(await sessionFileOf(team)).not.toBe(file1);

    expect(await team.leader.proc.child.send({ type: "switch_session", sessionPath: file1 })).toEqual({ cancelled: false });
    expect(await sessionFileOf(team)).toBe(file1);
    await team.run("LIST");
    const list = team.toolEnds("task_list").at(-1)!;
    expect(list.isError).toBe(false);
    expect(list.text).toContain(`Board ${sessionKey(file1, env.cwd)}`);
    expect(list.text).toMatch(/- `resume-me` \[pending\] Resume me · no teammate can take it: none is alive · last error: @alice was shut down while holding this task/);
    expect(list.text).toContain("Roster: no teammates.");
    expect(notices(team).join("\n")).not.toContain("board.json"); // the board it wrote is trusted (issue 18)
  });
});

describe("/reload with restoring off (PI_TEAMMATE_RESTORE=off)", () => {
  it("stops every teammate, tells the user and the leader's next turn, and the reloaded team works", async () => {
    team = await startBoardTeam({
      agents: AGENTS,
      args: () => ["--no-session", "-e", RELOAD_EXTENSION],
      extraEnv: { PI_TEAMMATE_RESTORE: "off" },
      scripts: { leader: leaderCommands({ SPAWN: [spawnIdle("alice"), spawnIdle("bob")], AGAIN: [spawnIdle("alice")] }) },
    });
    const { env, model } = team;
    await team.run("SPAWN");
    const before = [spawnedPid(team, "alice"), spawnedPid(team, "bob")];
    expect(before.every(isAlive)).toBe(true);

    // The command's prompt is answered once the handler (the whole reload) has finished.
    expect(await team.leader.proc.child.prompt("/test-reload", { streamingBehavior: "followUp" })).toEqual({ disposition: "handled" });
    expect((await waitGone(before, 0)).alive).toEqual([]);
    expect(notices(team)).toContain(
      "pi-resident-teams: /reload stopped 2 teammates: @alice, @bob. A running teammate cannot be handed over to the reloaded extension, so it was shut down; tasks it held are pending again. Ask for them again (teammate_spawn) if still needed.",
    );
    expect(existsSync(stopNoticePath(env.agentDir, team.leader.pid))).toBe(false);

    // The leader's model hears of it with its next prompt (nextTurn: no turn of its own, the
    // message follows the user's text in that request).
    const calls = model.callsOf("leader").length;
    await team.run("PING");
    const next = model.callsOf("leader")[calls]!;
    expect(next.messages.some((m) => m.role === "user" && contentText(m.content ?? null) === "PING")).toBe(true);
    expect(next.lastUser).toContain('<harness-event type="teammates_stopped" teammate="alice,bob">');
    expect(next.lastUser).toContain("shut down every teammate: @alice, @bob");
    expect(model.callsOf("leader").slice(0, calls).some((c) => callText(c).includes("teammates_stopped"))).toBe(false);
    await team.run("AGAIN");
    const again = spawnedPid(team, "alice");
    expect(before).not.toContain(again);
    expect(isAlive(again)).toBe(true);
    expect((await readRoster(team.runtimeDir))?.teammates.map((t) => `${t.name}:${t.status}`)).toEqual(["alice:idle"]);
  });
});

describe("sweep at leader start", () => {
  it("removes the runtime dir of a gone leader, keeps a living one's, and reports it in the harness log only", async () => {
    const GONE = "aaaaaaaaaaaaaaaa";
    const LIVING = "bbbbbbbbbbbbbbbb";
    const deadPid = 999_999_999; // above any pid_max: no such process
    team = await startBoardTeam({
      agents: AGENTS,
      before: async ({ env }) => {
        for (const [key, pid] of [[GONE, deadPid], [LIVING, process.pid]] as const) {
          const dir = join(env.agentDir, "teammate", key);
          await mkdir(join(dir, "outbox"), { recursive: true });
          await writeFile(join(dir, "leader.lock"), String(pid));
          await writeFile(join(dir, "outbox", "alice.jsonl"), "");
        }
      },
    });
    const { env } = team;
    const log = join(team.runtimeDir, "logs", "harness.log");
    await until("the sweep note", async () => ((await readFile(log, "utf8").catch(() => "")).includes("swept") ? true : undefined));
    const text = await readFile(log, "utf8");
    expect(text).toMatch(new RegExp(`^\\S+ swept teammate/${GONE}: its leader \\(pid ${deadPid}\\) is gone$`, "m"));
    expect(text).not.toContain(LIVING);
    expect(existsSync(join(env.agentDir, "teammate", GONE))).toBe(false);
    expect(existsSync(join(env.agentDir, "teammate", LIVING, "outbox", "alice.jsonl"))).toBe(true);
    // Not on the terminal: neither the leader's stderr nor a notification.
    expect(await readFile(join(env.root, "leader.log"), "utf8")).not.toContain("swept");
    expect(notices(team).join("\n")).not.toContain("swept");
  });
});
