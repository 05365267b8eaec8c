/**
 * task_list({ taskId }) (R46, issue 6): one task in full, on both sides, so the leader can read
 * the whole result its board produced (the page shows a bounded preview only).
 */
import { assertNever } from "../errors.ts";
import { unmetDependencies, type Board } from "./board.ts";
import type { Task } from "./types.ts";
import { renderTaskList, type RosterRow } from "./view.ts";

/** Ids a "no such task" message lists at most. */
export const IDS_LISTED = 20;

/** The detail text, or `not_found` with a message listing the ids that exist. */
export type TaskDetailResult = { ok: true; text: string } | { ok: false; reason: "not_found"; message: string };

const code = (id: string): string => `\`${id}\``;
const at = (ms: number): string => new Date(ms).toISOString();

function stateLines(task: Task, self: string | undefined): string[] {
  const { state } = task;
  const who = (name: string): string => (name === self ? `@${name} (you)` : `@${name}`);
  switch (state.status) {
    case "pending":
      return ["Status: pending (claimable once its dependencies are completed)."];
    case "claimed":
    case "in_review":
    case "parked": {
      const h = state.holding;
      const lines = [`Status: ${state.status.replace("_", " ")}, held by ${who(h.holder.name)} since ${at(h.claimedAt)}; ${h.reviews} review run(s), ${h.failures} failed.`];
      if (state.status === "in_review") lines.push(`Review attempt ${state.gate.attempt} is running against: ${state.gate.criteria}`);
      if (state.status === "parked") {
        lines.push(state.allowance ? `The leader allowed one more attempt at ${at(state.allowance.grantedAt)}.` : "Parked: no reviewer runs until the leader allows one more attempt (send_message with reopen: true to the holder).");
      }
      return lines;
    }
    case "completed":
      return [`Status: completed${state.by ? ` by @${state.by}` : ""} at ${at(state.completedAt)}.`];
    case "superseded":
      return [`Status: superseded by ${code(state.by)} at ${at(state.supersededAt)}${state.holder ? `; still held by ${who(state.holder.name)} until it acknowledges` : ""}.`];
    default:
      return assertNever(state, "task state");
  }
}

function notFound(board: Board, id: string): TaskDetailResult {
  const shown = JSON.stringify(id.length > 60 ? `${id.slice(0, 57)}...` : id);
  if (board.tasks.size === 0) return { ok: false, reason: "not_found", message: `taskId: no task ${shown} on this board; the board has no tasks yet.` };
  const ids = [...board.tasks.keys()];
  const listed = ids.slice(-IDS_LISTED).map(code).join(", ");
  const more = ids.length > IDS_LISTED ? ` (the newest ${IDS_LISTED} of ${ids.length}; task_list without taskId pages through all of them)` : "";
  return { ok: false, reason: "not_found", message: `taskId: no task ${shown} on this board. Task ids: ${listed}${more}. Give one of them exactly as listed.` };
}

/**
 * One task in full: subject, description, dependencies, resources, verify criteria, state with
 * holder and review counts, supersession, last error, and the whole stored result (bounded by
 * `RESULT_LIMIT` when it was submitted). `taskId` is trimmed and lower-cased like every id in
 * tool input. `self` marks the viewer's own holdings (worker view). Unknown id: `not_found`
 * naming the id and listing the ids that exist (at most `IDS_LISTED`).
 */
export function renderTaskDetail(board: Board, taskId: string, self?: string): TaskDetailResult {
  const id = taskId.trim().toLowerCase();
  const task = board.tasks.get(id);
  if (!task) return notFound(board, id);
  const lines = [`Task ${code(task.id)}: ${task.subject}`];
  if (task.description) lines.push(`Description: ${task.description}`);
  if (task.dependsOn.length > 0) {
    const unmet = unmetDependencies(board, task);
    lines.push(`Depends on: ${task.dependsOn.map(code).join(", ")}${unmet.length ? ` (waiting for ${unmet.map(code).join(", ")})` : " (all completed)"}`);
  }
  if (task.supersedes.length > 0) lines.push(`Supersedes: ${task.supersedes.map(code).join(", ")}`);
  if (task.resources.length > 0) lines.push(`Resources: ${task.resources.join(", ")}`);
  if (task.verify) lines.push(`Verify: ${task.verify}`);
  lines.push(...stateLines(task, self));
  if (task.lastError) lines.push(`Last error: ${task.lastError}`);
  if (task.lastResult !== undefined && task.lastResult !== "") {
    lines.push(`Result (${task.lastResult.length} chars, as submitted${task.state.status === "completed" ? "" : " last"}):`, task.lastResult);
  } else {
    lines.push("Result: none submitted.");
  }
  return { ok: true, text: lines.join("\n") };
}

/**
 * What a teammate's task_list shows (R46), on either transport: task `taskId` in full, else the
 * board's page from `offset` with the living teammates `roster`. Pure.
 */
export function workerBoardView(
  board: Board,
  ask: { self: string; roster: readonly RosterRow[]; taskId?: string; offset?: number },
): { ok: true; text: string } | { ok: false; reason: "not_found"; message: string } {
  if (ask.taskId !== undefined && ask.taskId.trim() !== "") {
    const detail = renderTaskDetail(board, ask.taskId, ask.self);
    return detail.ok ? detail : { ...detail, message: `task_list: ${detail.message}` };
  }
  return { ok: true, text: renderTaskList(board, { audience: "worker", self: ask.self, roster: ask.roster, ...(ask.offset !== undefined ? { offset: ask.offset } : {}) }) };
}
