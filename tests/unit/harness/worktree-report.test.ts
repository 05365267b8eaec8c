import { describe, expect, it } from "vitest";
import type { WorktreeCapture } from "../../../src/isolation/index.ts";
import { captureHasNews, captureNote, worktreeKeptText } from "../../../src/harness/worktree-report.ts";

const BASE = "0123456789abcdef0123456789abcdef01234567";
const BRANCH = "pi-team/bob-3f2a9c1e";

function capture(over: Partial<WorktreeCapture> = {}): WorktreeCapture {
  return {
    name: "bob",
    dir: "/agent/worktrees/key/bob-3f2a9c1e",
    branch: BRANCH,
    base: BASE,
    kept: true,
    committed: true,
    commits: 2,
    diffstat: "a.txt | 1 +\n1 file changed, 1 insertion(+)",
    diffCommand: `git diff ${BASE}..${BRANCH}`,
    otherBranches: [],
    removed: true,
    nestedRepos: [],
    notes: [],
    ...over,
  };
}

const NOTHING = { kept: false, committed: false, commits: 0, diffstat: "" };

describe("what the leader hears about a capture", () => {
  it("work on the teammate's branch: the event has the diffstat, the diff and merge commands", () => {
    const text = worktreeKeptText("@bob stopped", capture());
    expect(text.split("\n")).toEqual([
      `@bob stopped; its worktree was committed and removed, and its work is kept on branch ${BRANCH} (2 commits on top of 0123456789ab).`,
      "a.txt | 1 +",
      "1 file changed, 1 insertion(+)",
      `Inspect it with: git diff ${BASE}..${BRANCH}`,
      `Merge it with: git merge ${BRANCH} (or git cherry-pick); delete it with: git branch -D ${BRANCH}.`,
    ]);
    expect(captureNote(capture())).toBe(`work kept on branch ${BRANCH}: git diff ${BASE}..${BRANCH}.`);
  });

  it("nothing at all: a note only, and 'no changes' only when the capture noted nothing", () => {
    const empty = capture(NOTHING);
    expect(captureHasNews(empty)).toBe(false);
    expect(captureNote(empty)).toBe(`worktree ${empty.dir} had no changes; it and its empty branch ${BRANCH} were removed`);
    const noted = capture({ ...NOTHING, notes: [`HEAD of ${empty.dir} was on old at 0123456789ab, not on ${BRANCH}; ${BRANCH} contains that commit.`] });
    expect(captureHasNews(noted)).toBe(false);
    expect(captureNote(noted)).not.toContain("no changes");
    expect(captureNote(noted)).toContain("was on old");
  });

  it("work only on a rescue branch: an event naming it, with the notes", () => {
    const rescue = `${BRANCH}-rescue-89abcdef`;
    const cap = capture({
      ...NOTHING,
      committed: true,
      otherBranches: [{ branch: rescue, created: true, diffCommand: `git diff ${BASE}...${rescue}` }],
      notes: [`HEAD was detached; what was left uncommitted was committed on top of it and kept as branch ${rescue}.`],
    });
    expect(captureHasNews(cap)).toBe(true);
    const text = worktreeKeptText("@bob stopped", cap);
    expect(text).toContain(`its own branch ${BRANCH} held no work and is gone`);
    expect(text).toContain(`Work is also on branch ${rescue} (a rescue branch the capture made for commits that were on no branch). Inspect it with: git diff ${BASE}...${rescue}`);
    expect(text).toContain(`Notes: HEAD was detached;`);
    expect(text).not.toContain("Merge it with");
    expect(captureNote(cap)).toContain(`work also on branch ${rescue}`);
  });

  it("the teammate's own checked-out branch is reported as left as it was", () => {
    const cap = capture({ ...NOTHING, otherBranches: [{ branch: "topic", created: false, diffCommand: `git diff ${BASE}...topic` }] });
    expect(captureHasNews(cap)).toBe(true);
    expect(worktreeKeptText("@bob stopped", cap)).toContain("Work is also on branch topic (the branch the teammate had checked out, left as it was)");
  });

  it("a dir left in place for nested repositories: an event naming the dir and the repositories", () => {
    const cap = capture({ committed: false, commits: 0, diffstat: "", removed: false, nestedRepos: ["lib", "vendor/dep"], notes: ["… was left in place: …"] });
    expect(captureHasNews(cap)).toBe(true);
    const text = worktreeKeptText("@bob stopped", cap);
    expect(text).toContain(`its worktree was left in place at ${cap.dir}, and its branch ${BRANCH} holds no commit beyond 0123456789ab.`);
    expect(text).toContain(`Nested git repositories in ${cap.dir} are not on any branch and exist only there: lib, vendor/dep.`);
    expect(text).not.toContain("Inspect it with");
    expect(captureNote(cap)).toContain(`worktree left in place at ${cap.dir}`);
    const withWork = worktreeKeptText("@bob stopped", capture({ removed: false, nestedRepos: ["lib"] }));
    expect(withWork).toContain("its worktree was committed but left in place at");
    expect(withWork).toContain(`Merge it with: git merge ${BRANCH} (or git cherry-pick).`);
  });
});
