/**
 * Breaker attacks on the shared-tree edit guards, with only Pi's guarded file tools (no bash).
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RosterFile } from "../../../src/mail/index.ts";
import { registerEditGuards } from "../../../src/worker/edit-guards.ts";
import { createFakePi, FakeFileTools } from "../../support/fake-pi.ts";
import { useTempDirs } from "../store/tmp.ts";

const tempDir = useTempDirs();

const roster: RosterFile = {
  v: 1,
  updatedAt: 1,
  teammates: [
    { name: "alice", agent: "w", spawnId: "s-1", status: "working", tools: [] },
    { name: "bob", agent: "w", spawnId: "s-2", status: "working", tools: [], holds: [{ tag: "src/api", taskId: "t-3" }] },
  ],
};

async function setup() {
  const root = await tempDir();
  const project = join(root, "project");
  const runtimeDir = join(root, "runtime");
  const boardDir = join(root, "board");
  await mkdir(join(project, "src/api"), { recursive: true });
  await mkdir(runtimeDir, { recursive: true });
  const rosterPath = join(runtimeDir, "roster.json");
  await writeFile(rosterPath, JSON.stringify(roster));
  await writeFile(join(project, "src/api/auth.ts"), "bob's work in progress\n");
  const fake = createFakePi();
  registerEditGuards(fake.pi, { name: "alice", runtimeDir, boardDir }, { note: () => undefined });
  const tools = new FakeFileTools(fake, project);
  return { project, tools, rosterPath, boardDir };
}

describe("breaker: the resource guard trusts a roster the guarded teammate can rewrite with its own write tool", () => {
  // WAS A DEFECT: roster.json lives in the runtime dir, outside the project, so no tag guards it,
  // and the stale-write guard only asks for a read first. A teammate with just read+write (no
  // bash) forged the roster and then edited a file another living teammate holds. Fixed: edit and
  // write into the runtime and board dirs are blocked (src/guard/write-scope.ts).
  it("a teammate cannot clear another's holdings by writing roster.json, then edit the held file", async () => {
    const t = await setup();
    expect((await t.tools.edit("src/api/auth.ts", "bob's", "alice's")).blocked).toBe(true); // the guard works...
    await t.tools.read(t.rosterPath);
    const forged = { ...roster, teammates: roster.teammates.map((m) => ({ ...m, holds: [] })) };
    const wrote = await t.tools.write(t.rosterPath, JSON.stringify(forged));
    const edit = await t.tools.edit("src/api/auth.ts", "bob's", "alice's");
    // Expected: the roster write (or the edit after it) is blocked.
    expect(wrote.blocked || edit.blocked).toBe(true);
    expect(await readFile(join(t.project, "src/api/auth.ts"), "utf8")).toBe("bob's work in progress\n");
  });

  it("a teammate cannot switch every guard off by corrupting roster.json (fail open)", async () => {
    const t = await setup();
    await t.tools.read(t.rosterPath);
    const wrote = await t.tools.write(t.rosterPath, "{");
    const edit = await t.tools.edit("src/api/auth.ts", "bob's", "alice's");
    expect(wrote.blocked || edit.blocked).toBe(true);
  });
});

describe("breaker: what counts as having seen a file", () => {
  // WAS A DEFECT (design gap): a read with offset/limit (or one Pi truncates: 2000 lines / 50 KB
  // by default) recorded the hash of the WHOLE file, so a whole-file write built from the part
  // the model saw passed and erased the rest. Fixed: such a read records a partial version.
  it("a read of a few lines does not license a whole-file write", async () => {
    const t = await setup();
    const big = Array.from({ length: 3000 }, (_, i) => `line ${i} (another teammate's work)`).join("\n");
    await writeFile(join(t.project, "notes.md"), big);
    const read = await t.tools.prepare("read", { path: "notes.md", offset: 1, limit: 5 });
    await t.tools.run(read);
    const write = await t.tools.write("notes.md", "line 0 (rewritten)\n");
    expect(write.blocked).toBe(true);
    expect(write.reason).toContain("you have read only part of notes.md");
  });
});

describe("breaker: worktree teammates and the shared tree", () => {
  // WAS A DEFECT: a worktree teammate registered no guards at all, yet Pi's write/edit accept
  // absolute paths. A leader that names files by absolute path (it knows only its own checkout)
  // sent the worktree teammate's edits straight into the user's shared tree, around both guards
  // and around the worktree isolation. Fixed: the leader names the shared project
  // (ENV.project), and a worktree teammate's edit/write into it outside its worktree is blocked.
  it("a worktree teammate cannot write into the leader's checkout by absolute path", async () => {
    const t = await setup();
    const fake = createFakePi();
    const worktree = join(t.project, "..", "wt");
    await mkdir(worktree, { recursive: true });
    // The leader now names the shared project (ENV.project, set by planSpawn).
    registerEditGuards(fake.pi, { name: "carol", runtimeDir: dirname(t.rosterPath), boardDir: t.boardDir, worktree, project: t.project }, { note: () => undefined });
    const tools = new FakeFileTools(fake, worktree);
    const out = await tools.write(join(t.project, "src/api/auth.ts"), "carol was here\n");
    expect(out.blocked).toBe(true);
    expect(await readFile(join(t.project, "src/api/auth.ts"), "utf8")).toBe("bob's work in progress\n");
  });
});
