/**
 * Breaker: a capture of a stopped teammate's worktree racing a same-name prepare.
 *
 * In the harness, a crashed teammate stops being `living` when its "closed" event is handled,
 * but keepWorktree (src/harness/teammate-exit.ts) only captures after that, and `m.kept` is set
 * only when the capture ends. A respawn of the same name in that window is accepted (the name is
 * free), and its prepareWorktree reclaims "leftovers of the same name": the very worktree
 * keepWorktree is capturing. Two `git add -A` in one worktree corrupt each other's index
 * ("index file smaller than expected", "Unable to write new index file"); the loser reports
 * "could not be committed" and a successor spawned with handoffFrom gets no branch (m.kept is
 * still undefined), so it starts from HEAD instead of continuing the predecessor's work.
 *
 * It failed in 3 of 3 rounds on the 2-core machine. Fixed by `WorktreeLocks`: the harness shares
 * one instance between the exit capture and every prepare and reclaim, so the two captures of the
 * dir run one after the other (whichever comes second finds the work committed, or the entry gone).
 */
import { describe, expect, it } from "vitest";
import { captureWorktree, prepareWorktree, WorktreeLocks } from "../../../src/isolation/index.ts";
import { spawnIdOf, useGitFixture, writeFiles } from "../isolation/git-fixture.ts";

const fixture = useGitFixture();

describe("breaker: capture racing a same-name prepare", () => {
  it("the exit capture and a respawn's reclaim of the same worktree both succeed", { timeout: 60_000 }, async () => {
    const f = await fixture();
    const locks = new WorktreeLocks();
    const files: Record<string, string> = { "README.md": "hello\n" };
    for (let i = 0; i < 300; i++) files[`src/f${i}.txt`] = `line ${i}\n`;
    const repo = await f.repo(files);
    for (let round = 0; round < 3; round++) {
      const { worktree } = await prepareWorktree({ repoCwd: repo, worktreesRoot: f.worktreesRoot, name: "race", spawnId: spawnIdOf(`aaaa000${round}`), env: f.env });
      const work: Record<string, string> = {};
      for (let i = 0; i < 50; i++) work[`out/w${i}.txt`] = `work ${round} ${i}\n`;
      await writeFiles(worktree.dir, work);
      const [cap, next] = await Promise.all([
        captureWorktree(worktree, { env: f.env, locks }).then((c) => c, (e: unknown) => String(e)),
        prepareWorktree({ repoCwd: repo, worktreesRoot: f.worktreesRoot, name: "race", spawnId: spawnIdOf(`bbbb000${round}`), env: f.env, locks }),
      ]);
      expect(typeof cap === "string" ? cap : "ok").toBe("ok"); // the harness's own capture must not fail
      expect(next.reclaimed.unclaimed).toEqual([]);
      // Whichever ran first committed the work; the branch has it either way.
      if (typeof cap !== "string") expect(cap).toMatchObject({ kept: true, commits: 1, removed: true });
      expect(await f.git(repo, "show", `${worktree.branch}:out/w49.txt`)).toBe(`work ${round} 49`);
      expect(locks.busy()).toEqual([]);
      await captureWorktree(next.worktree, { env: f.env });
    }
  });
});
