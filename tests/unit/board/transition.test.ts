import { describe, expect, it } from "vitest";
import { TeamError } from "../../../src/errors.ts";
import { TASK_STATUSES, TRANSITIONS, canMove } from "../../../src/board/index.ts";
import { moveTask } from "../../../src/board/transition.ts";
import { add, mate, newBoard, take } from "./fixture.ts";

describe("transition table", () => {
  it("lists every status and nothing leaves completed", () => {
    expect(Object.keys(TRANSITIONS).sort()).toEqual([...TASK_STATUSES].sort());
    expect(TRANSITIONS.completed).toEqual([]);
    expect(canMove("pending", "completed")).toBe(false);
    expect(canMove("superseded", "pending")).toBe(false);
  });

  it("a forbidden move is a bug: TeamError illegal_transition naming the task", () => {
    const board = newBoard();
    const task = add(board, "A");
    let caught: unknown;
    try {
      moveTask(board, task, { status: "completed", completedAt: 1 }, 1);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(TeamError);
    expect((caught as TeamError).code).toBe("illegal_transition");
    expect((caught as TeamError).message).toContain("`a`");
    expect(task.state.status).toBe("pending");
  });

  it("keeps status counts and holder index in step with moves", () => {
    const board = newBoard();
    add(board, "A");
    add(board, "B");
    take(board, mate("alice"), "a");
    expect(board.index.counts).toMatchObject({ pending: 1, claimed: 1 });
    expect([...(board.index.holders.get("alice") ?? [])]).toEqual(["a"]);
  });
});
