import { expect } from "vitest";
import { claimTask, createBoard, createTask, submitTask, type Board, type CreateInput, type Holder, type Task } from "../../../src/board/index.ts";

/** A teammate incarnation for tests. */
export const mate = (name: string, spawnId = `${name}-1`): Holder => ({ name, spawnId });

/** Creates a task and fails the test when the board rejects it. */
export function add(board: Board, input: CreateInput | string, now = 1_000): Task {
  const r = createTask(board, typeof input === "string" ? { subject: input } : input, now);
  if (!r.ok) throw new Error(`create rejected: ${r.reason}: ${r.message}`);
  return r.task;
}

/** Claims `taskId` for `holder` and fails the test when rejected. */
export function take(board: Board, holder: Holder, taskId?: string, now = 2_000): Task {
  const r = claimTask(board, { holder: { ...holder, hasAssignment: false }, ...(taskId ? { taskId } : {}) }, now);
  if (!r.ok) throw new Error(`claim rejected: ${r.reason}: ${r.message}`);
  return r.task;
}

/** Submits and fails the test when rejected. */
export function finish(board: Board, holder: Holder, taskId: string, status: "completed" | "failed" = "completed", roleVerify?: string) {
  const r = submitTask(board, { holder, taskId, status, result: "done", ...(roleVerify ? { roleVerify } : {}) }, 3_000);
  if (!r.ok) throw new Error(`submit rejected: ${r.reason}: ${r.message}`);
  return r;
}

export function newBoard(): Board {
  return createBoard();
}

export function status(board: Board, id: string): string | undefined {
  return board.tasks.get(id)?.state.status;
}

export function expectReason(r: { ok: boolean; reason?: string; message?: string }, reason: string, ...mentions: string[]): void {
  expect(r.ok).toBe(false);
  expect(r.reason).toBe(reason);
  for (const m of mentions) expect(r.message).toContain(m);
}
