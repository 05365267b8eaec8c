import { chmod, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { captureWorktree, prepareWorktree } from "../../../src/isolation/index.ts";
import { branchesOf, exists, spawnIdOf, useGitFixture, writeFiles } from "./git-fixture.ts";

const fixture = useGitFixture();

describe("worktree edge cases", () => {
  it("works with an EDITOR, PAGER and a stray GIT_DIR in the environment", async () => {
    const f = await fixture();
    const repo = await f.repo();
    // simple-git refuses such variables unless told otherwise; GIT_DIR would point git elsewhere.
    const env = { ...f.env, EDITOR: "vi", GIT_EDITOR: "vi", PAGER: "less", GIT_PAGER: "less", GIT_DIR: join(repo, "nowhere") };
    const { worktree } = await prepareWorktree({ repoCwd: repo, worktreesRoot: f.worktreesRoot, name: "env", spawnId: spawnIdOf("e0e0e0e0"), env });
    await writeFiles(worktree.dir, { "e.txt": "e\n" });
    expect(await captureWorktree(worktree, { env })).toMatchObject({ kept: true, committed: true });
  });

  it("captures work the teammate staged but did not commit, including a deletion", async () => {
    const f = await fixture();
    const repo = await f.repo({ "keep.txt": "k\n", "drop.txt": "d\n" });
    const { worktree } = await prepareWorktree({ repoCwd: repo, worktreesRoot: f.worktreesRoot, name: "st", spawnId: spawnIdOf("5a5a5a5a"), env: f.env });
    await f.git(worktree.dir, "rm", "-q", "drop.txt");
    const capture = await captureWorktree(worktree, { env: f.env });
    expect(capture).toMatchObject({ kept: true, committed: true, commits: 1 });
    expect(capture.diffstat).toContain("drop.txt");
  });

  it("leftovers on a detached HEAD at the branch tip are committed onto the branch", async () => {
    const f = await fixture();
    const repo = await f.repo();
    const { worktree } = await prepareWorktree({ repoCwd: repo, worktreesRoot: f.worktreesRoot, name: "det", spawnId: spawnIdOf("d0d0d0d0"), env: f.env });
    await f.git(worktree.dir, "checkout", "-q", "--detach");
    await writeFiles(worktree.dir, { "lost.txt": "would be lost\n" });
    const capture = await captureWorktree(worktree, { env: f.env });
    expect(capture).toMatchObject({ kept: true, committed: true, commits: 1, otherBranches: [], removed: true });
    expect(await f.git(repo, "show", `${worktree.branch}:lost.txt`)).toBe("would be lost");
    expect(capture.notes.join(" ")).toContain("was detached at");
    expect(await branchesOf(f, repo)).toEqual(["main", worktree.branch]);
  });

  it("a failing post-checkout hook fails prepare and leaves nothing behind", async () => {
    const f = await fixture();
    const repo = await f.repo();
    const hook = join(repo, ".git", "hooks", "post-checkout");
    const runs = join(repo, ".git", "hook-runs");
    await writeFile(hook, `#!/bin/sh\necho ran >> ${runs}\necho 'hook says no' >&2\nexit 3\n`);
    await chmod(hook, 0o755);
    const failing = prepareWorktree({ repoCwd: repo, worktreesRoot: f.worktreesRoot, name: "hk", spawnId: spawnIdOf("40404040"), env: f.env });
    await expect(failing).rejects.toMatchObject({ code: "io_error", message: expect.stringContaining("hook says no") });
    expect(await readFile(runs, "utf8")).toBe("ran\n"); // not retried: the failure is not a race
    expect(await exists(join(f.worktreesRoot, "hk-40404040"))).toBe(false);
    expect(await exists(join(f.worktreesRoot, "hk-40404040.json"))).toBe(false);
    expect(await branchesOf(f, repo)).toEqual(["main"]);
    expect(await f.git(repo, "config", "--list", "--local")).not.toContain("piteambase");
    expect(await f.git(repo, "worktree", "list")).not.toContain("hk-");
  });
});
