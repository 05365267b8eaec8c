/**
 * BoardHost with the leader's write record (issue 18 item 4): every board.json write is recorded
 * before it is made; a host started on that record trusts the file it wrote (no flag), and one
 * started on a file changed since is flagged, restores the leader's board, keeps the changed
 * file aside and writes its own board over it.
 */
import { TeamBus } from "../../../src/team/bus.ts";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { boardDigest, parseBoardFile, type BoardFile, type BoardWrite } from "../../../src/board/index.ts";
import { BoardHost } from "../../../src/boardhost/board-host.ts";
import type { BoardMate } from "../../../src/boardhost/board-host-types.ts";
import { SpawnKeys } from "../../../src/mail/index.ts";
import { boardLayoutAt, type BoardLayout } from "../../../src/store/index.ts";
import { memoryTrail, waitFor } from "../../support/board-host.ts";

const ALICE: BoardMate = { name: "alice", spawnId: "alice-1", idle: false, hasAssignment: false, assignmentResources: undefined, roleVerify: undefined };

let dir: string;
let layout: BoardLayout;
let notes: string[];
const hosts: BoardHost[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "board-host-trail-"));
  layout = boardLayoutAt(join(dir, "tasks", "0123456789abcdef"));
  notes = [];
});
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
  await rm(dir, { recursive: true, force: true });
});

async function startHost(writes: BoardWrite[], mates: BoardMate[] = []): Promise<BoardHost> {
  const host = new BoardHost({
    layout, keys: new SpawnKeys(), answer: () => undefined, cwd: dir, piCli: "pi-not-used", env: {}, mates: () => mates,
    bus: new TeamBus(), teamModel: () => undefined, note: (t) => notes.push(t), paceMs: 0,
    trail: memoryTrail(writes),
  });
  hosts.push(host);
  await host.start();
  return host;
}

const onDisk = async (): Promise<string> => readFile(layout.board, "utf8");

/** A first leader that creates two tasks, alice claims one, and the leader stops (its last write recorded). */
async function firstSession(): Promise<BoardWrite[]> {
  const writes: BoardWrite[] = [];
  const host = await startHost(writes, [ALICE]);
  host.create({ subject: "One" }, "test");
  host.create({ subject: "Two" }, "test");
  expect(host.decideFromPipe({ action: "claim", taskId: "two", from: "alice", spawnId: "alice-1" }).ok).toBe(true);
  await host.close();
  hosts.splice(0);
  // Recorded before each write: the last record is the file on disk.
  expect(writes.length).toBeGreaterThan(0);
  expect(writes.at(-1)!.sha256).toBe(boardDigest(await onDisk()));
  return writes;
}

describe("BoardHost and the write record", () => {
  it("a board it wrote starts with no flag", async () => {
    const writes = await firstSession();
    const host = await startHost(writes);
    expect(host.flag).toBeUndefined();
    expect(host.list([], {}, "test")).toMatch(/- `two` \[pending\] Two .*last error: @alice no longer lives \(board reloaded\)/);
    expect(await readdir(layout.root)).not.toContainEqual(expect.stringMatching(/^board\.untrusted/));
    expect(notes.join("\n")).not.toContain("board.json was changed");
  });

  it("a board changed since its last write is flagged, restored, kept aside and replaced", async () => {
    const writes = await firstSession();
    const file = JSON.parse(await onDisk()) as BoardFile;
    file.tasks[1]!.state = { status: "completed", completedAt: 1, by: "w2" };
    file.tasks[1]!.lastResult = "FORGED-BOARD-RESULT";
    await writeFile(layout.board, JSON.stringify(file));
    const host = await startHost(writes);
    expect(host.flag).toMatch(/^board\.json was changed outside the leader since the leader's last write/);
    expect(host.flag).toContain('- `two`: it said completed by "w2" with a result; changed: state, lastResult');
    expect(notes).toContain(host.flag);
    const list = host.list([], {}, "test");
    expect(list).toMatch(/- `two` \[pending\] Two .*last error: board\.json was changed outside the leader/);
    expect(list).not.toContain("FORGED");
    const kept = (await readdir(layout.root)).filter((f) => f.startsWith("board.untrusted-"));
    expect(kept).toHaveLength(1);
    expect(await readFile(join(layout.root, kept[0]!), "utf8")).toContain("FORGED-BOARD-RESULT");
    // The leader's board replaces the changed file, recorded first: the next start trusts it.
    await waitFor("the leader's board on disk", async () => ((await onDisk()).includes("FORGED") ? undefined : true), notes);
    const parsed = parseBoardFile(await onDisk());
    expect(parsed.ok && parsed.file.tasks[1]!.state.status).toBe("pending");
    await host.close();
    hosts.splice(0);
    expect((await startHost(writes)).flag).toBeUndefined();
  });
});
