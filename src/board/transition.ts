/**
 * The one place a task changes state (style practice 3). `moveTask` checks the move against the
 * table below and keeps every index consistent. Operations validate first and return reasoned
 * rejections; a move the table forbids therefore means a bug and throws.
 */
import { assertNever, TeamError } from "../errors.ts";
import { addDependent, addHolding, addReady, holderOf, removeReady, type Board } from "./board.ts";
import { releaseResources } from "./resources.ts";
import type { Task, TaskState, TaskStatus } from "./types.ts";

/**
 * Allowed moves. `superseded → superseded` clears a holder that acknowledged or stopped (R41).
 * `in_review → claimed` is a FAIL or an inconclusive escalation; `in_review → pending` a release;
 * `in_review → in_review` records the clarification or restarts a run after a leader reload.
 * `parked → parked` records the leader's allowance of one more attempt (R45). `claimed → parked`
 * is a second failed submission (W22).
 */
export const TRANSITIONS: Readonly<Record<TaskStatus, readonly TaskStatus[]>> = {
  pending: ["claimed", "superseded"],
  claimed: ["in_review", "completed", "pending", "parked", "superseded"],
  in_review: ["in_review", "completed", "claimed", "parked", "pending", "superseded"],
  parked: ["parked", "in_review", "completed", "pending", "superseded"],
  completed: [],
  superseded: ["superseded"],
};

/** True when the table allows `from → to`. */
export function canMove(from: TaskStatus, to: TaskStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

function leave(board: Board, task: Task, state: TaskState): void {
  const { index } = board;
  index.counts[state.status] -= 1;
  if (state.status === "pending") removeReady(index, task);
  if (state.status === "in_review") index.gates.delete(state.gate.token);
  const holder = holderOf(state);
  if (holder) {
    const set = index.holders.get(holder.name);
    set?.delete(task.id);
    if (set?.size === 0) index.holders.delete(holder.name);
    releaseResources(index.held, task.resources, { name: holder.name, taskId: task.id });
  }
}

function completeDependents(board: Board, task: Task): void {
  const { index } = board;
  for (const id of index.dependents.get(task.id) ?? []) {
    const left = (index.unmet.get(id) ?? 1) - 1;
    index.unmet.set(id, left);
    const dependent = board.tasks.get(id);
    if (left === 0 && dependent?.state.status === "pending") addReady(index, dependent);
  }
}

function enter(board: Board, task: Task, state: TaskState): void {
  const { index } = board;
  index.counts[state.status] += 1;
  switch (state.status) {
    case "pending":
      if (index.unmet.get(task.id) === 0) addReady(index, task);
      return;
    case "in_review":
      index.gates.set(state.gate.token, task.id);
      addHolding(index, task, state.holding.holder);
      return;
    case "claimed":
    case "parked":
      addHolding(index, task, state.holding.holder);
      return;
    case "superseded":
      if (state.holder) addHolding(index, task, state.holder);
      return;
    case "completed":
      completeDependents(board, task);
      return;
    default:
      return assertNever(state, "task state");
  }
}

/**
 * Moves `task` to `next` at `now` (ms), updating ready list, holder map, resource locks, gate
 * tokens, dependents' unmet counts and status counts.
 * @throws TeamError `illegal_transition` when the table forbids the move (a bug in the caller).
 */
export function moveTask(board: Board, task: Task, next: TaskState, now: number): void {
  const from = task.state.status;
  if (!canMove(from, next.status)) {
    throw new TeamError(
      "illegal_transition",
      `task \`${task.id}\` cannot move from ${from} to ${next.status}; allowed: ${TRANSITIONS[from].join(", ") || "none"}`,
    );
  }
  leave(board, task, task.state);
  task.state = next;
  task.updatedAt = now;
  enter(board, task, next);
}

/** Inserts a brand-new pending task into the board and its indexes. */
export function insertTask(board: Board, task: Task): void {
  const { index } = board;
  board.tasks.set(task.id, task);
  board.nextSeq = Math.max(board.nextSeq, task.seq + 1);
  let unmet = 0;
  for (const dep of task.dependsOn) {
    addDependent(index, dep, task.id);
    if (board.tasks.get(dep)?.state.status !== "completed") unmet += 1;
  }
  index.unmet.set(task.id, unmet);
  index.counts.pending += 1;
  if (unmet === 0) addReady(index, task);
}

/**
 * Re-points `dependent.dependsOn` from `from` to `to` (supersession, R40), keeping the
 * dependents index and unmet count right. Both `from` and `to` must be unfinished.
 */
export function repointDependency(board: Board, dependent: Task, from: string, to: string): void {
  const { index } = board;
  const had = dependent.dependsOn.includes(to);
  dependent.dependsOn = had ? dependent.dependsOn.filter((d) => d !== from) : dependent.dependsOn.map((d) => (d === from ? to : d));
  index.dependents.get(from)?.delete(dependent.id);
  addDependent(index, to, dependent.id);
  if (had) index.unmet.set(dependent.id, (index.unmet.get(dependent.id) ?? 1) - 1);
}
