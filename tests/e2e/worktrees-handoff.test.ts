/**
 * Issue 7 on the real pi CLI, with real git repositories: `handoffFrom` (R16) and worktrees left
 * by a killed leader (R20, L23).
 * - A successor spawned with `handoffFrom` and no prompt gets a kickoff naming its predecessor,
 *   the predecessor's latest assignment and reports and its kept branch, and its own worktree
 *   starts on that branch (the predecessor's file is there). `handoffFrom` a living teammate or
 *   an unknown name is refused, and starts no process.
 * - A worktree whose leader and teammate were SIGKILLed is committed onto its kept branch and
 *   removed when the next leader of the same project starts, and that leader hears of it once.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { agentFile, startLeader, type Leader } from "../support/leader.ts";
import type { RpcEvent } from "../../src/process/index.ts";
import type { ReplyToolCall } from "../support/scripted-model.ts";
import { leaderCommands, sendCall, spawnCall, startTeam, waitGone, waitUntil, type Team } from "../support/team.ts";
import { branchExists, CAPTURE_AUTHOR, git, harnessEvents, NO_GIT_IDENTITY, shutdownCall, steps, worktreeSpawn, writeCall } from "../support/worktree.ts";

const AGENTS = { "builder.md": agentFile("builder", "You are a builder.", { tools: "read, write, edit, bash", worktree: "true" }) };
const ANN_TASK = "ASSIGNMENT-OF-ANN: make a.txt hold the answer.";

const handoffCall = (name: string, from: string): ReplyToolCall => ({ name: "teammate_spawn", arguments: { name, agent: "builder", handoffFrom: from } });

let team: Team | undefined;
let next: Leader | undefined;
afterEach(async () => {
  try {
    await next?.stop();
  } finally {
    next = undefined;
    await team?.stop();
    team = undefined;
  }
});

describe("handoffFrom", () => {
  it("the successor's kickoff names the predecessor's assignment, reports and branch, and its worktree starts on that branch", async () => {
    team = await startTeam({
      agents: AGENTS,
      leaderEnv: NO_GIT_IDENTITY,
      scripts: {
        leader: leaderCommands({
          GO: [spawnCall("ann", "builder", ANN_TASK)],
          EARLY: [handoffCall("cal", "ann")],
          GHOST: [handoffCall("dee", "nobody")],
          SD: [shutdownCall("ann")],
          NEXT: [handoffCall("ben", "ann")],
        }),
        ann: steps(
          { toolCalls: [writeCall("a.txt", "ANN-WORK\n")] },
          { toolCalls: [sendCall("leader", "wrote a.txt, now stuck", "in_progress")] },
          { toolCalls: [sendCall("leader", "ran out of ideas", "failed")] },
        ),
        ben: steps({ toolCalls: [sendCall("leader", "BEN-TOOK-OVER", "completed")] }),
      },
    });
    const t = team;
    const { cwd } = t.env;
    await t.run("GO");
    const ann = worktreeSpawn(t, "ann");
    await waitUntil("ann's failed report", () => t.leader.customMessages("teammate-report").some((m) => m.content.includes("ran out of ideas")), 30_000);

    // While ann lives, and for a name that never ran: refused, nothing started.
    await t.run("EARLY");
    await t.run("GHOST");
    const [early, ghost] = t.toolEnds("teammate_spawn").slice(1);
    expect(early).toMatchObject({ isError: true });
    expect(early!.text).toContain('handoffFrom: "ann" is still living');
    expect(ghost).toMatchObject({ isError: true });
    expect(ghost!.text).toContain('handoffFrom: no teammate named "nobody" ran in this session');
    expect([...t.pids]).toEqual([ann.pid]);
    expect(t.model.calls.filter((c) => c.agent === "cal" || c.agent === "dee")).toEqual([]);

    await t.run("SD");
    await waitUntil("ann's worktree_kept event", () => harnessEvents(t, "worktree_kept", "ann").length > 0, 20_000);
    expect(existsSync(ann.worktree.dir)).toBe(false);
    expect(git(cwd, "show", `${ann.worktree.branch}:a.txt`)).toBe("ANN-WORK");

    await t.run("NEXT");
    const ben = worktreeSpawn(t, "ben");
    expect(ben.worktree.branch).not.toBe(ann.worktree.branch);
    expect(ben.worktree.base).toBe(ann.worktree.base);
    // Read while ben is alive: its worktree holds ann's committed work.
    expect(readFileSync(join(ben.worktree.dir, "a.txt"), "utf8")).toBe("ANN-WORK\n");
    expect(git(ben.worktree.dir, "rev-parse", "HEAD")).toBe(git(cwd, "rev-parse", ann.worktree.branch));

    const first = await t.model.waitForCall((c) => c.agent === "ben", 30_000);
    expect(first).toBe(t.model.callsOf("ben")[0]);
    const kickoff = first.lastUser;
    expect(kickoff).toContain("You take over from @ann");
    expect(kickoff).toContain(ANN_TASK);
    expect(kickoff).toContain("wrote a.txt, now stuck");
    expect(kickoff).toContain("ran out of ideas");
    expect(kickoff).toContain(ann.worktree.branch);
    expect(kickoff).toContain("your worktree starts from that branch");
  });
});

describe("a worktree left by a killed leader", () => {
  it("is committed onto its kept branch and removed when the next leader of the project starts", async () => {
    team = await startTeam({
      agents: AGENTS,
      leaderEnv: NO_GIT_IDENTITY,
      scripts: {
        leader: leaderCommands({ GO: [spawnCall("eve", "builder", "Write the leftover.")] }),
        eve: steps({ toolCalls: [writeCall("left/over.txt", "LEFT-BY-EVE\n")] }, { toolCalls: [sendCall("leader", "EVE-WROTE-IT", "completed")] }),
      },
    });
    const t = team;
    const { cwd } = t.env;
    await t.run("GO");
    const eve = worktreeSpawn(t, "eve");
    await waitUntil("eve's report", () => t.leader.customMessages("teammate-report").some((m) => m.content.includes("EVE-WROTE-IT")), 30_000);
    expect(readFileSync(join(eve.worktree.dir, "left", "over.txt"), "utf8")).toBe("LEFT-BY-EVE\n");

    process.kill(t.leader.pid, "SIGKILL");
    process.kill(eve.pid, "SIGKILL");
    expect((await waitGone([t.leader.pid, eve.pid], 10_000)).alive).toEqual([]);
    // Nobody captured it: the dir and its uncommitted file are still there.
    expect(existsSync(join(eve.worktree.dir, "left", "over.txt"))).toBe(true);
    expect(git(cwd, "rev-parse", eve.worktree.branch)).toBe(eve.worktree.base);
    expect(existsSync(t.runtimeDir)).toBe(true);

    next = await startLeader(t.env, { extraEnv: NO_GIT_IDENTITY });
    const leader = next;
    await waitUntil("the reclaim's worktree_kept event", () => harnessEvents({ leader }, "worktree_kept").length > 0, 30_000);
    // A barrier: a prompt's run settles after the event's turn, and no second event came.
    const from = leader.events.length;
    await leader.prompt("PING-AFTER-RECLAIM");
    const isPing = (e: RpcEvent): boolean => e.type === "message_end" && JSON.stringify(e.message).includes("PING-AFTER-RECLAIM");
    const ping = leader.events.indexOf(await leader.waitForEvent((e, i) => i >= from && isPing(e)));
    await leader.waitForEvent((e, i) => i > ping && e.type === "agent_settled");
    const events = harnessEvents({ leader }, "worktree_kept");
    expect(events).toHaveLength(1);
    const event = events[0]!;
    expect(event).toContain(eve.worktree.branch);
    expect(event).toContain(`git diff ${eve.worktree.base}..${eve.worktree.branch}`);
    expect(event).toContain("left/over.txt");

    expect(existsSync(eve.worktree.dir)).toBe(false);
    expect(branchExists(cwd, eve.worktree.branch)).toBe(true);
    expect(git(cwd, "show", `${eve.worktree.branch}:left/over.txt`)).toBe("LEFT-BY-EVE");
    expect(git(cwd, "log", "-1", "--format=%an%n%ae", eve.worktree.branch)).toBe(CAPTURE_AUTHOR);
    expect(git(cwd, "worktree", "list", "--porcelain")).not.toContain(eve.worktree.dir);
    expect(existsSync(join(cwd, "left"))).toBe(false);
  });
});
