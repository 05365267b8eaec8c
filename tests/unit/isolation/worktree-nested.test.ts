/**
 * Nested git repositories in a teammate worktree: never committed as gitlinks, never deleted with
 * the dir; everything else is still captured.
 */
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { captureWorktree, prepareWorktree, reclaimWorktrees } from "../../../src/isolation/index.ts";
import { exists, spawnIdOf, useGitFixture, writeFiles, type GitFixture } from "./git-fixture.ts";

const fixture = useGitFixture();

async function nestedRepo(f: GitFixture, dir: string, commit: boolean): Promise<void> {
  await mkdir(dir, { recursive: true });
  await f.git(dir, "init", "-q", "-b", "main");
  await writeFiles(dir, { "inner.txt": "inner\n" });
  if (!commit) return;
  await f.git(dir, "add", "-A");
  await f.gitAs(dir, "commit", "-q", "-m", "inner work");
}

describe("nested repositories", () => {
  it("deep inside an untracked dir, with a glob-like name, and ignored ones: all kept in place", async () => {
    const f = await fixture();
    const repo = await f.repo({ "README.md": "hello\n", ".gitignore": "vendor/\n" });
    const { worktree: wt } = await prepareWorktree({ repoCwd: repo, worktreesRoot: f.worktreesRoot, name: "deep", spawnId: spawnIdOf("9a9a9a9a"), env: f.env });
    await nestedRepo(f, join(wt.dir, "a", "b", "lib"), true);
    await nestedRepo(f, join(wt.dir, "g*"), false);
    await nestedRepo(f, join(wt.dir, "vendor", "dep"), true);
    await writeFiles(wt.dir, { "a/file.txt": "a\n", "gz.txt": "gz\n", "README.md": "changed\n" });
    const cap = await captureWorktree(wt, { env: f.env });
    expect(cap).toMatchObject({ kept: true, committed: true, removed: false, nestedRepos: ["a/b/lib", "g*", "vendor/dep"] });
    const files = (await f.git(repo, "ls-tree", "-r", "--name-only", wt.branch)).split("\n");
    expect(files.sort()).toEqual([".gitignore", "README.md", "a/file.txt", "gz.txt"]);
    for (const dir of ["a/b/lib", "g*", "vendor/dep"]) expect(await exists(join(wt.dir, dir, "inner.txt"))).toBe(true);
    expect(await f.git(join(wt.dir, "vendor", "dep"), "log", "-1", "--format=%s")).toBe("inner work");
    expect(cap.notes.join(" ")).toContain("(a/b/lib, g*, vendor/dep)");
  });

  it("a nested repository the teammate committed as a gitlink is kept in place too", async () => {
    const f = await fixture();
    const repo = await f.repo();
    const { worktree: wt } = await prepareWorktree({ repoCwd: repo, worktreesRoot: f.worktreesRoot, name: "link", spawnId: spawnIdOf("8b8b8b8b"), env: f.env });
    await nestedRepo(f, join(wt.dir, "sub"), true);
    await f.git(wt.dir, "add", "sub");
    await f.gitAs(wt.dir, "commit", "-q", "-m", "link: add sub as a gitlink");
    const cap = await captureWorktree(wt, { env: f.env });
    expect(cap).toMatchObject({ kept: true, committed: false, commits: 1, removed: false, nestedRepos: ["sub"] });
    expect(await exists(join(wt.dir, "sub", ".git"))).toBe(true);
  });

  it("a dir left in place is captured again by a reclaim, and removed once the nested repository is gone", async () => {
    const f = await fixture();
    const repo = await f.repo();
    const { worktree: wt } = await prepareWorktree({ repoCwd: repo, worktreesRoot: f.worktreesRoot, name: "again", spawnId: spawnIdOf("7c7c7c7c"), env: f.env });
    await nestedRepo(f, join(wt.dir, "lib"), true);
    await writeFiles(wt.dir, { "top.txt": "top\n" });
    const first = await captureWorktree(wt, { env: f.env });
    expect(first).toMatchObject({ committed: true, commits: 1, removed: false });

    const second = await reclaimWorktrees({ worktreesRoot: f.worktreesRoot, env: f.env });
    expect(second.unclaimed).toEqual([]);
    expect(second.captures).toMatchObject([{ branch: wt.branch, committed: false, commits: 1, removed: false, nestedRepos: ["lib"] }]);

    // The user rescued the nested repository: the next capture removes the dir and its record.
    await rm(join(wt.dir, "lib"), { recursive: true, force: true });
    const third = await reclaimWorktrees({ worktreesRoot: f.worktreesRoot, env: f.env });
    expect(third.captures).toMatchObject([{ branch: wt.branch, kept: true, commits: 1, removed: true, nestedRepos: [] }]);
    expect(await exists(wt.dir)).toBe(false);
    expect(await exists(`${wt.dir}.json`)).toBe(false);
  });
});
