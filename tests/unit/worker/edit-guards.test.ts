/**
 * registerEditGuards on a fake `pi` (only `on`), with real temp files and a real roster.json:
 * parallel calls, path forms that must not escape the resource check, failing reads, the
 * roster rules (fail open before a valid roster, the last valid holdings after), the fail-closed
 * stale rule and partial reads. Scope (team state, worktree teammates): edit-guards-scope.test.ts.
 */
import { chmod, link, mkdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { registerEditGuards } from "../../../src/worker/edit-guards.ts";
import { createFakePi, FakeFileTools } from "../../support/fake-pi.ts";
import { roster, setupGuards } from "./guard-setup.ts";

const setup = setupGuards();

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i}`).join("\n");

describe("registerEditGuards: resource guard", () => {
  it("blocks every path form that lands under a held tag: relative, @, .., absolute, symlinked dir, dangling link", async () => {
    const t = await setup();
    await t.put("src/api/auth.ts", "v1");
    await symlink(join(t.project, "src/api"), join(t.project, "alias"));
    await mkdir(join(t.project, "free"));
    await symlink("../src/api/new.ts", join(t.project, "free/new.ts")); // dangling: new.ts does not exist yet
    for (const path of ["src/api/auth.ts", "@src/api/auth.ts", "docs/../src/api/auth.ts", join(t.project, "src/api/auth.ts"), "alias/auth.ts"]) {
      const out = await t.tools.edit(path, "v1", "v2");
      expect(out.blocked, path).toBe(true);
      expect(out.reason).toContain('which teammate "bob" holds for task t-3');
    }
    const dangling = await t.tools.write("free/new.ts", "x");
    expect(dangling.blocked).toBe(true);
    expect(dangling.reason).toContain("write blocked: free/new.ts is inside resource \"src/api\"");
    expect(await readFile(join(t.project, "src/api/auth.ts"), "utf8")).toBe("v1");
  });

  it("does not guard paths outside the project root by tags", async () => {
    const t = await setup({ roster: roster([{ tag: "src" }]) });
    const outside = join(t.root, "elsewhere", "src", "a.ts");
    expect((await t.tools.write(outside, "x")).blocked).toBe(false);
    expect((await t.tools.write("../elsewhere/src/b.ts", "x")).blocked).toBe(false);
  });

  it("passes once the holder is stopped, re-reading the roster at each call", async () => {
    const t = await setup();
    expect((await t.tools.write("src/api/x.ts", "1")).blocked).toBe(true);
    await writeFile(t.rosterPath, JSON.stringify(roster([{ tag: "src/api", taskId: "t-3" }], "stopped")));
    expect((await t.tools.write("src/api/x.ts", "1")).blocked).toBe(false);
  });

  it("fails open on a missing or corrupt roster, with one note per distinct problem, but still guards stale writes", async () => {
    for (const r of [null, "{not json"] as const) {
      const t = await setup({ roster: r });
      await t.put("src/api/auth.ts", "v1");
      expect((await t.tools.edit("src/api/auth.ts", "v1", "v2")).blocked).toBe(false);
      expect((await t.tools.edit("src/api/auth.ts", "v2", "v3")).blocked).toBe(false);
      expect(t.notes).toHaveLength(1);
      expect(t.notes[0]).toContain("[edit-guards] resource holdings not checked (fail open");
      expect(t.notes[0]).toContain(t.rosterPath);
      await t.put("other.md", "x");
      expect((await t.tools.write("other.md", "y")).reason).toContain("other.md already exists and you have not read it");
    }
  });
});

describe("registerEditGuards: hard links", () => {
  it("blocks edit and write through a hard link to a held file, inside or outside the project, and to the link's other name", async () => {
    const t = await setup();
    await t.put("src/api/auth.ts", "v1");
    await mkdir(join(t.project, "free"));
    await link(join(t.project, "src/api/auth.ts"), join(t.project, "free/auth.ts")); // as a peer with bash could
    await link(join(t.project, "src/api/auth.ts"), join(t.root, "outside.ts"));
    await t.tools.read("free/auth.ts");
    const write = await t.tools.write("free/auth.ts", "pwned");
    expect(write.reason).toContain("write blocked: free/auth.ts has 3 hard links, so the same file also exists under another name");
    expect((await t.tools.edit("free/auth.ts", "v1", "pwned")).reason).toContain("edit blocked: free/auth.ts has 3 hard links");
    expect((await t.tools.edit(join(t.root, "outside.ts"), "v1", "pwned")).reason).toContain(`edit blocked: ${join(t.root, "outside.ts")} has 3 hard links`);
    await symlink(join(t.root, "outside.ts"), join(t.project, "free/via-symlink.ts"));
    expect((await t.tools.edit("free/via-symlink.ts", "v1", "pwned")).reason).toContain("has 3 hard links");
    expect(await readFile(join(t.project, "src/api/auth.ts"), "utf8")).toBe("v1");
  });

  it("blocks a linked file nobody holds too, and passes it once it has one name again", async () => {
    const t = await setup();
    await t.put("notes.md", "a");
    await link(join(t.project, "notes.md"), join(t.root, "backup.md"));
    expect((await t.tools.edit("notes.md", "a", "b")).reason).toContain("notes.md has 2 hard links");
    await rm(join(t.root, "backup.md"));
    expect((await t.tools.edit("notes.md", "a", "b")).blocked).toBe(false);
  });

  it("blocks a worktree teammate's write through a hard link into the shared project", async () => {
    const t = await setup();
    await t.put("src/api/auth.ts", "bob's work");
    const worktree = join(t.root, "worktrees", "carol-1");
    await mkdir(worktree, { recursive: true });
    await link(join(t.project, "src/api/auth.ts"), join(worktree, "auth.ts"));
    const fake = createFakePi();
    registerEditGuards(fake.pi, { name: "carol", runtimeDir: t.runtimeDir, boardDir: t.boardDir, worktree, project: t.project });
    const out = await new FakeFileTools(fake, worktree).write("auth.ts", "carol's");
    expect(out.reason).toContain("write blocked: auth.ts has 2 hard links");
    expect(await readFile(join(t.project, "src/api/auth.ts"), "utf8")).toBe("bob's work");
  });
});

describe("registerEditGuards: the roster after a valid one", () => {
  it("keeps the last valid holdings when roster.json turns invalid or missing (bash can still do that), saying so", async () => {
    const t = await setup();
    await t.put("src/api/auth.ts", "v1");
    expect((await t.tools.edit("src/api/auth.ts", "v1", "v2")).blocked).toBe(true);
    for (const broken of ["{", null]) {
      if (broken === null) await rm(t.rosterPath);
      else await writeFile(t.rosterPath, broken);
      const out = await t.tools.edit("src/api/auth.ts", "v1", "v2");
      expect(out.reason).toContain('which teammate "bob" holds for task t-3');
      expect(out.reason).toContain("roster.json cannot be read right now, so this uses the holdings it last showed");
    }
    expect(t.notes.every((n) => n.startsWith("[edit-guards] roster.json cannot be read, using the holdings it last showed"))).toBe(true);
    expect(await readFile(join(t.project, "src/api/auth.ts"), "utf8")).toBe("v1");
  });

  it("remembers the roster it found at registration, before any guarded call", async () => {
    const t = await setup();
    await t.off.ready;
    await writeFile(t.rosterPath, "garbage");
    expect((await t.tools.write("src/api/new.ts", "x")).blocked).toBe(true);
  });
});

describe("registerEditGuards: stale-write guard", () => {
  it("blocks a write after a read with offset or limit; a whole read then licenses it", async () => {
    const t = await setup();
    await t.put("notes.md", lines(30));
    for (const input of [{ offset: 1, limit: 5 }, { offset: 10 }, { limit: 100 }]) {
      await t.tools.run(await t.tools.prepare("read", { path: "notes.md", ...input }));
      expect((await t.tools.write("notes.md", "x")).reason, JSON.stringify(input)).toContain("you have read only part of notes.md");
    }
    await t.tools.read("notes.md");
    expect((await t.tools.write("notes.md", "x")).blocked).toBe(false);
  });

  it("blocks a write after a read Pi truncated (here: over 2000 lines), and after a first line over the byte limit", async () => {
    const t = await setup();
    await t.put("big.md", lines(3000));
    await t.put("wide.md", "x".repeat(60 * 1024));
    for (const path of ["big.md", "wide.md"]) {
      await t.tools.read(path);
      expect((await t.tools.write(path, "small")).reason, path).toContain(`you have read only part of ${path}`);
    }
    expect((await t.tools.edit("big.md", "line 2999", "line 2999 (edited)")).blocked).toBe(false);
    expect((await t.tools.write("big.md", "after the edit")).blocked).toBe(false); // an edit records the whole file
  });

  it("a partial read of a file already seen whole keeps the write allowed", async () => {
    const t = await setup();
    await t.put("notes.md", lines(30));
    await t.tools.read("notes.md");
    await t.tools.run(await t.tools.prepare("read", { path: "notes.md", offset: 5, limit: 2 }));
    expect((await t.tools.write("notes.md", "x")).blocked).toBe(false);
  });

  it("handles a parallel batch: a write prepared beside the read of the same file is blocked, a later one passes", async () => {
    const t = await setup();
    await t.put("a.md", "old");
    await t.put("b.md", "old-b");
    // Pi runs every tool_call of a parallel batch before any tool executes.
    const readA = await t.tools.prepare("read", { path: "a.md" });
    const readB = await t.tools.prepare("read", { path: "b.md" });
    const writeA = await t.tools.prepare("write", { path: "a.md", content: "new" });
    expect(writeA.blocked).toContain("a.md already exists and you have not read it");
    await Promise.all([t.tools.run(readB), t.tools.run(readA), t.tools.run(writeA)]);
    expect((await t.tools.write("a.md", "new")).blocked).toBe(false);
    expect((await t.tools.write("b.md", "new-b")).blocked).toBe(false);
    expect(await readFile(join(t.project, "a.md"), "utf8")).toBe("new");
  });

  it("takes the read's hash before the read runs: a change in between blocks the later write", async () => {
    const t = await setup();
    await t.put("a.md", "old");
    const read = await t.tools.prepare("read", { path: "a.md" });
    await t.put("a.md", "changed-while-reading");
    expect((await t.tools.run(read)).text).toBe("changed-while-reading");
    expect((await t.tools.write("a.md", "mine")).reason).toContain("a.md changed on disk since you last read or wrote it");
  });

  it("records nothing for a read whose result is an error", async () => {
    const t = await setup();
    await t.put("a.md", "old");
    const read = await t.tools.prepare("read", { path: "a.md" });
    await t.fake.emit({ type: "tool_result", toolCallId: read.id, toolName: "read", input: read.input, content: [], isError: true }, t.project);
    expect((await t.tools.write("a.md", "new")).blocked).toBe(true);
  });

  it("a failed edit records nothing; a successful edit records the file as read back", async () => {
    const t = await setup();
    await t.put("a.md", "one");
    expect((await t.tools.edit("a.md", "missing", "x")).isError).toBe(true);
    expect((await t.tools.write("a.md", "w")).blocked).toBe(true);
    expect((await t.tools.edit("a.md", "one", "two")).isError).toBe(false);
    expect((await t.tools.write("a.md", "w")).blocked).toBe(false);
  });

  it("keys versions by the real path: a read through a symlink allows a write by the direct path", async () => {
    const t = await setup();
    await t.put("real/a.md", "old");
    await symlink(join(t.project, "real"), join(t.project, "link"));
    await t.tools.read("link/a.md");
    expect((await t.tools.write("real/a.md", "new")).blocked).toBe(false);
  });

  it("fails closed when the target exists but cannot be hashed", async () => {
    const t = await setup();
    await mkdir(join(t.project, "dir.md"));
    const out = await t.tools.write("dir.md", "x");
    expect(out.reason).toMatch(/^write blocked: cannot read dir\.md to check that it is unchanged since you last read it \(.*EISDIR/);
  });

  it.skipIf(process.getuid?.() === 0)("fails closed on an unreadable file (not as root)", async () => {
    const t = await setup();
    await t.put("secret.md", "x");
    await chmod(join(t.project, "secret.md"), 0o000);
    expect((await t.tools.write("secret.md", "y")).reason).toContain("EACCES");
  });
});

describe("registerEditGuards: registration", () => {
  it("registers only the scope check (tool_call) for a worktree teammate", () => {
    const fake = createFakePi();
    const off = registerEditGuards(fake.pi, { name: "alice", runtimeDir: "/nonexistent", boardDir: "/nonexistent-b", worktree: "/w/alice" });
    expect(["tool_call", "tool_result", "tool_execution_end"].map((e) => fake.handlers(e).length)).toEqual([1, 0, 0]);
    off();
    off();
    expect(fake.handlers("tool_call")).toHaveLength(0);
  });

  it("returns an idempotent function that removes every handler", async () => {
    const t = await setup();
    expect(["tool_call", "tool_result", "tool_execution_end"].map((e) => t.fake.handlers(e).length)).toEqual([1, 1, 1]);
    t.off();
    t.off();
    expect(["tool_call", "tool_result", "tool_execution_end"].map((e) => t.fake.handlers(e).length)).toEqual([0, 0, 0]);
  });

  it("never throws into Pi: an unexpected failure blocks an edit or write with a message, and lets a read through", async () => {
    const t = await setup();
    const [handler] = t.fake.handlers("tool_call");
    const badCtx = { get cwd(): string { throw new Error("ctx is stale"); } };
    const write = await handler!({ type: "tool_call", toolName: "write", toolCallId: "x", input: { path: "a", content: "" } }, badCtx);
    expect(write).toEqual({ block: true, reason: "write blocked: the edit guard could not check this call (ctx is stale). Nothing was changed. Try again; if it keeps failing, tell the leader." });
    expect(await handler!({ type: "tool_call", toolName: "read", toolCallId: "y", input: { path: "a" } }, badCtx)).toBeUndefined();
    expect(await handler!({ type: "tool_call", toolName: "bash", toolCallId: "z", input: { command: "rm -rf x" } }, { cwd: t.project })).toBeUndefined();
  });
});
