/**
 * Issue 3 acceptance (b), (e), (f) on the real pi CLI: dependency chains complete in order,
 * overlapping resources are not claimable while held, superseding a claimed task re-points its
 * dependent and tells the live holder, and a SIGKILLed claimer's task returns to pending while
 * board.json stays a valid board throughout.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseBoardFile } from "../../src/board/index.ts";
import { readRosterFile } from "../../src/mail/index.ts";
import { agentFile } from "../support/leader.ts";
import {
  boardWorker,
  cmd,
  create,
  holderName,
  leaderCommands,
  send,
  spawnIdle,
  startBoardTeam,
  taskOf,
  toolResultsSeen,
  until,
  type BoardTeam,
} from "../support/board.ts";

const AGENTS = { "worker.md": agentFile("worker", "You are a worker.", { tools: "read" }) };
/** Notices may repeat at once (the default pace is 5 minutes). */
const FAST_NOTICES = { PI_TEAMMATE_NOTICE_PACE_MS: "0" };

let team: BoardTeam | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
});

/** True when `text` holds a board notice naming task `id`. */
function noticeNames(text: string, id: string): boolean {
  return text.includes("Board notice:") && text.includes(`- \`${id}\`:`);
}

/** The task ids of every task_claim / task_submit a teammate's model made, in arrival order. */
function boardCalls(t: BoardTeam, tool: string): { agent: string; taskId: string; seq: number }[] {
  return t.model.calls.flatMap((c) =>
    (c.reply?.toolCalls ?? []).filter((x) => x.name === tool).map((x) => ({ agent: c.agent, taskId: String(x.arguments.taskId), seq: c.seq })),
  );
}

describe("dependencies and resources", () => {
  it("a chain A → B → C with resources completes in order, and claiming C early is rejected as blocked", async () => {
    const worker = boardWorker({ claimNotices: true, submitAfterClaim: true });
    team = await startBoardTeam({
      agents: AGENTS,
      extraEnv: FAST_NOTICES,
      scripts: {
        leader: leaderCommands({
          SPAWN: [spawnIdle("alice"), spawnIdle("bob")],
          CHAIN: [
            create({ subject: "Chain step A", resources: ["app/api"] }),
            create({ subject: "Chain step B", dependsOn: ["chain-step-a"], resources: ["app/api"] }),
            create({ subject: "Chain step C", dependsOn: ["chain-step-b"], resources: ["app/api/routes"] }),
            send("bob", cmd("claim", "chain-step-c")),
          ],
        }),
        alice: worker,
        bob: worker,
      },
    });
    await team.run("SPAWN");
    await team.run("CHAIN");
    const creates = team.toolEnds("task_create");
    expect(creates.map((c) => c.isError)).toEqual([false, false, false]);
    expect(creates[1]!.text).toContain("It waits for `chain-step-a` to complete");

    const file = await team.waitBoard((f) => f.tasks.every((t) => t.state.status === "completed"), 60_000);
    const done = ["chain-step-a", "chain-step-b", "chain-step-c"].map((id) => {
      const s = taskOf(file, id)!.state;
      return s.status === "completed" ? s.completedAt : Number.NaN;
    });
    expect(done[0]).toBeLessThan(done[1]!);
    expect(done[1]).toBeLessThan(done[2]!);

    // Submits happened in chain order, and each accepted claim came after the previous completion.
    expect(boardCalls(team, "task_submit").map((s) => s.taskId)).toEqual(["chain-step-a", "chain-step-b", "chain-step-c"]);
    const claims = boardCalls(team, "task_claim");
    const submits = boardCalls(team, "task_submit");
    const acceptedClaim = (id: string) => claims.filter((c) => c.taskId === id).at(-1)!;
    expect(acceptedClaim("chain-step-b").seq).toBeGreaterThan(submits[0]!.seq);
    expect(acceptedClaim("chain-step-c").seq).toBeGreaterThan(submits[1]!.seq);

    // Notices were shared out, not broadcast: each task was offered to exactly one teammate.
    for (const id of ["chain-step-a", "chain-step-b", "chain-step-c"]) {
      const told = new Set(team.model.calls.filter((c) => c.toolResults.length === 0 && noticeNames(c.lastUser, id)).map((c) => c.agent));
      expect([id, told.size]).toEqual([id, 1]);
    }

    // Bob's early claim of C was refused because its dependency was not done.
    const bobClaims = toolResultsSeen(team.model, "bob", "task_claim");
    expect(bobClaims[0]).toContain("task_claim rejected (blocked)");
    expect(bobClaims[0]).toContain("Task `chain-step-c` is blocked by unfinished dependencies: `chain-step-b`");
  });

  it("a task whose resources overlap a held one is not claimable until that holding ends", async () => {
    const worker = boardWorker(); // acts on leader directives only
    team = await startBoardTeam({
      agents: AGENTS,
      extraEnv: FAST_NOTICES,
      scripts: {
        leader: leaderCommands({
          SPAWN: [spawnIdle("alice"), spawnIdle("bob")],
          HOLD: [create({ subject: "Migrate the database", resources: ["db"] }), send("alice", cmd("claim", "migrate-the-database"))],
          OVERLAP: [
            create({ subject: "Tweak the schema", resources: ["db/schema"] }),
            send("bob", cmd("claim", "tweak-the-schema")),
          ],
          RELEASE: [send("alice", cmd("submit", "migrate-the-database"))],
          RETRY: [send("bob", cmd("claim", "tweak-the-schema"))],
        }),
        alice: worker,
        bob: worker,
      },
    });
    await team.run("SPAWN");
    await team.run("HOLD");
    await team.waitBoard((f) => holderName(taskOf(f, "migrate-the-database")) === "alice");

    await team.run("OVERLAP");
    const overlapCreate = team.toolEnds("task_create")[1]!;
    expect(overlapCreate.text).toContain("Its resource `db/schema` overlaps `db`, held by @alice");
    expect(overlapCreate.text).not.toContain("Notified");
    const refused = await until("bob's first claim decision", () => toolResultsSeen(team!.model, "bob", "task_claim")[0]);
    expect(refused).toContain("task_claim rejected (resource_conflict)");
    expect(refused).toContain("Task `tweak-the-schema` needs resource `db/schema`, which overlaps `db` held by @alice on `migrate-the-database`");
    expect(taskOf(await team.waitBoard((f) => taskOf(f, "tweak-the-schema") !== undefined), "tweak-the-schema")!.state.status).toBe("pending");

    await team.run("RELEASE");
    const released = await team.waitBoard((f) => taskOf(f, "migrate-the-database")?.state.status === "completed");
    const completedAt = (taskOf(released, "migrate-the-database")!.state as { completedAt: number }).completedAt;

    await team.run("RETRY");
    const accepted = await until("bob's second claim decision", () => toolResultsSeen(team!.model, "bob", "task_claim")[1]);
    expect(accepted).toContain("Claimed task tweak-the-schema: Tweak the schema.");
    expect(accepted).toContain("Resources you now hold: db/schema.");
    const file = await team.waitBoard((f) => holderName(taskOf(f, "tweak-the-schema")) === "bob");
    const state = taskOf(file, "tweak-the-schema")!.state;
    expect(state.status === "claimed" && state.holding.claimedAt).toBeGreaterThanOrEqual(completedAt);
  });
});

describe("notices", () => {
  it("a task whose notice is still being handled is not offered to a second idle teammate", async () => {
    // alice is told about `shared-job` at task_create and answers slowly; meanwhile carol's claim
    // intent makes the leader plan notices again while bob is idle. bob must not hear about it.
    team = await startBoardTeam({
      agents: AGENTS,
      scripts: {
        leader: leaderCommands({
          SPAWN: [spawnIdle("alice"), spawnIdle("bob"), spawnIdle("carol")],
          CREATE: [
            create({ subject: "Shared job" }),
            create({ subject: "Later job", dependsOn: ["shared-job"] }),
            send("carol", cmd("claim", "no-such-task")),
          ],
          SENTINEL: [send("bob", "SENTINEL: end of test")],
        }),
        alice: (c) => {
          const r = boardWorker({ claimNotices: true })(c);
          return c.toolResults.length === 0 ? { ...r, delayMs: 1500 } : r;
        },
        bob: boardWorker({ claimNotices: true }),
        carol: boardWorker(),
      },
    });
    await team.run("SPAWN");
    await team.run("CREATE");
    expect(team.toolEnds("task_create")[0]!.text).toContain("Notified idle teammate: @alice.");
    const carolClaim = await until("carol's claim decision", () => toolResultsSeen(team!.model, "carol", "task_claim")[0]);
    expect(carolClaim).toContain("task_claim rejected (not_found)");
    const claimed = await team.waitBoard((f) => holderName(taskOf(f, "shared-job")) !== undefined);
    expect(holderName(taskOf(claimed, "shared-job"))).toBe("alice");
    // Any notice bob got was planned before alice's claim, so it reaches him before the sentinel.
    await team.run("SENTINEL");
    await team.model.waitForCall((c) => c.agent === "bob" && c.lastUser.includes("SENTINEL"), 30_000);
    const bobNotices = team.model.callsOf("bob").filter((c) => noticeNames(c.lastUser, "shared-job"));
    expect(bobNotices).toEqual([]);
    expect(toolResultsSeen(team.model, "bob", "task_claim")).toEqual([]);
  });
});

describe("supersede", () => {
  it("superseding a claimed task re-points its pending dependent and tells the live holder", async () => {
    team = await startBoardTeam({
      agents: AGENTS,
      extraEnv: FAST_NOTICES,
      scripts: {
        leader: leaderCommands({
          SPAWN: [spawnIdle("alice")],
          OLD: [create({ subject: "Old plan", resources: ["svc"] })],
          DEP: [create({ subject: "Follow up", dependsOn: ["old-plan"] })],
          NEW: [create({ subject: "New plan", resources: ["svc"], supersedes: ["old-plan"] })],
        }),
        alice: boardWorker({ claimNotices: true, ackSupersede: true }),
      },
    });
    await team.run("SPAWN");
    await team.run("OLD");
    await team.waitBoard((f) => holderName(taskOf(f, "old-plan")) === "alice");
    // alice's model has seen her accepted claim (and ended that run) before the supersede.
    await until("alice's claim decision", () => toolResultsSeen(team!.model, "alice", "task_claim")[0]);
    await team.run("DEP");
    const before = team.model.callsOf("alice").length;
    await team.run("NEW");
    const newCreate = team.toolEnds("task_create")[2]!;
    expect(newCreate.isError).toBe(false);
    expect(newCreate.text).toContain("Superseded `old-plan`");
    expect(newCreate.text).toContain("Re-pointed dependents: `follow-up` (old-plan → new-plan)");

    // The dependent now waits for the replacement; the old task is kept, superseded.
    const file = await team.waitBoard((f) => taskOf(f, "old-plan")?.state.status === "superseded");
    expect(taskOf(file, "follow-up")!.dependsOn).toEqual(["new-plan"]);
    expect(taskOf(file, "old-plan")!.state).toMatchObject({ status: "superseded", by: "new-plan" });

    // A later model call of the live holder carries the board's supersede mail (the one before it
    // may be the L31 reminder about the claim her earlier run left unsubmitted).
    const told = await until("alice's call with the supersede mail", () =>
      team!.model.callsOf("alice").slice(before).find((c) => c.lastUser.includes("is superseded by")));
    expect(told.toolResults).toEqual([]);
    expect(told.lastUser).toContain('<teammate-mail from="task-board">');
    expect(told.lastUser).toContain("Task `old-plan` is superseded by `new-plan` (New plan). Stop work on it");

    // Its acknowledgement drops the lock, so the replacement (same resource) becomes claimable and
    // the next notice lets alice claim it.
    const ack = await until("alice's acknowledgement", () => toolResultsSeen(team!.model, "alice", "task_submit")[0]);
    expect(ack).toContain("Task old-plan was superseded; your acknowledgement released its resources.");
    const after = await team.waitBoard((f) => holderName(taskOf(f, "new-plan")) === "alice");
    expect(taskOf(after, "old-plan")!.state).toEqual(expect.not.objectContaining({ holder: expect.anything() }));
  });
});

describe("crash", () => {
  it("SIGKILL of a claimer returns its task to pending; board.json stays a valid board throughout", async () => {
    team = await startBoardTeam({
      agents: AGENTS,
      scripts: {
        leader: leaderCommands({ SPAWN: [spawnIdle("alice")], CREATE: [create({ subject: "Fragile work", resources: ["lib"] })] }),
        alice: boardWorker({ claimNotices: true }),
      },
    });
    // Every read of board.json while the test runs must parse as a valid board (atomic writes).
    const boardPath = join(team.boardDir, "board.json");
    const invalid: string[] = [];
    let reads = 0;
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        try {
          const parsed = parseBoardFile(await readFile(boardPath, "utf8"));
          reads += 1;
          if (!parsed.ok) invalid.push(parsed.message);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "ENOENT") invalid.push(String(error));
        }
        await new Promise((r) => setTimeout(r, 10));
      }
    })();

    await team.run("SPAWN");
    const pid = team.toolEnds("teammate_spawn")[0]!.details.pid as number;
    const roster = await readRosterFile(join(team.runtimeDir, "roster.json"));
    expect(roster.ok && roster.value.teammates.find((t) => t.name === "alice")?.pid).toBe(pid);
    await team.run("CREATE");
    await team.waitBoard((f) => holderName(taskOf(f, "fragile-work")) === "alice");

    process.kill(pid, "SIGKILL");
    const file = await team.waitBoard((f) => taskOf(f, "fragile-work")?.state.status === "pending");
    expect(taskOf(file, "fragile-work")!.lastError).toBe("@alice crashed while holding this task");
    // The leader heard about the crash as its own turn.
    const crash = await team.model.waitForCall((c) => c.agent === "leader" && c.lastUser.includes('<harness-event type="teammate_crashed" teammate="alice"'), 30_000);
    // It names the claim the crash released (R56).
    expect(crash.lastUser).toMatch(/Its board claims went back to the board \(pending again\): `fragile-work` \(/);

    watching = false;
    await watcher;
    expect(invalid).toEqual([]);
    expect(reads).toBeGreaterThan(0);
    const final = parseBoardFile(await readFile(boardPath, "utf8"));
    expect(final.ok).toBe(true);
  });
});
