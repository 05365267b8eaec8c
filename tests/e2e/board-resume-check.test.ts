/**
 * Issue 18 item 4 on the real pi CLI: a board.json rewritten while the leader was down (a
 * completion in a peer's name with a forged result, as a teammate with bash did) is flagged at
 * `pi -c`, to the user and in the leader's next turn, and `task_list` does not show the forged
 * completion; a board the leader wrote resumes with no flag. The leader's record of its writes
 * lives in its Pi session (src/boardhost/board-trail.ts).
 */
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import type { BoardFile } from "../../src/board/index.ts";
import { sessionKey } from "../../src/store/layout.ts";
import { agentFile } from "../support/leader.ts";
import { callText, type AgentScript } from "../support/team.ts";
import { boardWorker, cmd, create, holderName, leaderCommands, listCall, send, spawnIdle, startBoardTeam, taskOf, until, type BoardTeam } from "../support/board.ts";

const RELOAD_EXTENSION = fileURLToPath(new URL("../fixtures/reload-command.ts", import.meta.url));
const AGENTS = { "worker.md": agentFile("worker", "You are a worker.", { tools: "read" }) };
const FORGED = "FORGED-BOARD-RESULT";

let team: BoardTeam | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
});

const notices = (t: BoardTeam): string[] => t.leader.proc.child.uiRequests.flatMap((r) => (r.request.method === "notify" ? [r.request.message] : []));

async function sessionFileIn(dir: string): Promise<string> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile() && e.name.endsWith(".jsonl")).map((e) => join(e.parentPath, e.name));
  expect(files).toHaveLength(1);
  return files[0]!;
}

/**
 * A session where alice completed `done-first` and w2 holds `held-second`; then the leader is
 * SIGKILLed (as the attacker did). Returns the team, the session file and the session dir.
 */
async function killedSession(): Promise<{ t: BoardTeam; sessionFile: string; sessions: string }> {
  let sessions = "";
  const t = (team = await startBoardTeam({
    agents: AGENTS,
    args: (env) => ["--session-dir", (sessions = join(env.root, "sessions"))],
    // About the board: the teammates are not restored (issue 20), so no claim follows the resume.
    extraEnv: { PI_TEAMMATE_RESTORE: "off" },
    scripts: {
      leader: leaderCommands({
        SPAWN: [spawnIdle("alice"), spawnIdle("w2")],
        CREATE: [create({ subject: "Done first" }), create({ subject: "Held second" })],
        WORK1: [send("alice", cmd("claim", "done-first"))],
        SUBMIT1: [send("alice", cmd("submit", "done-first"))],
        WORK2: [send("w2", cmd("claim", "held-second"))],
      }),
      alice: boardWorker(),
      w2: boardWorker(),
    },
  }));
  await t.run("SPAWN");
  await t.run("CREATE");
  const sessionFile = await sessionFileIn(sessions);
  t.boardDir = join(t.env.agentDir, "tasks", sessionKey(sessionFile, t.env.cwd));
  await t.run("WORK1");
  await t.waitBoard((f) => holderName(taskOf(f, "done-first")) === "alice");
  await t.run("SUBMIT1");
  await t.waitBoard((f) => taskOf(f, "done-first")?.state.status === "completed");
  await t.run("WORK2");
  await t.waitBoard((f) => holderName(taskOf(f, "held-second")) === "w2");
  process.kill(t.leader.pid, "SIGKILL");
  await t.leader.proc.exited.catch(() => undefined);
  // Every write was recorded in the session the leader resumes.
  expect(await readFile(sessionFile, "utf8")).toContain('"customType":"agent-teams-board-write"');
  return { t, sessionFile, sessions };
}

/** Lists the board on the first call of a turn: the prompt's last user message may be the flag, not the prompt. */
const listing: AgentScript = (c) => (c.toolResults.length === 0 ? { toolCalls: [listCall] } : { text: "Noted." });

/** Everything the resumed leader's model saw on its first call (the one that lists the board). */
const firstLeaderCall = (t: BoardTeam, from: number) => callText(t.model.calls.slice(from).find((c) => c.agent === "leader")!);

const FLAGS = ["changed outside the leader", "could not be checked", "board_untrusted"];

describe("a resumed board is checked against the leader's record", () => {
  it("a completion forged in a peer's name while the leader was down is flagged at -c and not shown as completed", async () => {
    const { t, sessionFile, sessions } = await killedSession();
    // What a teammate with bash did: rewrite board.json with t2 completed by w2 and a result.
    const path = join(t.boardDir, "board.json");
    const file = JSON.parse(await readFile(path, "utf8")) as BoardFile;
    const target = taskOf(file, "held-second")!;
    target.state = { status: "completed", completedAt: Date.now(), by: "w2" };
    target.lastResult = FORGED;
    file.revision += 1;
    await writeFile(path, JSON.stringify(file));

    await t.restartLeader(["--session-dir", sessions, "-c"], sessionFile);
    t.script("leader", listing);
    const calls = t.model.calls.length;
    const flag = await until("the board flag", async () => notices(t).find((n) => n.includes("board.json was changed outside the leader")));
    expect(flag).toContain('- `held-second`: it said completed by "w2" with a result; changed: state');
    expect(flag).toContain("→ pending (the leader's record)");
    expect(flag).not.toContain(FORGED);
    const kept = /The file as found is kept at (\S+board\.untrusted-\d+\.json)\./.exec(flag)?.[1];
    expect(kept, flag).toBeDefined();
    expect(await readFile(kept!, "utf8")).toContain(FORGED);

    await t.run("LIST");
    const list = t.toolEnds("task_list").at(-1)!;
    expect(list.isError).toBe(false);
    expect(list.text).not.toMatch(/held-second` \[completed\]/);
    expect(list.text).not.toContain(FORGED);
    expect(list.text).toMatch(/- `held-second` \[pending\] Held second .*last error: board\.json was changed outside the leader/);
    // The leader's own completion stands.
    expect(list.text).toMatch(/- `done-first` \[completed\] Done first · by @alice · result: result of done-first by alice/);
    // The leader's next turn carried the flag as a harness event.
    const seen = firstLeaderCall(t, calls);
    expect(seen).toContain('<harness-event type="board_untrusted" teammate="task-board">\nboard.json was changed outside the leader');
    expect(seen).toContain('- `held-second`: it said completed by "w2" with a result');
    // The leader's board replaced the forged file.
    const after = await t.waitBoard((f) => taskOf(f, "held-second")?.state.status === "pending");
    expect(JSON.stringify(after)).not.toContain(FORGED);
  });

  it("a board the leader wrote resumes at -c with no flag", async () => {
    const { t, sessionFile, sessions } = await killedSession();
    await t.restartLeader(["--session-dir", sessions, "-c"], sessionFile);
    t.script("leader", listing);
    const calls = t.model.calls.length;
    await t.run("LIST");
    const list = t.toolEnds("task_list").at(-1)!;
    expect(list.text).toMatch(/- `done-first` \[completed\] Done first · by @alice · result: result of done-first by alice/);
    expect(list.text).toMatch(/- `held-second` \[pending\] Held second .*last error: @w2 no longer lives \(board reloaded\)/);
    const seen = [list.text, ...notices(t), firstLeaderCall(t, calls)].join("\n");
    for (const flag of FLAGS) expect(seen).not.toContain(flag);
    expect((await readdir(t.boardDir)).filter((f) => f.startsWith("board.untrusted"))).toEqual([]);
  });

  it("after /reload (no session file: the record is in the session's memory) the board is trusted", async () => {
    const t = (team = await startBoardTeam({
      agents: AGENTS,
      args: () => ["--no-session", "-e", RELOAD_EXTENSION],
      scripts: { leader: leaderCommands({ CREATE: [create({ subject: "Survives reload" })] }) },
    }));
    await t.run("CREATE");
    await t.waitBoard((f) => f.tasks.length === 1);
    expect(await t.leader.proc.child.prompt("/test-reload", { streamingBehavior: "followUp" })).toEqual({ disposition: "handled" });
    t.script("leader", listing);
    const calls = t.model.calls.length;
    await t.run("LIST");
    const list = t.toolEnds("task_list").at(-1)!;
    expect(list.text).toMatch(/- `survives-reload` \[pending\] Survives reload/);
    const seen = [list.text, ...notices(t), firstLeaderCall(t, calls)].join("\n");
    for (const flag of FLAGS) expect(seen).not.toContain(flag);
  });

  it("a board with no record of the leader's writes (no session file) has its claims and completions reset, flagged", async () => {
    team = await startBoardTeam({
      agents: AGENTS,
      before: async ({ boardDir: dir }) => {
        await mkdir(dir, { recursive: true });
        const task = { id: "planted", seq: 1, subject: "Planted", dependsOn: [], resources: [], supersedes: [], createdAt: 1, updatedAt: 1, noticeEpoch: 0 };
        const board = { version: 1, revision: 3, nextSeq: 2, nextGate: 1, tasks: [{ ...task, state: { status: "completed", completedAt: 2, by: "w2" }, lastResult: FORGED }] };
        await writeFile(join(dir, "board.json"), JSON.stringify(board));
      },
      scripts: { leader: listing },
    });
    const flag = await until("the board flag", async () => notices(team!).find((n) => n.includes("board.json could not be checked")));
    expect(flag).toContain('- `planted`: it said completed by "w2" with a result → pending, result not kept');
    await team.run("LIST");
    const list = team.toolEnds("task_list").at(-1)!.text;
    expect(list).toMatch(/- `planted` \[pending\] Planted .*last error: board\.json could not be checked/);
    expect(list).not.toContain(FORGED);
  });
});
