/**
 * Breaker attacks on teammate worktrees: what a teammate with bash can leave in its tree.
 * The defects these once showed with `it.fails` are fixed; each test now states the behaviour.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { captureWorktree, prepareWorktree } from "../../../src/isolation/index.ts";
import { branchesOf, exists, spawnIdOf, useGitFixture, writeFiles } from "../isolation/git-fixture.ts";

const fixture = useGitFixture();

describe("breaker: worktree attacks", () => {
  // Was a DEFECT (data loss): `git add -A` staged the nested repository as a gitlink only, and
  // `worktree remove --force --force` then deleted its .git and files. Now it is kept out of the
  // commit and the dir is left in place, with a note naming it.
  it("a nested git repository with its own commit survives the capture", async () => {
    const f = await fixture();
    const repo = await f.repo();
    const { worktree } = await prepareWorktree({ repoCwd: repo, worktreesRoot: f.worktreesRoot, name: "nest", spawnId: spawnIdOf("a1a1a1a1"), env: f.env });
    const sub = join(worktree.dir, "lib");
    await mkdir(sub);
    await f.git(sub, "init", "-q", "-b", "main");
    await writeFiles(sub, { "work.txt": "precious\n" });
    await f.git(sub, "add", "-A");
    await f.gitAs(sub, "commit", "-q", "-m", "nested work");
    const cap = await captureWorktree(worktree, { env: f.env });
    expect(cap).toMatchObject({ kept: true, committed: false, removed: false, nestedRepos: ["lib"] });
    expect(cap.notes.join(" ")).toContain(`${worktree.dir} was left in place: it holds nested git repositories (lib)`);
    expect(await exists(join(sub, "work.txt"))).toBe(true);
    expect(await f.git(sub, "log", "-1", "--format=%s")).toBe("nested work");
    expect(await f.git(repo, "ls-tree", "--name-only", worktree.branch)).not.toContain("lib");
    expect(await exists(`${worktree.dir}.json`)).toBe(true); // a later reclaim finds it again
  });

  // Was: `git add -A` failed on the nested repo without a commit, so even top.txt was never captured.
  it("a nested git repository without a commit is left in place, and the rest is committed", async () => {
    const f = await fixture();
    const repo = await f.repo();
    const { worktree } = await prepareWorktree({ repoCwd: repo, worktreesRoot: f.worktreesRoot, name: "nest2", spawnId: spawnIdOf("a2a2a2a2"), env: f.env });
    const sub = join(worktree.dir, "lib");
    await mkdir(sub);
    await f.git(sub, "init", "-q", "-b", "main");
    await writeFiles(sub, { "work.txt": "precious\n" });
    await writeFiles(worktree.dir, { "top.txt": "top\n" });
    const cap = await captureWorktree(worktree, { env: f.env });
    expect(cap).toMatchObject({ kept: true, committed: true, commits: 1, removed: false, nestedRepos: ["lib"] });
    expect(await f.git(repo, "show", `${worktree.branch}:top.txt`)).toBe("top");
    expect(await f.git(repo, "ls-tree", "--name-only", worktree.branch)).not.toContain("lib");
    expect(await exists(join(sub, "work.txt"))).toBe(true);
  });

  // Was a DEFECT (misreport, and a user branch modified): the leftovers were committed onto the
  // user's `feature` and the capture said kept: false, so the leader heard "had no changes". Now
  // no branch but the teammate's own moves: HEAD was at its tip, so the work lands there.
  it("work left on another branch is kept on the teammate's branch, and that branch is not changed", async () => {
    const f = await fixture();
    const repo = await f.repo();
    await f.git(repo, "branch", "feature");
    const { worktree } = await prepareWorktree({ repoCwd: repo, worktreesRoot: f.worktreesRoot, name: "co", spawnId: spawnIdOf("a3a3a3a3"), env: f.env });
    await f.git(worktree.dir, "checkout", "-q", "feature");
    await writeFiles(worktree.dir, { "x.txt": "x\n" });
    const cap = await captureWorktree(worktree, { env: f.env });
    expect(await f.git(repo, "rev-parse", "feature")).toBe(worktree.base);
    expect(await branchesOf(f, repo)).toEqual(["feature", "main", worktree.branch]);
    expect(cap).toMatchObject({ kept: true, committed: true, commits: 1, removed: true, otherBranches: [] });
    expect(await f.git(repo, "show", `${worktree.branch}:x.txt`)).toBe("x");
    expect(cap.diffCommand).toBe(`git diff ${worktree.base}..${worktree.branch}`);
    expect(cap.notes.join(" ")).toContain("(feature itself was not changed)");
  });

  it("holds: files named like git options and with a newline in the name are captured", async () => {
    const f = await fixture();
    const repo = await f.repo();
    const { worktree } = await prepareWorktree({ repoCwd: repo, worktreesRoot: f.worktreesRoot, name: "opt", spawnId: spawnIdOf("a4a4a4a4"), env: f.env });
    await writeFiles(worktree.dir, { "--force": "f\n", "-n": "n\n", "a\nb.txt": "nl\n" });
    const cap = await captureWorktree(worktree, { env: f.env });
    expect(cap).toMatchObject({ kept: true, committed: true, removed: true });
    const files = (await f.git(repo, "ls-tree", "-r", "-z", "--name-only", worktree.branch)).split("\0");
    expect(files).toEqual(expect.arrayContaining(["--force", "-n", "a\nb.txt"]));
  });
});
