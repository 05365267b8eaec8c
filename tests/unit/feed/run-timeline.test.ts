import { describe, expect, it } from "vitest";
import { createBoard, createTask } from "../../../src/board/index.ts";
import { RunTimeline, TeamFeed, TIMELINE_EVENTS } from "../../../src/feed/index.ts";
import type { Member } from "../../../src/team/member.ts";

const mate = (name: string, spawnId: string, status: Member["status"]): Member => ({ name, spawnId, status, state: {} }) as unknown as Member;

describe("RunTimeline (issue 20, the run export)", () => {
  it("keeps each incarnation's first phase and every change, with the time seen", () => {
    let now = 1000;
    const feed = new TeamFeed(() => now);
    feed.phases([mate("ann", "s1", "starting")]);
    now = 2000;
    feed.phases([mate("ann", "s1", "working")]);
    feed.phases([mate("ann", "s1", "working")]); // no change, no event
    now = 3000;
    feed.phases([mate("ann", "s1", "stopped"), mate("ann", "s2", "starting")]);
    expect(feed.timeline.startedAt).toBe(1000);
    expect(feed.timeline.events()).toEqual([
      { kind: "phase", at: 1000, name: "ann", spawnId: "s1", phase: "starting" },
      { kind: "phase", at: 2000, name: "ann", spawnId: "s1", phase: "working" },
      { kind: "phase", at: 3000, name: "ann", spawnId: "s1", phase: "stopped" },
      { kind: "phase", at: 3000, name: "ann", spawnId: "s2", phase: "starting" },
    ]);
  });

  it("records a task's status and holder changes only", () => {
    let now = 0;
    const t = new RunTimeline(() => now);
    const board = createBoard();
    const created = createTask(board, { subject: "Do it" }, 0);
    if (!created.ok) throw new Error(created.message);
    const task = board.tasks.get(created.task.id)!;
    t.board(board);
    t.board(board);
    now = 5;
    task.state = { status: "claimed", holding: { holder: { name: "bob", spawnId: "x" }, claimedAt: 5, failures: 0, reviews: 0 } };
    t.board(board);
    now = 9;
    task.state = { status: "completed", completedAt: 9, by: "bob" };
    t.board(board);
    expect(t.events().map((e) => (e.kind === "task" ? [e.at, e.status, e.who] : []))).toEqual([[0, "pending", undefined], [5, "claimed", "bob"], [9, "completed", "bob"]]);
  });

  it("is bounded: the oldest events go first", () => {
    const t = new RunTimeline(() => 0);
    for (let i = 0; i < TIMELINE_EVENTS + 5; i++) t.phase(`m${i}`, "s", "idle");
    expect(t.events()).toHaveLength(TIMELINE_EVENTS);
    expect(t.events()[0]).toMatchObject({ name: "m5" });
  });
});
