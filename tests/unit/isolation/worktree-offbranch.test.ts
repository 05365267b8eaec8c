/**
 * Captures of a worktree whose HEAD left the teammate's branch: no branch but the own one and
 * rescue branches is ever moved, and every place holding work is reported.
 */
import { describe, expect, it } from "vitest";
import { captureWorktree, prepareWorktree } from "../../../src/isolation/index.ts";
import { branchesOf, spawnIdOf, useGitFixture, writeFiles, type GitFixture } from "./git-fixture.ts";

const fixture = useGitFixture();

async function setUp(f: GitFixture, name: string, first8: string) {
  const repo = await f.repo();
  const { worktree } = await prepareWorktree({ repoCwd: repo, worktreesRoot: f.worktreesRoot, name, spawnId: spawnIdOf(first8), env: f.env });
  return { repo, wt: worktree };
}

async function commitIn(f: GitFixture, dir: string, files: Record<string, string>, message: string): Promise<string> {
  await writeFiles(dir, files);
  await f.git(dir, "add", "-A");
  await f.gitAs(dir, "commit", "-q", "-m", message);
  return f.git(dir, "rev-parse", "HEAD");
}

describe("HEAD off the teammate's branch", () => {
  it("leftovers on a detached HEAD the branch has moved past go to a rescue branch", async () => {
    const f = await fixture();
    const { repo, wt } = await setUp(f, "res", "r1r1r1r1");
    await commitIn(f, wt.dir, { "mine.txt": "mine\n" }, "res: mine");
    await f.git(wt.dir, "checkout", "-q", "--detach", "HEAD~1");
    await writeFiles(wt.dir, { "late.txt": "late\n" });
    const cap = await captureWorktree(wt, { env: f.env });
    expect(cap).toMatchObject({ kept: true, committed: true, commits: 1, removed: true });
    expect(cap.otherBranches).toHaveLength(1);
    const [rescue] = cap.otherBranches;
    expect(rescue).toMatchObject({ created: true, branch: expect.stringMatching(new RegExp(`^${wt.branch}-rescue-[0-9a-f]{8}$`)) });
    expect(rescue?.diffCommand).toBe(`git diff ${wt.base}...${rescue?.branch}`);
    expect(await f.git(repo, ...rescue!.diffCommand.split(" ").slice(1))).toContain("+late");
    expect(await f.git(repo, "log", "-1", "--format=%an|%s", rescue!.branch)).toBe("pi-resident-teams|pi-resident-teams: work of res left at shutdown");
    expect(cap.notes.join(" ")).toContain(`kept as branch ${rescue?.branch}`);
  });

  it("a commit made on a detached HEAD gets a rescue branch and the empty own branch goes", async () => {
    const f = await fixture();
    const { repo, wt } = await setUp(f, "dc", "d2d2d2d2");
    await f.git(wt.dir, "checkout", "-q", "--detach");
    const sha = await commitIn(f, wt.dir, { "d.txt": "d\n" }, "dc: on detached");
    const cap = await captureWorktree(wt, { env: f.env });
    const branch = `${wt.branch}-rescue-${sha.slice(0, 8)}`;
    expect(cap).toMatchObject({ kept: false, committed: false, removed: true, otherBranches: [{ branch, created: true }] });
    expect(await branchesOf(f, repo)).toEqual(["main", branch]);
    expect(await f.git(repo, "rev-parse", branch)).toBe(sha);
  });

  it("leftovers on a user's branch that moved past the start go to a rescue branch; that branch does not move", async () => {
    const f = await fixture();
    const { repo, wt } = await setUp(f, "fb", "f3f3f3f3");
    await f.git(repo, "checkout", "-q", "-b", "feature");
    const userTip = await commitIn(f, repo, { "user.txt": "user\n" }, "user: feature work");
    await f.git(repo, "checkout", "-q", "main");
    await f.git(wt.dir, "checkout", "-q", "feature");
    await writeFiles(wt.dir, { "t.txt": "teammate\n" });
    const cap = await captureWorktree(wt, { env: f.env });
    expect(await f.git(repo, "rev-parse", "feature")).toBe(userTip);
    expect(cap).toMatchObject({ kept: false, committed: true, removed: true });
    const rescue = cap.otherBranches[0]!;
    expect(rescue.created).toBe(true);
    expect(await f.git(repo, "rev-parse", `${rescue.branch}~1`)).toBe(userTip);
    expect(await f.git(repo, "show", `${rescue.branch}:t.txt`)).toBe("teammate");
    expect(cap.notes.join(" ")).toMatch(/was on feature at [0-9a-f]{12}, not on .*kept as branch .* \(feature itself was not changed\)/);
  });

  it("commits on a branch the teammate made are reported on that branch, which is left as it is", async () => {
    const f = await fixture();
    const { repo, wt } = await setUp(f, "tb", "t4t4t4t4");
    await f.git(wt.dir, "checkout", "-q", "-b", "topic");
    const tip = await commitIn(f, wt.dir, { "topic.txt": "topic\n" }, "tb: topic");
    const cap = await captureWorktree(wt, { env: f.env });
    expect(cap).toMatchObject({
      kept: false,
      committed: false,
      otherBranches: [{ branch: "topic", created: false, diffCommand: `git diff ${wt.base}...topic` }],
    });
    expect(await f.git(repo, "rev-parse", "topic")).toBe(tip);
    expect(cap.notes.join(" ")).toContain("topic holds commits that");
  });

  it("a checkout of a branch the own branch contains, with nothing left, is only a note", async () => {
    const f = await fixture();
    const { repo, wt } = await setUp(f, "nb", "n5n5n5n5");
    await f.git(repo, "branch", "old");
    await f.git(wt.dir, "checkout", "-q", "old");
    const cap = await captureWorktree(wt, { env: f.env });
    expect(cap).toMatchObject({ kept: false, committed: false, otherBranches: [], removed: true });
    expect(cap.notes.join(" ")).toContain(`${wt.branch} contains that commit`);
  });

  it("leftovers on an unborn orphan branch become a root commit on a rescue branch", async () => {
    const f = await fixture();
    const { repo, wt } = await setUp(f, "or", "o6o6o6o6");
    await f.git(wt.dir, "checkout", "-q", "--orphan", "fresh");
    await writeFiles(wt.dir, { "o.txt": "o\n" });
    const cap = await captureWorktree(wt, { env: f.env });
    const rescue = cap.otherBranches[0]!;
    expect(rescue).toMatchObject({ created: true, diffCommand: `git log -p ${rescue.branch}` });
    expect(await f.git(repo, "show", `${rescue.branch}:o.txt`)).toBe("o");
    expect(await branchesOf(f, repo)).not.toContain("fresh");
    expect(cap.notes.join(" ")).toContain("was on fresh with no commit yet");
  });
});
