/**
 * Issue 3 acceptance (g) and the corrupt-board rule on the real pi CLI: a leader restarted on
 * the same session file finds its board again (the session key derives from the session file
 * path); a board.json that cannot be parsed is moved aside and reported, never overwritten.
 */
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseBoardFile } from "../../src/board/index.ts";
import { sessionKey } from "../../src/store/layout.ts";
import { agentFile } from "../support/leader.ts";
import {
  cmd,
  create,
  holderName,
  leaderCommands,
  listCall,
  send,
  spawnIdle,
  startBoardTeam,
  taskOf,
  boardWorker,
  type BoardTeam,
} from "../support/board.ts";

const AGENTS = { "worker.md": agentFile("worker", "You are a worker.", { tools: "read" }) };

let team: BoardTeam | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
});

/** The one `*.jsonl` session file under `dir` (searched recursively). */
async function sessionFileIn(dir: string): Promise<string> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile() && e.name.endsWith(".jsonl")).map((e) => join(e.parentPath, e.name));
  expect(files).toHaveLength(1);
  return files[0]!;
}

describe("board persistence", () => {
  it("a leader restarted on the same session restores the board (claims of gone teammates return to pending)", async () => {
    const id = randomUUID();
    let sessionDir = "";
    const args = (root: string) => ["--session-dir", (sessionDir = join(root, "sessions")), "--session-id", id];
    team = await startBoardTeam({
      agents: AGENTS,
      args: (env) => args(env.root),
      // This test is about the board: with restoring off (issue 20) alice does not come back.
      extraEnv: { PI_TEAMMATE_RESTORE: "off" },
      scripts: {
        leader: leaderCommands({
          SPAWN: [spawnIdle("alice")],
          CREATE: [
            create({ subject: "Persist first", resources: ["one"] }),
            create({ subject: "Persist second", resources: ["two"] }),
            create({ subject: "Persist third", dependsOn: ["persist-second"] }),
          ],
          CLAIM1: [send("alice", cmd("claim", "persist-first"))],
          SUBMIT1: [send("alice", cmd("submit", "persist-first"))],
          CLAIM2: [send("alice", cmd("claim", "persist-second"))],
          LIST: [listCall],
        }),
        alice: boardWorker(),
      },
    });
    await team.run("SPAWN");
    await team.run("CREATE");
    // The first leader's board lives under the key of its session file.
    const file1 = await sessionFileIn(sessionDir);
    const boardDir = join(team.env.agentDir, "tasks", sessionKey(file1, team.env.cwd));
    team.boardDir = boardDir;
    await team.waitBoard((f) => f.tasks.length === 3);
    await team.run("CLAIM1");
    await team.waitBoard((f) => holderName(taskOf(f, "persist-first")) === "alice");
    await team.run("SUBMIT1");
    await team.waitBoard((f) => taskOf(f, "persist-first")?.state.status === "completed");
    await team.run("CLAIM2");
    const before = await team.waitBoard((f) => holderName(taskOf(f, "persist-second")) === "alice");

    await team.restartLeader(args(team.env.root), file1, async () => {
      // The stopped leader released alice's claim on shutdown (R21) and wrote its last snapshot.
      const stopped = (await team!.readBoard())!;
      expect(taskOf(stopped, "persist-second")).toMatchObject({ state: { status: "pending" }, lastError: "@alice was shut down while holding this task" });
      expect(taskOf(stopped, "persist-first")!.state.status).toBe("completed");
    });
    expect(await sessionFileIn(sessionDir)).toBe(file1);
    expect(team.boardDir).toBe(boardDir);

    await team.run("LIST");
    const [list] = team.toolEnds("task_list");
    expect(list!.isError).toBe(false);
    expect(list!.text).toContain(`Board ${sessionKey(file1, team.env.cwd)}`);
    expect(list!.text).toContain("3 tasks");
    expect(list!.text).toMatch(/- `persist-first` \[completed\] Persist first · by @alice/);
    // alice went away with the first leader: her claim returned to the board.
    expect(list!.text).toMatch(/- `persist-second` \[pending\] Persist second · no teammate can take it: none is alive · last error: @alice was shut down while holding this task/);
    expect(list!.text).toMatch(/- `persist-third` \[pending\] Persist third · waits for `persist-second`/);
    expect(list!.text).toContain("Roster: no teammates.");

    const after = await team.waitBoard((f) => taskOf(f, "persist-second")?.state.status === "pending");
    expect(after.revision).toBeGreaterThanOrEqual(before.revision);
    expect(after.tasks.map((t) => t.id)).toEqual(before.tasks.map((t) => t.id));
  });

  it("a corrupt board.json is moved aside and reported, never overwritten", async () => {
    const GARBAGE = '{"version": 1, "tasks": [ this is not json';
    team = await startBoardTeam({
      agents: AGENTS,
      before: async ({ boardDir }) => {
        await mkdir(boardDir, { recursive: true });
        await writeFile(join(boardDir, "board.json"), GARBAGE);
      },
      scripts: {
        leader: leaderCommands({ LIST: [listCall], CREATE: [create({ subject: "After the crash" })] }),
      },
    });
    await team.run("LIST");
    const [list] = team.toolEnds("task_list");
    expect(list!.isError).toBe(false);
    expect(list!.text).toMatch(/^board\.json was unreadable \(corrupt_json: board\.json is not valid JSON/);
    const report = /it was moved aside to (\S+board\.corrupt-\d+\.json) and a new board started/.exec(list!.text);
    expect(report, list!.text).not.toBeNull();
    const aside = report![1]!;
    expect(aside.startsWith(team.boardDir)).toBe(true);
    expect(await readFile(aside, "utf8")).toBe(GARBAGE);
    expect(list!.text).toContain("0 tasks");

    // The report is made once; the new board is written beside the moved file.
    await team.run("CREATE");
    const [created] = team.toolEnds("task_create");
    expect(created!.isError).toBe(false);
    expect(created!.text).not.toContain("unreadable");
    const file = await team.waitBoard((f) => f.tasks.length === 1);
    expect(file.tasks[0]!.id).toBe("after-the-crash");
    expect(existsSync(aside)).toBe(true);
    expect(await readFile(aside, "utf8")).toBe(GARBAGE);
    expect(parseBoardFile(await readFile(join(team.boardDir, "board.json"), "utf8")).ok).toBe(true);
  });
});
