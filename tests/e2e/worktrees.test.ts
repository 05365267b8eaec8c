/**
 * Issue 7 on the real pi CLI, with real git repositories: worktree teammates (R20, L23, W14).
 * - A `worktree: true` teammate works in its own `git worktree` on `pi-team/<name>-<spawn8>`;
 *   when it is shut down its edits are committed onto that branch with the fixed identity (the
 *   team's git has no user identity at all), the dir is removed, the branch kept, the shared tree
 *   is untouched, and the leader gets ONE worktree_kept event with the diffstat and the diff command.
 * - A SIGKILLed worktree teammate's edit is kept the same way (a crash event arrives too).
 * - A worktree role outside a git work tree, or in a repository without a commit, is refused with
 *   an error naming the directory; no process starts and no worktree dir is made.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sessionKey } from "../../src/store/layout.ts";
import { agentFile } from "../support/leader.ts";
import { isAlive, leaderCommands, sendCall, spawnCall, startTeam, waitGone, waitUntil, type Team } from "../support/team.ts";
import {
  branchExists,
  CAPTURE_AUTHOR,
  git,
  harnessEvents,
  NO_GIT_IDENTITY,
  readCall,
  shutdownCall,
  steps,
  worktreeSpawn,
  writeCall,
} from "../support/worktree.ts";

const AGENTS = { "builder.md": agentFile("builder", "You are a builder.", { tools: "read, write, edit, bash", worktree: "true" }) };
const PLAN = "# Plan\n\n1. PLAN-LINE-ONE\n";
const NEW_README = "# rewritten by Bob\n";

let team: Team | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
});

describe("a worktree teammate's work is kept on its branch", () => {
  it("after shutdown: committed with the fixed identity, dir removed, shared tree untouched, one worktree_kept event", async () => {
    team = await startTeam({
      agents: AGENTS,
      leaderEnv: NO_GIT_IDENTITY,
      scripts: {
        leader: leaderCommands({ GO: [spawnCall("Bob", "builder", "Write the plan and rewrite the README.")], SD: [shutdownCall("Bob")] }),
        Bob: steps(
          { toolCalls: [readCall("README.md")] },
          { toolCalls: [writeCall("notes/plan.md", PLAN), writeCall("README.md", NEW_README)] },
          { toolCalls: [sendCall("leader", "PLAN-WRITTEN", "completed")] },
        ),
      },
    });
    const { cwd, agentDir } = team.env;
    const readme = readFileSync(join(cwd, "README.md"), "utf8");
    const statusBefore = git(cwd, "status", "--porcelain", "--untracked-files=all");
    await team.run("GO");
    // The leader was told what the role does: a worktree of its own, not the shared tree.
    const roles = team.model.callsOf("leader")[0]!.system;
    expect(roles).toMatch(/^- builder \(project scope[^\n]*· worktree: true \(its own git worktree/m);
    expect(roles).not.toContain("not built yet");
    const bob = worktreeSpawn(team, "Bob");
    const suffix = bob.spawnId.slice(0, 8);
    expect(bob.worktree.branch).toBe(`pi-team/bob-${suffix}`);
    expect(bob.worktree.dir).toBe(join(agentDir, "worktrees", sessionKey(undefined, cwd), `bob-${suffix}`));
    expect(bob.worktree.base).toBe(git(cwd, "rev-parse", "HEAD"));
    expect(existsSync(bob.worktree.dir)).toBe(true);

    const t = team;
    await waitUntil("Bob's report", () => t.leader.customMessages("teammate-report").some((m) => m.content.includes("PLAN-WRITTEN")), 30_000);
    // Bob wrote in its worktree, not in the shared tree.
    expect(readFileSync(join(bob.worktree.dir, "notes", "plan.md"), "utf8")).toBe(PLAN);
    expect(readFileSync(join(bob.worktree.dir, "README.md"), "utf8")).toBe(NEW_README);
    expect(existsSync(join(cwd, "notes"))).toBe(false);
    expect(readFileSync(join(cwd, "README.md"), "utf8")).toBe(readme);

    await team.run("SD");
    const [shutdown] = team.toolEnds("teammate_shutdown");
    expect(shutdown).toMatchObject({ isError: false });
    await waitUntil("the worktree_kept event", () => harnessEvents(t, "worktree_kept", "Bob").length > 0, 20_000);
    await team.run("PING"); // a barrier: a second event would have arrived by now
    const kept = harnessEvents(team, "worktree_kept");
    expect(kept).toHaveLength(1);
    expect(kept[0]).toContain(`git diff ${bob.worktree.base}..${bob.worktree.branch}`);
    expect(kept[0]).toContain("notes/plan.md");

    // Real git state: the dir is gone, the branch holds both edits, the shared tree is as before.
    expect(existsSync(bob.worktree.dir)).toBe(false);
    expect(git(cwd, "worktree", "list", "--porcelain")).not.toContain(bob.worktree.dir);
    expect(branchExists(cwd, bob.worktree.branch)).toBe(true);
    expect(git(cwd, "show", `${bob.worktree.branch}:notes/plan.md`)).toBe(PLAN.trim());
    expect(git(cwd, "show", `${bob.worktree.branch}:README.md`)).toBe(NEW_README.trim());
    const stat = git(cwd, "diff", `${bob.worktree.base}..${bob.worktree.branch}`, "--stat");
    expect(stat).toContain("notes/plan.md");
    expect(stat).toContain("README.md");
    expect(git(cwd, "log", "-1", "--format=%an%n%ae", bob.worktree.branch)).toBe(CAPTURE_AUTHOR);
    expect(git(cwd, "status", "--porcelain", "--untracked-files=all")).toBe(statusBefore);
    expect(readFileSync(join(cwd, "README.md"), "utf8")).toBe(readme);
    expect(existsSync(join(cwd, "notes"))).toBe(false);
    expect(git(cwd, "rev-parse", "--abbrev-ref", "HEAD")).toBe("main");
  });

  it("after SIGKILL: the written file is committed onto the branch and the dir is removed", async () => {
    team = await startTeam({
      agents: AGENTS,
      leaderEnv: NO_GIT_IDENTITY,
      scripts: {
        leader: leaderCommands({ GO: [spawnCall("cara", "builder", "Draft it.")] }),
        cara: steps({ toolCalls: [writeCall("wip/draft.txt", "DRAFT-BEFORE-KILL\n")] }, { delayMs: 120_000, text: "never sent" }),
      },
    });
    const { cwd } = team.env;
    await team.run("GO");
    const cara = worktreeSpawn(team, "cara");
    // Its second model call answers the write: the file is on disk, and the model hangs now.
    await team.model.waitForCall((c) => c.agent === "cara" && c.toolResults.length > 0, 30_000);
    expect(readFileSync(join(cara.worktree.dir, "wip", "draft.txt"), "utf8")).toBe("DRAFT-BEFORE-KILL\n");

    process.kill(cara.pid, "SIGKILL");
    expect((await waitGone([cara.pid], 10_000)).alive).toEqual([]);
    const t = team;
    await waitUntil("the worktree_kept event", () => harnessEvents(t, "worktree_kept", "cara").length > 0, 20_000);
    await waitUntil("the crash event", () => harnessEvents(t, "teammate_crashed", "cara").length > 0, 20_000);
    expect(harnessEvents(team, "worktree_kept", "cara")[0]).toContain(`git diff ${cara.worktree.base}..${cara.worktree.branch}`);

    expect(existsSync(cara.worktree.dir)).toBe(false);
    expect(branchExists(cwd, cara.worktree.branch)).toBe(true);
    expect(git(cwd, "show", `${cara.worktree.branch}:wip/draft.txt`)).toBe("DRAFT-BEFORE-KILL");
    expect(git(cwd, "log", "-1", "--format=%an%n%ae", cara.worktree.branch)).toBe(CAPTURE_AUTHOR);
    expect(git(cwd, "rev-list", "--count", `${cara.worktree.base}..${cara.worktree.branch}`)).toBe("1");
    expect(existsSync(join(cwd, "wip"))).toBe(false);
    expect(isAlive(cara.pid)).toBe(false);
  });
});

describe("a worktree role needs a git repository with a commit", () => {
  /** Spawns a worktree role after `breakRepo`; returns the refused spawn's text. */
  async function refusedSpawn(breakRepo: (cwd: string) => void): Promise<string> {
    team = await startTeam({ agents: AGENTS, scripts: { leader: leaderCommands({ GO: [spawnCall("dan", "builder", "Build it.")] }) } });
    const { cwd, agentDir } = team.env;
    breakRepo(cwd);
    await team.run("GO");
    const ends = team.toolEnds("teammate_spawn");
    expect(ends).toHaveLength(1);
    expect(ends[0]!.isError).toBe(true);
    // Nothing was started or made.
    expect(team.pids.size).toBe(0);
    expect(team.model.calls.filter((c) => c.agent !== "leader")).toEqual([]);
    expect(existsSync(join(agentDir, "worktrees"))).toBe(false);
    return ends[0]!.text;
  }

  it("outside a git work tree: refused, naming the directory", async () => {
    const text = await refusedSpawn((cwd) => rmSync(join(cwd, ".git"), { recursive: true, force: true }));
    expect(text).toContain(`Cannot give a teammate a worktree: ${team!.env.cwd} is not inside a git work tree (git found no repository)`);
  });

  it("in a repository with no commit yet: refused, naming the directory", async () => {
    const text = await refusedSpawn((cwd) => {
      rmSync(join(cwd, ".git"), { recursive: true, force: true });
      git(cwd, "init", "-q");
    });
    expect(text).toContain(`Cannot give a teammate a worktree of ${team!.env.cwd}: the repository has no commit yet (HEAD is unborn)`);
  });
});
