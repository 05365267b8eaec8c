/**
 * task_claim in the core (R37, R49–R50, W11): the leader applies a worker's claim intent after the
 * shell checked the intent's spawn id against the roster. The decision goes back to the worker in
 * the same tool call, so every rejection carries a reason and a message naming the ids.
 */
import { assertNever } from "../errors.ts";
import { commit, heldBy, unmetDependencies, type Board } from "./board.ts";
import type { ClaimRejection } from "../mail/rejections.ts";
import { anyOverlap, findHeldConflict, overlapsHeld, resourcesOverlap } from "./resources.ts";
import { moveTask } from "./transition.ts";
import type { Accepted, Assignment, Holder, Rejected, Task } from "./types.ts";

/** The claiming teammate as the shell knows it. */
export interface Claimant extends Holder {
  /** True while the teammate owns a direct assignment, or a closed one not yet reopened (R15, R49). */
  readonly hasAssignment: boolean;
}

/** Input of `claimTask`: who claims, what, and the direct assignments that lock resources. */
export interface ClaimInput {
  readonly holder: Claimant;
  /** The task to claim; omitted means the first claimable task by creation order (R37). */
  readonly taskId?: string;
  /** Active direct assignments of *other* teammates; their resources block overlapping claims. */
  readonly assignments?: readonly Assignment[];
}

/** The claimed task, or a rejection with reason and message. */
export type ClaimResult = Accepted<{ task: Task }> | Rejected<ClaimRejection>;

const code = (id: string): string => `\`${id}\``;

function reject(reason: ClaimRejection, message: string): Rejected<ClaimRejection> {
  return { ok: false, reason, message, effects: [] };
}

function assignmentConflict(task: Task, self: string, assignments: readonly Assignment[]): Assignment | undefined {
  if (task.resources.length === 0) return undefined;
  return assignments.find((a) => a.name !== self && anyOverlap(task.resources, a.resources));
}

function explainConflict(board: Board, task: Task, self: string, assignments: readonly Assignment[]): string | undefined {
  const held = findHeldConflict(board.index.held, task.resources);
  if (held) {
    const who = held.owners.map((o) => `@${o.name}${o.taskId ? ` on ${code(o.taskId)}` : ""}`).join(", ");
    return `Task ${code(task.id)} needs resource ${code(held.tag)}, which overlaps ${code(held.heldTag)} held by ${who}; it becomes claimable when that holding ends.`;
  }
  const direct = assignmentConflict(task, self, assignments);
  if (direct) {
    const tag = task.resources.find((r) => direct.resources.some((d) => resourcesOverlap(r, d))) ?? "";
    return `Task ${code(task.id)} needs resource ${code(tag)}, which overlaps the direct assignment of @${direct.name}; it becomes claimable when that assignment ends.`;
  }
  return undefined;
}

function checkNamed(board: Board, task: Task, self: string, assignments: readonly Assignment[]): Rejected<ClaimRejection> | undefined {
  const { state } = task;
  switch (state.status) {
    case "pending":
      break;
    case "claimed":
    case "in_review":
    case "parked":
      return reject("not_pending", `Task ${code(task.id)} is already ${state.status === "claimed" ? "claimed" : state.status.replace("_", " ")} by @${state.holding.holder.name}; call task_list for claimable tasks.`);
    case "completed":
      return reject("completed", `Task ${code(task.id)} is already completed.`);
    case "superseded":
      return reject("superseded", `Task ${code(task.id)} is superseded by ${code(state.by)} and cannot be claimed; consider ${code(state.by)}.`);
    default:
      return assertNever(state, "task state");
  }
  const unmet = unmetDependencies(board, task);
  if (unmet.length > 0) {
    const detail = unmet.map((d) => `${code(d)} (${board.tasks.get(d)?.state.status ?? "unknown"})`).join(", ");
    return reject("blocked", `Task ${code(task.id)} is blocked by unfinished dependencies: ${detail}.`);
  }
  const conflict = explainConflict(board, task, self, assignments);
  if (conflict) return reject("resource_conflict", conflict);
  return undefined;
}

function firstClaimable(board: Board, self: string, assignments: readonly Assignment[]): Task | undefined {
  for (const task of board.index.ready) {
    if (overlapsHeld(board.index.held, task.resources)) continue;
    if (assignmentConflict(task, self, assignments)) continue;
    return task;
  }
  return undefined;
}

function noneClaimable(board: Board): Rejected<ClaimRejection> {
  const { counts, ready } = board.index;
  const blocked = counts.pending - ready.length;
  return reject(
    "none_claimable",
    `No task is claimable now: ${counts.pending} pending (${blocked} waiting for dependencies, ${ready.length} whose resources overlap an active holding). You will get a board notice when one becomes claimable.`,
  );
}

/**
 * Claims a task for `input.holder` at `now` (ms). Rejections, in this order: the holder already
 * holds a board task or a direct assignment (one assignment at a time, R49); the named task is
 * unknown, held by someone, completed or superseded; its dependencies are not all completed;
 * its resources overlap an active holding (board holdings, live superseded holders, or other
 * teammates' direct assignments, R50). Without `taskId`, takes the first claimable task by
 * creation order, scanning only the ready index. Effects: `persist`.
 */
export function claimTask(board: Board, input: ClaimInput, now: number): ClaimResult {
  const { holder } = input;
  const assignments = input.assignments ?? [];
  const holding = heldBy(board, holder.name);
  if (holding.length > 0) {
    return reject("has_assignment", `@${holder.name} already holds ${holding.map(code).join(", ")}; finish it with task_submit before claiming another task (one assignment at a time).`);
  }
  if (holder.hasAssignment) {
    return reject("has_assignment", `@${holder.name} has a direct assignment open (or closed and not yet reopened by the leader); board claims wait until the leader reopens you (one assignment at a time).`);
  }
  let task: Task | undefined;
  if (input.taskId !== undefined) {
    const id = input.taskId.trim().toLowerCase();
    task = board.tasks.get(id);
    if (!task) return reject("not_found", `taskId: no task ${code(id)} on this board; only its ids are accepted (call task_list to see them).`);
    const rejected = checkNamed(board, task, holder.name, assignments);
    if (rejected) return rejected;
  } else {
    task = firstClaimable(board, holder.name, assignments);
    if (!task) return noneClaimable(board);
  }
  moveTask(board, task, { status: "claimed", holding: { holder: { name: holder.name, spawnId: holder.spawnId }, claimedAt: now, failures: 0, reviews: 0 } }, now);
  return { ok: true, task, effects: [commit(board)] };
}
