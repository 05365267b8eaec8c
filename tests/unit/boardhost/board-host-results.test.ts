/**
 * BoardHost shell for issue 6 items 4 and 5: a parked task's resubmit intent is refused with no
 * reviewer, `allowResubmit` (the leader's reopen) lets exactly one through, escalations name the
 * holder, task_list shows one task in full, and the board-settled summary is delivered once.
 */
import { TeamBus } from "../../../src/team/bus.ts";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBoard, createTask, claimTask, gateOutcome, submitTask, type Effect } from "../../../src/board/index.ts";
import { BoardHost } from "../../../src/boardhost/board-host.ts";
import type { BoardMate } from "../../../src/boardhost/board-host-types.ts";
import type { BoardEscalation, BoardSettled } from "../../../src/board/index.ts";
import { SpawnKeys } from "../../../src/mail/index.ts";
import { boardLayoutAt, type BoardLayout } from "../../../src/store/index.ts";
import type { BoardTrailPort } from "../../../src/boardhost/board-trail.ts";
import { pipeAnswers, plantBoard } from "../../support/board-host.ts";
import type { IntentAnswer } from "../../../src/boardhost/board-apply.ts";
import { sealedIntent } from "../../support/sealed-intents.ts";

const ALICE: BoardMate = { name: "alice", spawnId: "alice-1", idle: true, hasAssignment: false, assignmentResources: undefined, roleVerify: undefined };

let dir: string;
let layout: BoardLayout;
let host: BoardHost | undefined;
let notes: string[];
let told: string[];
let settled: BoardSettled[];
let escalations: BoardEscalation[];
let working: boolean;
let keys: SpawnKeys;
let trail: BoardTrailPort | undefined;
let pipes: ReturnType<typeof pipeAnswers>;

beforeEach(async () => {
  trail = undefined;
  keys = new SpawnKeys();
  keys.issue("alice", "alice-1");
  dir = await mkdtemp(join(tmpdir(), "board-host-results-"));
  layout = boardLayoutAt(join(dir, "agent", "tasks", "key"));
  notes = [];
  pipes = pipeAnswers(notes);
  told = [];
  settled = [];
  escalations = [];
  working = false;
});
afterEach(async () => {
  await host?.close();
  host = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function startHost(spawning: string[] = []): Promise<BoardHost> {
  const bus = new TeamBus();
  bus.on("tell", ({ text }) => told.push(text));
  bus.on("escalate", ({ escalation }) => escalations.push(escalation));
  bus.on("board_settled", ({ summary }) => settled.push(summary));
  host = new BoardHost({
    bus,
    ...(trail ? { trail } : {}),
    layout,
    keys,
    answer: pipes.answer,
    cwd: dir,
    piCli: "pi-not-used",
    env: {},
    mates: () => [ALICE],
    teamWorking: () => working,
    spawning: () => spawning,
    teamModel: () => undefined,
    note: (text) => notes.push(text),
    paceMs: 0,
    intentGraceMs: 50,
  });
  await host.start();
  return host;
}

const tokenOf = (effects: readonly Effect[]) => {
  const e = effects.find((x) => x.type === "start_reviewer");
  return e?.type === "start_reviewer" ? e.token : "";
};

/** Plants a board.json with `gated` parked with alice after two FAILs, plus a completed task. */
async function plantParked(): Promise<void> {
  const board = createBoard();
  createTask(board, { subject: "Gated", verify: "works" }, 1);
  createTask(board, { subject: "Done" }, 1);
  const who = { name: "alice", spawnId: "alice-1" };
  claimTask(board, { holder: { ...who, hasAssignment: false }, taskId: "done" }, 2);
  submitTask(board, { holder: who, taskId: "done", status: "completed", result: `DONE-RESULT ${"r".repeat(400)} END` }, 3);
  claimTask(board, { holder: { ...who, hasAssignment: false }, taskId: "gated" }, 4);
  for (const n of [1, 2]) gateOutcome(board, { token: tokenOf(submitTask(board, { holder: who, taskId: "gated", status: "completed", result: "r" }, 5).effects), text: "VERDICT: FAIL - no" }, 6 + n);
  trail = await plantBoard(layout, board); // as the leader before this one wrote it
}

async function submitIntent(id: string, taskId: string, status: "completed" | "failed"): Promise<IntentAnswer> {
  await mkdir(layout.submissionsDir, { recursive: true });
  await writeFile(join(layout.submissionsDir, `${id}.json`), JSON.stringify(sealedIntent(keys, { id, from: "alice", spawnId: "alice-1", action: "submit", taskId, status, result: "again" })));
  return pipes.decision(id);
}

describe("BoardHost: parked tasks stay parked", () => {
  it("refuses resubmit intents of a parked task with no reviewer until the leader reopens the holder, then lets one through", async () => {
    await plantParked();
    const b = await startHost();
    for (const id of ["s1", "s2", "s3"]) {
      const d = await submitIntent(id, "gated", "completed");
      expect(d).toMatchObject({ ok: false, reason: "parked" });
      expect(String(d.message)).toContain("Do not resubmit");
    }
    expect(notes.filter((n) => n.startsWith("reviewer of"))).toEqual([]);

    const line = b.allowResubmit({ name: "alice", spawnId: "alice-1" });
    expect(line).toContain("one more review attempt allowed for `gated`");
    expect(told.at(-1)).toContain("The leader allows one more review attempt of `gated`");
    expect(b.allowResubmit({ name: "bob", spawnId: "bob-1" })).toBeUndefined();
    const ok = await submitIntent("s4", "gated", "completed");
    expect(ok).toMatchObject({ ok: true });
    // A third review ran: here its reviewer cannot start ("pi-not-used"), and such a review ends
    // at once as a missing verdict, back to parked, so the attempt count is what shows it.
    const state = b.board.tasks.get("gated")?.state;
    expect(state && "holding" in state ? state.holding.reviews : undefined).toBe(3);
  });
});

describe("BoardHost: task_list({ taskId })", () => {
  it("shows one task with its whole result; an unknown id is a not_found error listing the ids", async () => {
    await plantParked();
    const b = await startHost();
    const page = b.list([], {}, "test board");
    expect(page).toContain("result: DONE-RESULT");
    expect(page).toContain('(full result: task_list({ taskId: "done" }))');
    expect(page).not.toContain(" END");
    expect(b.list([], { taskId: "done" }, "test board")).toContain(`DONE-RESULT ${"r".repeat(400)} END`);
    expect(() => b.list([], { taskId: "ghost" }, "test board")).toThrow(/task_list: taskId: no task "ghost" on this board\. Task ids: `gated`, `done`/);
  });
});

describe("BoardHost: board-settled summary", () => {
  it("is not delivered for a board that was already settled when the leader started", async () => {
    await plantParked();
    const b = await startHost();
    b.offerWork();
    expect(settled).toEqual([]);
  });

  it("is delivered once when the last task completes and nobody works, and again only after new work settles", async () => {
    const b = await startHost();
    b.create({ subject: "One" }, "test board");
    working = true;
    expect((await submitIntentAfterClaim("one")).ok).toBe(true);
    expect(settled).toEqual([]); // the holder still works
    working = false;
    b.offerWork(); // the holder went idle
    b.offerWork();
    expect(settled).toHaveLength(1);
    expect(settled[0]!.text).toContain("- `one` [completed] One · by @alice · result: again");
    b.create({ subject: "Two" }, "test board");
    b.offerWork();
    expect(settled).toHaveLength(1);
    expect((await submitIntentAfterClaim("two")).ok).toBe(true);
    expect(settled).toHaveLength(2);
    expect(settled[1]!.text).toContain("2 tasks (2 completed)");
  });
});

describe("BoardHost: task_create while a teammate is being spawned", () => {
  it("says the task reaches it once it is ready instead of asking for teammate_spawn", async () => {
    host = new BoardHost({
      layout,
      keys,
      answer: pipes.answer,
      cwd: dir,
      piCli: "pi-not-used",
      env: {},
      mates: () => [],
      bus: new TeamBus(),
      spawning: () => ["alice"],
      teamModel: () => undefined,
      note: () => undefined,
      paceMs: 0,
    });
    await host.start();
    const text = host.create({ subject: "Docs" }, "test board");
    expect(text).not.toContain("No teammate is alive");
    expect(text).toContain("@alice is starting; the task reaches it once it is ready");
    expect(host.workFor("alice")).toEqual({ offered: [], claimable: ["docs"] });
  });
});

async function submitIntentAfterClaim(taskId: string): Promise<IntentAnswer> {
  const id = `c-${taskId}`;
  await mkdir(layout.claimsDir, { recursive: true });
  await writeFile(join(layout.claimsDir, `${id}.json`), JSON.stringify(sealedIntent(keys, { id, from: "alice", spawnId: "alice-1", action: "claim", taskId })));
  await pipes.decision(id);
  return submitIntent(`s-${taskId}`, taskId, "completed");
}
