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
  await mkdir(join(project, "src/api"), { recursive: true });
  await mkdir(runtimeDir, { recursive: true });
  const rosterPath = join(runtimeDir, "roster.json");
  await writeFile(rosterPath, JSON.stringify(roster));
  await writeFile(join(project, "src/api/auth.ts"), "bob's work in progress\n");
  const fake = createFakePi();
  registerEditGuards(fake.pi, { name: "alice", runtimeDir }, { note: () => undefined });
  const tools = new FakeFileTools(fake, project);
  return { project, tools, rosterPath };
}

describe("breaker: the resource guard trusts a roster the guarded teammate can rewrite with its own write tool", () => {
  // DEFECT: roster.json lives in the runtime dir, outside the project, so no tag guards it, and
  // the stale-write guard only asks for a read first. A teammate with just read+write (no bash)
  // forges the roster and then edits a file another living teammate holds.
  it.fails("a teammate cannot clear another's holdings by writing roster.json, then edit the held file", async () => {
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

  it.fails("a teammate cannot switch every guard off by corrupting roster.json (fail open)", async () => {
    const t = await setup();
    await t.tools.read(t.rosterPath);
    const wrote = await t.tools.write(t.rosterPath, "{");
    const edit = await t.tools.edit("src/api/auth.ts", "bob's", "alice's");
    expect(wrote.blocked || edit.blocked).toBe(true);
  });
});

describe("breaker: what counts as having seen a file", () => {
  // DEFECT (design gap): a read with offset/limit (or one Pi truncates: 2000 lines / 50 KB by
  // default) records the hash of the WHOLE file, so a whole-file write built from the part the
  // model saw passes and erases the rest, which is exactly the loss the stale-write guard is for.
  it.fails("a read of a few lines does not license a whole-file write", async () => {
    const t = await setup();
    const big = Array.from({ length: 3000 }, (_, i) => `line ${i} (another teammate's work)`).join("\n");
    await writeFile(join(t.project, "notes.md"), big);
    const read = await t.tools.prepare("read", { path: "notes.md", offset: 1, limit: 5 });
    await t.tools.run(read);
    const write = await t.tools.write("notes.md", "line 0 (rewritten)\n");
    expect(write.blocked).toBe(true); // fails: the write passes
  });
});

describe("breaker: worktree teammates and the shared tree", () => {
  // DEFECT: a worktree teammate registers no guards at all, yet Pi's write/edit accept absolute
  // paths. A leader that names files by absolute path (it knows only its own checkout) sends the
  // worktree teammate's edits straight into the user's shared tree, around both guards and around
  // the worktree isolation. Expected: edit/write outside the teammate's own worktree is blocked
  // (or at least guarded like a shared-tree teammate's).
  it.fails("a worktree teammate cannot write into the leader's checkout by absolute path", async () => {
    const t = await setup();
    const fake = createFakePi();
    const worktree = join(t.project, "..", "wt");
    await mkdir(worktree, { recursive: true });
    registerEditGuards(fake.pi, { name: "carol", runtimeDir: dirname(t.rosterPath), worktree }, { note: () => undefined });
    const tools = new FakeFileTools(fake, worktree);
    const out = await tools.write(join(t.project, "src/api/auth.ts"), "carol was here\n");
    expect(out.blocked).toBe(true); // fails: bob's held, never-read file is overwritten
  });
});
