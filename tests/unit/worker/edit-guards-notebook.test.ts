/**
 * The team notebook (issue 20) under registerEditGuards, on a fake `pi` with real temp dirs: it
 * lies in the board dir, yet every teammate may write it; a symlink there into board.json is still
 * team state; and the stale-write guard covers it for worktree teammates too, so two teammates never
 * overwrite each other's notes.
 */
import { mkdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { usableNotebook } from "../../../src/harness/teammate-sessions.ts";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkWriteScope } from "../../../src/guard/index.ts";
import { registerEditGuards } from "../../../src/worker/edit-guards.ts";
import { createFakePi, FakeFileTools, makeGuardDirs } from "../../support/fake-pi.ts";
import { useTempDirs } from "../store/tmp.ts";

const tempDir = useTempDirs();

async function team() {
  const root = await tempDir();
  const { project, runtimeDir } = await makeGuardDirs(root);
  // As in production: the board dir, and the notebook in it, lie in the user's agent dir.
  const agentDir = join(root, "home", ".pi", "agent");
  const boardDir = join(agentDir, "tasks", "k");
  const notebook = join(boardDir, "notebook");
  await mkdir(notebook, { recursive: true });
  await writeFile(join(boardDir, "board.json"), "{}\n");
  await writeFile(join(agentDir, "settings.json"), "{}\n");
  const mate = (name: string, worktree?: string) => {
    const fake = createFakePi();
    registerEditGuards(fake.pi, { name, runtimeDir, boardDir, project, notebook, ...(worktree ? { worktree } : {}) }, { agentDir, homeDir: join(root, "home"), note: () => undefined });
    return new FakeFileTools(fake, worktree ?? project);
  };
  return { root, boardDir, notebook, agentDir, mate };
}

describe("the team notebook", () => {
  it("is writable by a shared-tree and a worktree teammate; the rest of the board dir is not, nor a symlink from the notebook into it", async () => {
    const t = await team();
    const wt = join(t.root, "worktrees", "cal-1");
    await mkdir(wt, { recursive: true });
    const ann = t.mate("ann");
    const cal = t.mate("cal", wt);
    expect(await ann.write(join(t.notebook, "api.md"), "ANN: the API is v2\n")).toMatchObject({ blocked: false, isError: false });
    expect(await cal.write(join(t.notebook, "build.md"), "CAL: build with make\n")).toMatchObject({ blocked: false, isError: false });
    expect((await cal.write(join(t.boardDir, "board.json"), "{}")).reason).toContain("is in the team's board dir");
    await symlink(join(t.boardDir, "board.json"), join(t.notebook, "board-link.md"));
    for (const m of [ann, cal]) {
      const out = await m.edit(join(t.notebook, "board-link.md"), "{}", '{"tasks":[]}');
      expect(out.blocked).toBe(true);
      expect(out.reason).toContain("is in the team's board dir");
    }
    expect(await readFile(join(t.boardDir, "board.json"), "utf8")).toBe("{}\n");
    // Nor a symlink from the notebook into Pi's configuration beside it.
    await symlink(join(t.agentDir, "settings.json"), join(t.notebook, "settings-link.md"));
    const config = await ann.edit(join(t.notebook, "settings-link.md"), "{}", '{"packages":["evil"]}');
    expect(config.reason).toContain("Pi configuration is the user's");
    expect(await readFile(join(t.agentDir, "settings.json"), "utf8")).toBe("{}\n");
  });

  it("blocks a stale overwrite of a note, for a worktree teammate too: read it whole first, and again after another changed it", async () => {
    const t = await team();
    const wt = join(t.root, "worktrees", "cal-1");
    await mkdir(wt, { recursive: true });
    const ann = t.mate("ann");
    const cal = t.mate("cal", wt);
    const note = join(t.notebook, "decisions.md");
    expect(await ann.write(note, "1. use sqlite\n")).toMatchObject({ blocked: false });
    // Cal never read it: its write would lose ann's note.
    const blind = await cal.write(note, "1. use postgres\n");
    expect(blind.blocked).toBe(true);
    expect(blind.reason).toMatch(/write blocked: .*decisions\.md/);
    expect(await cal.read(note)).toMatchObject({ blocked: false });
    // Ann changes it after cal read it: cal's write is stale now.
    expect(await ann.edit(note, "1. use sqlite\n", "1. use sqlite\n2. no ORM\n")).toMatchObject({ blocked: false, isError: false });
    expect((await cal.write(note, "1. use postgres\n")).blocked).toBe(true);
    expect(await cal.read(note)).toMatchObject({ blocked: false });
    expect(await cal.write(note, "1. use sqlite\n2. no ORM\n3. cal: migrations in sql/\n")).toMatchObject({ blocked: false, isError: false });
    expect(await readFile(note, "utf8")).toBe("1. use sqlite\n2. no ORM\n3. cal: migrations in sql/\n");
    // Its own worktree is still unguarded by versions: a blind write there passes.
    await writeFile(join(wt, "x.txt"), "old\n");
    expect(await cal.write(join(wt, "x.txt"), "new\n")).toMatchObject({ blocked: false });
  });

  it("a notebook replaced by a symlink (to the agent dir) exempts nothing: Pi's configuration and the board stay refused", async () => {
    const t = await team();
    await rm(t.notebook, { recursive: true });
    await symlink(t.agentDir, t.notebook);
    const ann = t.mate("ann");
    const out = await ann.edit(join(t.notebook, "settings.json"), "{}", '{"packages":["evil"]}');
    expect(out.blocked).toBe(true);
    expect(out.reason).toContain("Pi configuration is the user's");
    expect((await ann.write(join(t.notebook, "extensions", "evil.ts"), "x")).blocked).toBe(true);
    expect(await readFile(join(t.agentDir, "settings.json"), "utf8")).toBe("{}\n");
    const notes: string[] = [];
    expect(await usableNotebook(t.notebook, (n) => notes.push(n))).toBeUndefined();
    expect(notes[0]).toContain("is not a directory (a symlink)");
    expect(await usableNotebook(join(t.boardDir, "fresh-notebook"), () => undefined)).toBe(join(t.boardDir, "fresh-notebook"));
  });

  it("checkWriteScope: a target is in the notebook only when every form of it is", () => {
    const input = { tool: "write" as const, display: "n", runtimeDir: ["/r"] as const, boardDir: ["/b"] as const, notebook: ["/b/notebook"] as const };
    expect(checkWriteScope({ ...input, paths: ["/b/notebook/a.md"] })).toEqual({ ok: true });
    expect(checkWriteScope({ ...input, paths: ["/b/notebook/a.md", "/b/board.json"] })).toMatchObject({ ok: false, reason: "team_state" });
    expect(checkWriteScope({ ...input, paths: ["/b/claims/x.json"] })).toMatchObject({ ok: false, reason: "team_state" });
  });
});
