import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { captureWorktree, discardWorktree, prepareWorktree, type Worktree } from "../../../src/isolation/index.ts";
import { modeOf } from "../store/tmp.ts";
import { branchesOf, exists, spawnIdOf, useGitFixture, writeFiles, type GitFixture } from "./git-fixture.ts";

const fixture = useGitFixture();

async function prepare(f: GitFixture, repoCwd: string, name: string, first8: string, extra: Partial<{ fromBranch: string }> = {}) {
  const { worktree, reclaimed } = await prepareWorktree({
    repoCwd,
    worktreesRoot: f.worktreesRoot,
    name,
    spawnId: spawnIdOf(first8),
    env: f.env,
    ...extra,
  });
  expect(reclaimed).toEqual({ captures: [], unclaimed: [] });
  return worktree;
}

describe("prepareWorktree refusals create nothing", () => {
  it("refuses a dir outside any git work tree", async () => {
    const f = await fixture();
    const plain = await f.tmp();
    const refusal = prepareWorktree({ repoCwd: plain, worktreesRoot: f.worktreesRoot, name: "alice", spawnId: spawnIdOf("aaaaaaaa"), env: f.env });
    await expect(refusal).rejects.toMatchObject({ code: "invalid_input", message: expect.stringContaining(`${plain} is not inside a git work tree`) });
    expect(await exists(f.worktreesRoot)).toBe(false);
  });

  it("refuses a repository with no commit yet", async () => {
    const f = await fixture();
    const unborn = await f.tmp();
    await f.git(unborn, "init", "-q");
    const refusal = prepareWorktree({ repoCwd: unborn, worktreesRoot: f.worktreesRoot, name: "alice", spawnId: spawnIdOf("aaaaaaaa"), env: f.env });
    await expect(refusal).rejects.toMatchObject({ code: "invalid_input", message: expect.stringContaining("no commit yet (HEAD is unborn)") });
    expect(await exists(f.worktreesRoot)).toBe(false);
    expect(await f.git(unborn, "worktree", "list")).not.toContain("\n");
  });

  it("refuses a fromBranch that does not exist, and a missing repoCwd", async () => {
    const f = await fixture();
    const repo = await f.repo();
    const missingBranch = prepare(f, repo, "alice", "aaaaaaaa", { fromBranch: "pi-team/nobody-12345678" });
    await expect(missingBranch).rejects.toMatchObject({ code: "invalid_input", message: expect.stringContaining("no local branch of that name") });
    const missingDir = prepare(f, join(repo, "nope"), "alice", "aaaaaaaa");
    await expect(missingDir).rejects.toMatchObject({ code: "invalid_input", message: expect.stringContaining("does not exist") });
    expect(await exists(f.worktreesRoot)).toBe(false);
    expect(await branchesOf(f, repo)).toEqual(["main"]);
  });
});

describe("prepare and capture", () => {
  it("runs in an environment where git has no identity, so plain commits fail", async () => {
    const f = await fixture();
    const repo = await f.repo();
    await expect(f.git(repo, "commit", "--allow-empty", "-m", "who am I")).rejects.toThrow(/Please tell me who you are|unable to auto-detect/);
  });

  it("commits a tracked edit and an untracked file, not an ignored one, and keeps the branch", async () => {
    const f = await fixture();
    const repo = await f.repo();
    const wt = await prepare(f, repo, "Alice", "3f2a9c1e");
    expect(wt).toMatchObject({ name: "Alice", branch: "pi-team/alice-3f2a9c1e", dir: join(f.worktreesRoot, "alice-3f2a9c1e"), repoRoot: repo });
    expect(wt.cwd).toBe(wt.dir);
    expect(wt.base).toBe(await f.git(repo, "rev-parse", "HEAD"));
    expect(await modeOf(f.worktreesRoot)).toBe(0o700);
    expect(await f.git(repo, "config", "--get", "branch.pi-team/alice-3f2a9c1e.piTeamBase")).toBe(wt.base);

    await writeFiles(wt.dir, { "README.md": "hello, changed\n", "src/new.ts": "export {};\n", "debug.log": "noise\n" });
    const capture = await captureWorktree(wt, { env: f.env });

    expect(capture).toMatchObject({ branch: wt.branch, base: wt.base, kept: true, committed: true, commits: 1, removed: true, notes: [] });
    expect(capture.diffCommand).toBe(`git diff ${wt.base}..pi-team/alice-3f2a9c1e`);
    expect(capture.diffstat).toMatch(/README\.md[\s\S]*src\/new\.ts[\s\S]*2 files changed/);
    expect(capture.diffstat).not.toContain("debug.log");
    expect(await exists(wt.dir)).toBe(false);
    expect(await exists(`${wt.dir}.json`)).toBe(false);
    expect(await f.git(repo, "worktree", "list")).not.toContain("alice");

    const diff = await f.git(repo, ...capture.diffCommand.split(" ").slice(1));
    expect(diff).toContain("+hello, changed");
    expect(diff).toContain("+++ b/src/new.ts");
    const author = await f.git(repo, "log", "-1", "--format=%an <%ae>|%s", wt.branch);
    expect(author).toBe("pi-resident-teams <teammates@pi-resident-teams.invalid>|pi-resident-teams: work of Alice left at shutdown");
  });

  it("deletes the branch when the teammate changed nothing (L23)", async () => {
    const f = await fixture();
    const repo = await f.repo();
    const wt = await prepare(f, repo, "bob", "bbbbbbbb");
    await writeFiles(wt.dir, { "only.log": "ignored output\n" });
    const capture = await captureWorktree(wt, { env: f.env });
    expect(capture).toMatchObject({ kept: false, committed: false, commits: 0, diffstat: "", removed: true });
    expect(await branchesOf(f, repo)).toEqual(["main"]);
    expect(await readFile(join(repo, ".git", "config"), "utf8")).not.toContain("piTeamBase");
    expect(await exists(wt.dir)).toBe(false);
  });

  it("keeps a teammate's own commit and adds the leftover edits on top", async () => {
    const f = await fixture();
    const repo = await f.repo();
    const wt = await prepare(f, repo, "carol", "cccccccc");
    await writeFiles(wt.dir, { "a.txt": "first\n" });
    await f.gitAs(wt.dir, "add", "a.txt");
    await f.gitAs(wt.dir, "commit", "-q", "-m", "carol: a.txt");
    await writeFiles(wt.dir, { "a.txt": "first\nsecond\n" });
    const capture = await captureWorktree(wt, { env: f.env });
    expect(capture).toMatchObject({ kept: true, committed: true, commits: 2 });
    expect(await f.git(repo, "log", "--format=%s", `${wt.base}..${wt.branch}`)).toBe(
      "pi-resident-teams: work of carol left at shutdown\ncarol: a.txt",
    );
    expect(await f.git(repo, "show", `${wt.branch}:a.txt`)).toBe("first\nsecond");
  });

  it("a teammate's commits alone are kept without a capture commit", async () => {
    const f = await fixture();
    const repo = await f.repo();
    const wt = await prepare(f, repo, "dave", "dddddddd");
    await writeFiles(wt.dir, { "b.txt": "b\n" });
    await f.gitAs(wt.dir, "add", "-A");
    await f.gitAs(wt.dir, "commit", "-q", "-m", "dave: b");
    expect(await captureWorktree(wt, { env: f.env })).toMatchObject({ kept: true, committed: false, commits: 1 });
  });

  it("starts the teammate in the same sub-dir as repoCwd", async () => {
    const f = await fixture();
    const repo = await f.repo({ "packages/app/index.ts": "x\n" });
    const wt = await prepare(f, join(repo, "packages", "app"), "erin", "eeeeeeee");
    expect(wt.repoRoot).toBe(repo);
    expect(wt.cwd).toBe(join(wt.dir, "packages", "app"));
    expect(await readFile(join(wt.cwd, "index.ts"), "utf8")).toBe("x\n");
    await captureWorktree(wt, { env: f.env });
  });

  it("reports on the branch when the dir was deleted by hand, and a second capture changes nothing", async () => {
    const f = await fixture();
    const repo = await f.repo();
    const wt = await prepare(f, repo, "frank", "ffffffff");
    await writeFiles(wt.dir, { "c.txt": "c\n" });
    await f.gitAs(wt.dir, "add", "-A");
    await f.gitAs(wt.dir, "commit", "-q", "-m", "frank: c");
    await rm(wt.dir, { recursive: true, force: true });
    const first = await captureWorktree(wt, { env: f.env });
    expect(first).toMatchObject({ kept: true, committed: false, commits: 1, removed: true });
    expect(first.diffstat).toContain("c.txt");
    expect(await f.git(repo, "worktree", "list")).not.toContain("frank");
    const again = await captureWorktree(wt, { env: f.env });
    expect(again).toEqual(first);
  });

  it("an untouched worktree whose dir was deleted by hand loses its branch", async () => {
    const f = await fixture();
    const repo = await f.repo();
    const wt = await prepare(f, repo, "gina", "99999999");
    await rm(wt.dir, { recursive: true, force: true });
    expect(await captureWorktree(wt, { env: f.env })).toMatchObject({ kept: false, removed: true });
    expect(await branchesOf(f, repo)).toEqual(["main"]);
  });

  it("removes a stale index.lock left by a killed teammate and still captures", async () => {
    const f = await fixture();
    const repo = await f.repo();
    const wt = await prepare(f, repo, "hank", "aaaa1111");
    await writeFiles(wt.dir, { "d.txt": "d\n" });
    const lock = await f.git(wt.dir, "rev-parse", "--git-path", "index.lock");
    await writeFile(lock, "");
    const capture = await captureWorktree(wt, { env: f.env });
    expect(capture).toMatchObject({ kept: true, committed: true });
    expect(capture.notes.join(" ")).toContain("stale git index lock");
  });
});

describe("successor and discard", () => {
  it("a successor started from a kept branch has the predecessor's files and base", async () => {
    const f = await fixture();
    const repo = await f.repo();
    const first = await prepare(f, repo, "ivy", "11111111");
    await writeFiles(first.dir, { "plan.md": "step 1\n" });
    const kept = await captureWorktree(first, { env: f.env });
    await f.gitAs(repo, "commit", "-q", "--allow-empty", "-m", "main moves on");

    const next = await prepare(f, repo, "ivy", "22222222", { fromBranch: kept.branch });
    expect(next).toMatchObject({ from: kept.branch, base: first.base, start: await f.git(repo, "rev-parse", kept.branch) });
    expect(await readFile(join(next.dir, "plan.md"), "utf8")).toBe("step 1\n");

    const idle = await captureWorktree(next, { env: f.env });
    expect(idle.kept).toBe(false);
    expect(await branchesOf(f, repo)).toEqual(["main", kept.branch]);
  });

  it("an explicit base must be an ancestor of the start point", async () => {
    const f = await fixture();
    const repo = await f.repo();
    await f.git(repo, "checkout", "-q", "--orphan", "other");
    await f.gitAs(repo, "commit", "-q", "-m", "unrelated");
    const other = await f.git(repo, "rev-parse", "HEAD");
    await f.git(repo, "checkout", "-q", "main");
    const refusal = prepareWorktree({ repoCwd: repo, worktreesRoot: f.worktreesRoot, name: "jo", spawnId: spawnIdOf("12121212"), base: other, env: f.env });
    await expect(refusal).rejects.toMatchObject({ code: "invalid_input", message: expect.stringContaining("is not an ancestor") });
  });

  it("discard removes the dir and the empty branch, but captures anything written", async () => {
    const f = await fixture();
    const repo = await f.repo();
    const empty = await prepare(f, repo, "kim", "33333333");
    expect(await discardWorktree(empty, { env: f.env })).toMatchObject({ kept: false, removed: true });
    expect(await exists(empty.dir)).toBe(false);
    expect(await branchesOf(f, repo)).toEqual(["main"]);

    const written = await prepare(f, repo, "kim", "44444444");
    await writeFiles(written.dir, { "e.txt": "e\n" });
    const capture = await discardWorktree(written, { env: f.env });
    expect(capture).toMatchObject({ kept: true, committed: true });
    expect(await f.git(repo, "log", "-1", "--format=%s", written.branch)).toBe("pi-resident-teams: work of kim left by a failed spawn");
  });

  it("parallel prepares and captures in one repository do not trip over git's config lock", async () => {
    const f = await fixture();
    const repo = await f.repo();
    const names = ["p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7"];
    const worktrees: Worktree[] = await Promise.all(names.map((name, i) => prepare(f, repo, name, `${i}`.repeat(8))));
    const bases = await f.git(repo, "config", "--get-regexp", "piTeamBase");
    expect(bases.split("\n")).toHaveLength(8);
    // Even-numbered teammates leave work (branch kept), odd ones none (branch and its config deleted).
    const working = worktrees.filter((_, i) => i % 2 === 0);
    await Promise.all(working.map((wt) => writeFiles(wt.dir, { [`out/${wt.name}.txt`]: "x\n" })));
    const captures = await Promise.all(worktrees.map((wt) => captureWorktree(wt, { env: f.env })));
    expect(captures.map((c) => c.kept)).toEqual(names.map((_, i) => i % 2 === 0));
    expect(await branchesOf(f, repo)).toEqual(["main", ...working.map((wt) => wt.branch)]);
  });
});
