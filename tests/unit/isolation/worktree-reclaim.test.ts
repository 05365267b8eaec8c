import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { prepareWorktree, reclaimWorktrees } from "../../../src/isolation/index.ts";
import { exists, spawnIdOf, useGitFixture, writeFiles } from "./git-fixture.ts";

const fixture = useGitFixture();

describe("leftovers of a crashed session", () => {
  it("are committed onto their old branch when the same name is prepared again", async () => {
    const f = await fixture();
    const repo = await f.repo();
    const options = { repoCwd: repo, worktreesRoot: f.worktreesRoot, name: "alice", env: f.env };
    const crashed = (await prepareWorktree({ ...options, spawnId: spawnIdOf("0ld0ld00") })).worktree;
    await writeFiles(crashed.dir, { "README.md": "half done\n", "notes.txt": "todo\n" });
    // The session dies here: no capture. A new session spawns alice again.
    const { worktree, reclaimed } = await prepareWorktree({ ...options, name: "Alice", spawnId: spawnIdOf("new0new0") });

    expect(reclaimed.unclaimed).toEqual([]);
    expect(reclaimed.captures).toHaveLength(1);
    expect(reclaimed.captures[0]).toMatchObject({ branch: crashed.branch, kept: true, committed: true, commits: 1, removed: true });
    expect(await f.git(repo, "show", `${crashed.branch}:notes.txt`)).toBe("todo");
    expect(await exists(crashed.dir)).toBe(false);
    expect(await exists(`${crashed.dir}.json`)).toBe(false);
    expect(worktree.branch).toBe("pi-team/alice-new0new0");
    expect(await readFile(join(worktree.dir, "README.md"), "utf8")).toBe("hello\n");
  });

  it("of other names are left alone by prepare", async () => {
    const f = await fixture();
    const repo = await f.repo();
    const base = { repoCwd: repo, worktreesRoot: f.worktreesRoot, env: f.env };
    const longer = (await prepareWorktree({ ...base, name: "a-b", spawnId: spawnIdOf("aaaaaaaa") })).worktree;
    const { reclaimed } = await prepareWorktree({ ...base, name: "a", spawnId: spawnIdOf("bbbbbbbb") });
    expect(reclaimed.captures).toEqual([]);
    expect(await exists(longer.dir)).toBe(true);
  });
});

describe("reclaimWorktrees", () => {
  it("captures every unprotected worktree and skips the ones keep protects", async () => {
    const f = await fixture();
    const repo = await f.repo();
    const base = { repoCwd: repo, worktreesRoot: f.worktreesRoot, env: f.env };
    const living = (await prepareWorktree({ ...base, name: "living", spawnId: spawnIdOf("11111111") })).worktree;
    const dead = (await prepareWorktree({ ...base, name: "dead", spawnId: spawnIdOf("22222222") })).worktree;
    const idle = (await prepareWorktree({ ...base, name: "idle", spawnId: spawnIdOf("33333333") })).worktree;
    await writeFiles(dead.dir, { "x.txt": "x\n" });
    await writeFiles(living.dir, { "y.txt": "y\n" });

    const result = await reclaimWorktrees({ worktreesRoot: f.worktreesRoot, keep: (dir) => dir === living.dir, env: f.env });
    expect(result.unclaimed).toEqual([]);
    expect(result.captures.map((c) => [c.branch, c.kept, c.committed])).toEqual([
      [dead.branch, true, true],
      [idle.branch, false, false],
    ]);
    expect(await exists(living.dir)).toBe(true);
    expect(await readFile(join(living.dir, "y.txt"), "utf8")).toBe("y\n");
  });

  it("recovers a worktree whose record is gone from git (branch config holds the base)", async () => {
    const f = await fixture();
    const repo = await f.repo();
    const wt = (await prepareWorktree({ repoCwd: repo, worktreesRoot: f.worktreesRoot, name: "Rec", spawnId: spawnIdOf("44444444"), env: f.env }))
      .worktree;
    await rm(`${wt.dir}.json`);
    await writeFiles(wt.dir, { "z.txt": "z\n" });
    const { captures, unclaimed } = await reclaimWorktrees({ worktreesRoot: f.worktreesRoot, env: f.env });
    expect(unclaimed).toEqual([]);
    expect(captures).toHaveLength(1);
    expect(captures[0]).toMatchObject({ name: "rec", branch: wt.branch, base: wt.base, kept: true, committed: true, commits: 1 });
    expect(await f.git(repo, "log", "-1", "--format=%s", wt.branch)).toBe("pi-resident-teams: work of rec left at shutdown");
  });

  it("reports on a record whose dir was deleted by hand", async () => {
    const f = await fixture();
    const repo = await f.repo();
    const wt = (await prepareWorktree({ repoCwd: repo, worktreesRoot: f.worktreesRoot, name: "gone", spawnId: spawnIdOf("55555555"), env: f.env }))
      .worktree;
    await rm(wt.dir, { recursive: true, force: true });
    const { captures } = await reclaimWorktrees({ worktreesRoot: f.worktreesRoot, env: f.env });
    expect(captures).toMatchObject([{ branch: wt.branch, kept: false, removed: true }]);
    expect(await exists(`${wt.dir}.json`)).toBe(false);
    expect(await f.git(repo, "worktree", "list")).not.toContain("gone");
  });

  it("leaves a dir with files that is no teammate worktree, and removes one that holds no files", async () => {
    const f = await fixture();
    await mkdir(join(f.worktreesRoot, "stranger-12345678", "src"), { recursive: true });
    await writeFile(join(f.worktreesRoot, "stranger-12345678", "src", "precious.txt"), "keep me\n");
    await mkdir(join(f.worktreesRoot, "empty-12345678", "a", "b"), { recursive: true });
    await writeFile(join(f.worktreesRoot, "broken-12345678.json"), "{not json");

    const { captures, unclaimed } = await reclaimWorktrees({ worktreesRoot: f.worktreesRoot, env: f.env });
    expect(captures).toEqual([]);
    expect(unclaimed.map((u) => [u.dir.split("/").pop(), u.removed])).toEqual([
      ["broken-12345678", false],
      ["empty-12345678", true],
      ["stranger-12345678", false],
    ]);
    expect(unclaimed[0]?.reason).toContain("not valid JSON");
    expect(unclaimed[2]?.reason).toMatch(/has no record .* git cannot tell where it came from.*left in place/);
    expect(await readFile(join(f.worktreesRoot, "stranger-12345678", "src", "precious.txt"), "utf8")).toBe("keep me\n");
    expect(await exists(join(f.worktreesRoot, "empty-12345678"))).toBe(false);
    expect(await exists(join(f.worktreesRoot, "broken-12345678.json"))).toBe(true);
  });

  it("leaves a worktree git no longer knows when it holds files", async () => {
    const f = await fixture();
    const repo = await f.repo();
    const wt = (await prepareWorktree({ repoCwd: repo, worktreesRoot: f.worktreesRoot, name: "lost", spawnId: spawnIdOf("66666666"), env: f.env }))
      .worktree;
    await writeFiles(wt.dir, { "work.txt": "w\n" });
    // Someone removed git's admin dir of the worktree: the dir's .git file now points nowhere.
    await rm(join(repo, ".git", "worktrees", "lost-66666666"), { recursive: true, force: true });
    const { captures, unclaimed } = await reclaimWorktrees({ worktreesRoot: f.worktreesRoot, env: f.env });
    expect(unclaimed).toEqual([]);
    expect(captures).toMatchObject([{ branch: wt.branch, removed: false, kept: true, committed: false }]);
    expect(captures[0]?.notes.join(" ")).toContain("is not a worktree of");
    expect(await readFile(join(wt.dir, "work.txt"), "utf8")).toBe("w\n");
    expect(await exists(`${wt.dir}.json`)).toBe(true);
  });

  it("reports, and leaves in place, a worktree whose repository was deleted", async () => {
    const f = await fixture();
    const repo = await f.repo();
    const wt = (await prepareWorktree({ repoCwd: repo, worktreesRoot: f.worktreesRoot, name: "orphan", spawnId: spawnIdOf("77777777"), env: f.env }))
      .worktree;
    await writeFiles(wt.dir, { "only-copy.txt": "o\n" });
    await rm(repo, { recursive: true, force: true });
    const { captures, unclaimed } = await reclaimWorktrees({ worktreesRoot: f.worktreesRoot, env: f.env });
    expect(captures).toEqual([]);
    expect(unclaimed).toMatchObject([{ dir: wt.dir, removed: false }]);
    expect(unclaimed[0]?.reason).toContain(`its repository ${repo} is not a git repository any more`);
    expect(await readFile(join(wt.dir, "only-copy.txt"), "utf8")).toBe("o\n");
  });

  it("finds nothing under a root that does not exist", async () => {
    const f = await fixture();
    expect(await reclaimWorktrees({ worktreesRoot: f.worktreesRoot, env: f.env })).toEqual({ captures: [], unclaimed: [] });
  });
});
