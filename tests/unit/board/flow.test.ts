/**
 * Work that flows (W20–W22): the pace holds back only a notice after one the teammate did not act
 * on; waiting work says why; a stuck board is told apart from one that can still move; a task
 * failed twice is parked and escalated once.
 */
import { describe, expect, it } from "vitest";
import {
  DEFAULT_NOTICE_PACE_MS,
  FAILED_SUBMITS_TO_PARK,
  canProgress,
  checkSettled,
  createNoticeBook,
  planNotices,
  renderTaskList,
  shortDuration,
  stuckSummary,
  allowResubmit,
  submitTask,
  waitReason,
  whyWaiting,
  type Board,
  type NoticeBook,
  type NoticeTeammate,
} from "../../../src/board/index.ts";
import { add, finish, mate, newBoard, status, take } from "./fixture.ts";

const idle = (name: string): NoticeTeammate => ({ name, spawnId: `${name}-1`, idle: true, hasAssignment: false });
const working = (name: string): NoticeTeammate => ({ ...idle(name), idle: false });
const assigned = (name: string): NoticeTeammate => ({ ...idle(name), hasAssignment: true });
const PACE = DEFAULT_NOTICE_PACE_MS;

function plan(board: Board, book: NoticeBook, teammates: NoticeTeammate[], now: number) {
  return planNotices(board, book, { teammates, now, paceMs: PACE });
}
const input = (teammates: NoticeTeammate[], now: number) => ({ teammates, assignments: [], now, paceMs: PACE });
/** A board with task `code`, of which @bo heard at 0 ms (and, idle again, passed over). */
function boNoticed(): { board: Board; book: NoticeBook } {
  const board = newBoard();
  const book = createNoticeBook();
  add(board, "Code");
  plan(board, book, [idle("bo")], 0);
  return { board, book };
}
const why = (board: Board, book: NoticeBook, teammates: NoticeTeammate[], now: number, id: string) => waitReason(board, book, input(teammates, now), board.tasks.get(id)!);

describe("the notice pace never delays a teammate that acted (W20)", () => {
  it("a teammate that claimed from its notice hears of the next task at once when its claim ends", () => {
    const board = newBoard();
    const book = createNoticeBook();
    add(board, "Code");
    add(board, { subject: "Test", dependsOn: ["code"] });
    expect(plan(board, book, [idle("ann")], 0).effects[0]).toMatchObject({ taskIds: ["code"] });
    take(board, mate("ann"), "code");
    plan(board, book, [working("ann")], 1_000); // the claim's answer re-plans: ann holds work
    finish(board, mate("ann"), "code");
    const next = plan(board, book, [idle("ann")], 40_000); // 40 s later, far inside the 5-minute pace
    expect(next.effects[0]).toMatchObject({ to: { name: "ann" }, taskIds: ["test"] });
  });

  it("the other tasks of a notice it claimed from are not passed over: one teammate works through them all", () => {
    const board = newBoard();
    const book = createNoticeBook();
    for (const s of ["A", "B", "C"]) add(board, s);
    expect(plan(board, book, [idle("ann")], 0).effects[0]).toMatchObject({ taskIds: ["a", "b", "c"] });
    for (const [i, id] of ["a", "b", "c"].entries()) {
      if (i > 0) expect(plan(board, book, [idle("ann")], i * 10_000).effects[0]).toMatchObject({ taskIds: expect.arrayContaining([id]) });
      take(board, mate("ann"), id);
      plan(board, book, [working("ann")], i * 10_000 + 1);
      finish(board, mate("ann"), id);
    }
    expect(plan(board, book, [idle("ann")], 40_000).effects).toEqual([]);
  });

  it("a task released by a failed submission is offered again at once, to the releaser too", () => {
    const board = newBoard();
    const book = createNoticeBook();
    add(board, "Code");
    plan(board, book, [idle("ann")], 0);
    take(board, mate("ann"), "code");
    plan(board, book, [working("ann")], 1_000);
    finish(board, mate("ann"), "code", "failed");
    expect(plan(board, book, [idle("ann")], 2_000).effects[0]).toMatchObject({ taskIds: ["code"] });
  });

  it("a teammate whose offered task another teammate took first did not pass over it: it hears of other work at once", () => {
    const board = newBoard();
    const book = createNoticeBook();
    add(board, "Alpha");
    add(board, "Beta");
    const first = plan(board, book, [idle("ann"), idle("bo")], 0);
    expect(first.effects.map((e) => e.type === "notify_teammate" && [e.to.name, e.taskIds])).toEqual([["ann", ["alpha"]], ["bo", ["beta"]]]);
    take(board, mate("ann"), "beta"); // ann claims bo's task by id (task_list showed it) before bo does
    plan(board, book, [working("ann"), working("bo")], 1_000);
    // bo's task_claim("beta") is rejected (not_pending); bo ends its turn: it acted, nothing was left to take.
    const next = plan(board, book, [working("ann"), idle("bo")], 2_000);
    expect(next.effects[0]).toMatchObject({ to: { name: "bo" }, taskIds: ["alpha"] });
  });

  it("after a notice it passed over, the teammate waits out the pace, and task_list says for how long", () => {
    const { board, book } = boNoticed(); // bo passes over it
    add(board, "Docs");
    expect(plan(board, book, [idle("bo")], 60_000).effects).toEqual([]);
    expect(why(board, book, [idle("bo")], 60_000, "docs")).toBe("next notice to @bo in 4m00s");
    expect(plan(board, book, [idle("bo")], PACE).effects[0]).toMatchObject({ taskIds: ["docs"] });
  });

  it("shortDuration rounds up to whole seconds", () => {
    expect(shortDuration(192_000)).toBe("3m12s");
    expect(shortDuration(1)).toBe("1s");
    expect(shortDuration(45_000)).toBe("45s");
  });
});

describe("why pending work waits, and whether the board can move (W20, W21)", () => {
  it("each wait has a short form for the Board page's cell", () => {
    const { board, book } = boNoticed();
    add(board, "Docs");
    const short = (teammates: NoticeTeammate[], id: string) => whyWaiting(board, book, input(teammates, 1_000), board.tasks.get(id)!)?.short;
    expect(short([idle("bo")], "docs")).toBe("notice @bo in 4m59s");
    expect(short([idle("bo")], "code")).toBe("@bo passed");
    expect(short([assigned("ann"), assigned("bo")], "docs")).toBe("nobody: all assigned");
    expect(short([], "docs")).toBe("no teammate alive");
    expect(short([working("bo")], "code")).toBe("offered to @bo");
    for (const s of ["notice @bo in 4m59s", "nobody: all assigned", "no teammate alive"]) expect(s.length).toBeLessThanOrEqual(22);
  });

  it("names unmet dependencies, held resources and direct assignments", () => {
    const board = newBoard();
    const book = createNoticeBook();
    add(board, { subject: "A", resources: ["src/a"] });
    add(board, { subject: "B", dependsOn: ["a"] });
    add(board, { subject: "C", resources: ["src/a/x"] });
    add(board, { subject: "D", resources: ["docs"] });
    take(board, mate("ann"), "a");
    const mates = [working("ann"), idle("bo")];
    expect(why(board, book, mates, 0, "b")).toBe("waits for `a`");
    expect(why(board, book, mates, 0, "c")).toBe("resource src/a is held by @ann (`a`)");
    const withAssignment = { ...input(mates, 0), assignments: [{ name: "cy", resources: ["docs"] }] };
    expect(waitReason(board, book, withAssignment, board.tasks.get("d")!)).toBe("a resource of it is in @cy's direct assignment");
  });

  it("no teammate can take it: all hold a direct assignment; the board is stuck and the summary says why", () => {
    const board = newBoard();
    const book = createNoticeBook();
    add(board, "Docs");
    const mates = [assigned("ann"), assigned("bo")];
    expect(why(board, book, mates, 0, "docs")).toBe("no teammate can take it: all hold a direct assignment");
    expect(canProgress(board, book, input(mates, 0))).toBe(false);
    const summary = stuckSummary(board, book, input(mates, 0));
    expect(summary).toContain("The task board is stuck: 1 task (1 pending)");
    expect(summary).toContain("- `docs` [pending] Docs: no teammate can take it: all hold a direct assignment");
  });

  it("a paced teammate still counts as one that may take it: the board can move, later", () => {
    const { board, book } = boNoticed();
    add(board, "Docs");
    expect(canProgress(board, book, input([idle("bo")], 1_000))).toBe(true);
  });

  it("a task every living teammate passed over is stuck; a new teammate could take it", () => {
    const { board, book } = boNoticed();
    expect(why(board, book, [idle("bo")], 1_000, "code")).toBe("no teammate can take it: @bo passed over it");
    expect(canProgress(board, book, input([idle("bo")], 1_000))).toBe(false);
    expect(canProgress(board, book, input([idle("bo"), idle("cy")], 1_000))).toBe(true);
    expect(why(board, book, [], 1_000, "code")).toBe("no teammate can take it: none is alive");
  });

  it("a task offered to a teammate reading its notice can progress", () => {
    const { board, book } = boNoticed();
    expect(why(board, book, [working("bo")], 1_000, "code")).toBe("offered to @bo, who is reading its notice");
    expect(canProgress(board, book, input([working("bo")], 1_000))).toBe(true);
  });

  it("a teammate holding a board task cannot take more; its parked task keeps the board stuck", () => {
    const board = newBoard();
    const book = createNoticeBook();
    add(board, "A");
    add(board, "B");
    take(board, mate("ann"), "a");
    finish(board, mate("ann"), "a", "failed");
    take(board, mate("ann"), "a");
    finish(board, mate("ann"), "a", "failed"); // parked with ann
    expect(status(board, "a")).toBe("parked");
    expect(why(board, book, [idle("ann")], 0, "b")).toBe("no teammate can take it: @ann holds `a`");
    expect(canProgress(board, book, input([idle("ann")], 0))).toBe(false);
  });
});

describe("a failure is seen and bounded (W22)", () => {
  it("the first failure releases and marks the task; the second parks it with its holder and escalates once", () => {
    const board = newBoard();
    add(board, "Flaky");
    take(board, mate("ann"), "flaky");
    const first = submitTask(board, { holder: mate("ann"), taskId: "flaky", status: "failed", result: "tests do not build" }, 3_000);
    expect(first).toMatchObject({ ok: true, outcome: "released" });
    expect(status(board, "flaky")).toBe("pending");
    const list = renderTaskList(board, { audience: "leader", roster: [] });
    expect(list).toContain("- `flaky` [pending · failed ×1] Flaky · last failure: tests do not build");
    take(board, mate("bo"), "flaky");
    const second = submitTask(board, { holder: mate("bo"), taskId: "flaky", status: "failed", result: "still broken" }, 4_000);
    expect(second).toMatchObject({ ok: true, outcome: "parked" });
    expect(status(board, "flaky")).toBe("parked");
    const escalations = second.effects.filter((e) => e.type === "escalate");
    expect(escalations).toEqual([expect.objectContaining({ kind: "failed_twice", taskId: "flaky", holder: mate("bo") })]);
    expect(escalations[0]).toMatchObject({ text: expect.stringContaining(`submitted as failed ${FAILED_SUBMITS_TO_PARK} times and is parked with @bo. Last reason: still broken`) });
    expect(second.effects).toContainEqual(expect.objectContaining({ type: "tell_holder", about: "parked_failed", to: mate("bo") }));
    const settled = checkSettled(board, { teamWorking: false, lastKey: undefined });
    expect(settled).toMatchObject({ kind: "settled" });
    expect(settled.kind === "settled" && settled.text).toContain("- `flaky` [parked · failed ×2] Flaky · with @bo after 2 failed submissions · last failure: still broken");
  });

  it("a failure during review aborts the reviewer and still counts", () => {
    const board = newBoard();
    add(board, { subject: "Gated", verify: "tests pass" });
    take(board, mate("ann"), "gated");
    finish(board, mate("ann"), "gated", "failed");
    take(board, mate("ann"), "gated");
    expect(finish(board, mate("ann"), "gated").outcome).toBe("in_review");
    const r = finish(board, mate("ann"), "gated", "failed");
    expect(r.outcome).toBe("parked");
    expect(r.effects[0]).toMatchObject({ type: "abort_reviewer", reason: "released" });
  });
});

describe("giving up a parked task cannot loop without the leader (W22)", () => {
  // Found by the issue-17 adversarial pass: when `failed` on a task parked by failed submissions
  // gave it up (pending, notices re-armed), two teammates that each claim it, fail it (parked) and
  // give it up passed it back and forth for ever, a notice and a model call per pass, while the
  // leader heard nothing after the first escalation. Now only the leader's allowance lets go.
  it("claim, fail, give up, repeated by two teammates, costs a bounded number of notices", () => {
    const board = newBoard();
    const book = createNoticeBook();
    add(board, "Flaky");
    let notices = 0;
    let who = "ann";
    for (let round = 0; round < 20; round++) {
      const other = who === "ann" ? "bo" : "ann";
      const sent = plan(board, book, [idle(who), idle(other)], round * 60_000);
      notices += sent.effects.length;
      const taker = sent.notified[0];
      if (!taker) break; // nobody was told: the loop ended
      take(board, mate(taker), "flaky");
      plan(board, book, [working(taker), idle(taker === "ann" ? "bo" : "ann")], round * 60_000 + 1);
      finish(board, mate(taker), "flaky", "failed"); // released (first time) or parked
      if (status(board, "flaky") === "parked") {
        const giveUp = submitTask(board, { holder: mate(taker), taskId: "flaky", status: "failed", result: "giving up" }, 4_000);
        expect(giveUp).toMatchObject({ ok: false, reason: "parked", message: expect.stringContaining("stays with you until the leader decides") });
      }
      who = taker === "ann" ? "bo" : "ann";
    }
    expect(notices).toBeLessThanOrEqual(4);
    expect(status(board, "flaky")).toBe("parked");
    expect(board.tasks.get("flaky")!.failedSubmits).toBe(2);
  });

  it("with the leader's allowance the holder may give it up; its next failure parks it again without an escalation", () => {
    const board = newBoard();
    add(board, "Flaky");
    for (const who of ["ann", "bo"]) {
      take(board, mate(who), "flaky");
      finish(board, mate(who), "flaky", "failed");
    }
    expect(allowResubmit(board, mate("bo"), 5_000).allowed).toEqual(["flaky"]);
    expect(finish(board, mate("bo"), "flaky", "failed").outcome).toBe("released");
    take(board, mate("cy"), "flaky");
    const again = finish(board, mate("cy"), "flaky", "failed");
    expect(again.outcome).toBe("parked");
    expect(again.effects.some((e) => e.type === "escalate")).toBe(false);
  });
});
