/**
 * Breaker attacks on teammate worktrees: what a teammate with bash can leave in its tree.
 * Tests marked `it.fails` demonstrate a defect (they pass while the defect exists).
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { captureWorktree, prepareWorktree } from "../../../src/isolation/index.ts";
import { branchesOf, exists, spawnIdOf, useGitFixture, writeFiles } from "../isolation/git-fixture.ts";

const fixture = useGitFixture();

describe("breaker: worktree attacks", () => {
  // DEFECT (data loss): `git add -A` stages a nested repository as a gitlink only; `worktree remove
  // --force --force` then deletes the nested repo's .git and files. The capture reports the work
  // as kept ("lib | 1 +"), with no note, while the nested commits and files exist nowhere any more.
  it.fails("a nested git repository with its own commit survives the capture", async () => {
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
    expect(cap).toMatchObject({ kept: true, committed: true, removed: true, notes: [] }); // what happens today
    // Expected: the content is on the branch, or the dir (with lib/.git) is left in place.
    const onBranch = await f.git(repo, "show", `${worktree.branch}:lib/work.txt`).catch(() => undefined);
    const leftInPlace = await exists(join(sub, "work.txt"));
    expect(onBranch === "precious" || leftInPlace).toBe(true);
  });

  it("a nested git repository without a commit makes the capture fail, and the dir is left in place (no loss)", async () => {
    const f = await fixture();
    const repo = await f.repo();
    const { worktree } = await prepareWorktree({ repoCwd: repo, worktreesRoot: f.worktreesRoot, name: "nest2", spawnId: spawnIdOf("a2a2a2a2"), env: f.env });
    const sub = join(worktree.dir, "lib");
    await mkdir(sub);
    await f.git(sub, "init", "-q", "-b", "main");
    await writeFiles(sub, { "work.txt": "precious\n" });
    await writeFiles(worktree.dir, { "top.txt": "top\n" });
    // Holds for data (nothing deleted) but every later capture and reclaim fails the same way, and
    // even top.txt is never committed: the worktree stays until a human fixes it.
    await expect(captureWorktree(worktree, { env: f.env })).rejects.toMatchObject({ code: "io_error", message: expect.stringContaining("does not have a commit checked out") });
    expect(await exists(join(sub, "work.txt"))).toBe(true);
  });

  // DEFECT (misreport, and a user branch modified): a teammate that checks out an existing branch
  // in its worktree gets its leftovers committed onto THAT branch (the user's `feature`), and the
  // capture reports kept: false. The harness (#keepWorktree) then tells the leader "had no
  // changes; it and its empty branch ... were removed" and drops cap.notes, the only place
  // saying where the work went. Same for a detached HEAD: the rescue branch is only in notes.
  it.fails("work committed on another branch is reported as kept work, not as 'no changes'", async () => {
    const f = await fixture();
    const repo = await f.repo();
    await f.git(repo, "branch", "feature");
    const { worktree } = await prepareWorktree({ repoCwd: repo, worktreesRoot: f.worktreesRoot, name: "co", spawnId: spawnIdOf("a3a3a3a3"), env: f.env });
    await f.git(worktree.dir, "checkout", "-q", "feature");
    await writeFiles(worktree.dir, { "x.txt": "x\n" });
    const cap = await captureWorktree(worktree, { env: f.env });
    expect(await f.git(repo, "log", "-1", "--format=%s", "feature")).toBe("pi-resident-teams: work of co left at shutdown");
    expect(await branchesOf(f, repo)).toEqual(["feature", "main"]);
    expect(cap.committed).toBe(true);
    expect(cap.kept).toBe(true); // fails: kept is false, so the leader is told there were no changes
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
