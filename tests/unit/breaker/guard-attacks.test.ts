/**
 * Breaker attacks on the shared-tree edit guards, with only Pi's guarded file tools (no bash).
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
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
