/**
 * task_list (R46): one view definition for both sides. The leader's variant appends the roster;
 * a worker's variant appends the tail of the roster it needs to find peers. Output is bounded:
 * counts for the whole board plus one page of tasks, each completed task with a one-line preview
 * of its result; `renderTaskDetail` shows one task in full.
 */
import { assertNever } from "../errors.ts";
import { unmetDependencies, type Board } from "./board.ts";
import { TASK_STATUSES, type Task, type TaskStatus } from "./types.ts";
import { headOf } from "./verdict.ts";

/** One roster line as the shell knows it. */
export interface RosterRow {
  readonly name: string;
  /** e.g. "starting", "working", "idle", "stopped". */
  readonly status: string;
  readonly agent?: string;
  readonly model?: string;
  /** Short description of the current direct assignment, if any. */
  readonly assignment?: string;
}

/** Who is looking (leader or worker) and which page. */
export interface TaskListOptions {
  readonly audience: "leader" | "worker";
  /** The worker's own name (marks its tasks, leaves it out of the peers list). */
  readonly self?: string;
  readonly roster: readonly RosterRow[];
  /** How the board is named, e.g. its path or session key. */
  readonly boardLabel?: string;
  /** First task of the page (0-based); default 0. */
  readonly offset?: number;
  /** Tasks per page; default `TASK_PAGE`. */
  readonly limit?: number;
  /** Why a pending task waits (src/board/waiting.ts, W20); without it only unmet dependencies are named. */
  readonly waiting?: (taskId: string) => string | undefined;
}

/** Default tasks per page. */
export const TASK_PAGE = 50;
/** Peers shown to a worker. */
export const ROSTER_TAIL = 8;
/** Longest result preview in a task_list line, in characters, ellipsis included. */
export const RESULT_PREVIEW = 200;

const LABEL: Record<TaskStatus, string> = {
  in_review: "in review",
  claimed: "claimed",
  parked: "parked",
  pending: "pending",
  completed: "completed",
  superseded: "superseded",
};

function short(text: string, max: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

/**
 * A result as one bounded line: whitespace runs (newlines too) become one space, and text longer
 * than `max` characters (default `RESULT_PREVIEW`) is cut to `max - 1` plus `…`. `cut` says
 * whether anything was left out, so the caller can point at the full text.
 */
export function resultPreview(text: string, max = RESULT_PREVIEW): { text: string; cut: boolean } {
  const line = text.replace(/\s+/g, " ").trim();
  if (line.length <= max) return { text: line, cut: false };
  return { text: `${headOf(line, Math.max(1, max) - 1)}…`, cut: true };
}

/** The call that shows one task in full. */
export function detailCall(taskId: string): string {
  return `task_list({ taskId: "${taskId}" })`;
}

/** `result: <preview>` for a list line, with the hint to the full text when it was cut. */
function resultPart(task: Task): string | undefined {
  if (task.lastResult === undefined || task.lastResult.trim() === "") return undefined;
  const p = resultPreview(task.lastResult);
  return `result: ${p.text}${p.cut ? ` (full result: ${detailCall(task.id)})` : ""}`;
}

/** `[pending · failed ×1]`: the status, marked with the task's failed submissions (W22). */
export function statusMark(task: Task): string {
  const n = task.failedSubmits ?? 0;
  return n > 0 ? `${LABEL[task.state.status]} · failed ×${n}` : LABEL[task.state.status];
}

function detail(board: Board, task: Task, options: Pick<TaskListOptions, "self" | "waiting">): string[] {
  const out: string[] = [];
  const { state } = task;
  const you = (name: string): string => (name === options.self ? `@${name} (you)` : `@${name}`);
  switch (state.status) {
    case "pending": {
      const unmet = unmetDependencies(board, task);
      const why = options.waiting?.(task.id) ?? (unmet.length > 0 ? `waits for ${unmet.join(", ")}` : undefined);
      if (why) out.push(why);
      if (task.lastError) out.push(`${task.failedSubmits ? "last failure" : "last error"}: ${short(task.lastError, 80)}`);
      break;
    }
    case "claimed":
    case "parked":
      out.push(`by ${you(state.holding.holder.name)}`);
      if (state.holding.failures > 0) out.push(`${state.holding.failures} failed review${state.holding.failures > 1 ? "s" : ""}`);
      if (state.status === "parked") out.push(state.allowance ? "one more attempt allowed" : "waits for the leader");
      if (state.status === "parked" && task.failedSubmits && task.lastError) out.push(`last failure: ${short(task.lastError, 80)}`);
      break;
    case "in_review":
      out.push(`by ${you(state.holding.holder.name)}`, `review attempt ${state.gate.attempt}`);
      break;
    case "completed":
      if (state.by) out.push(`by @${state.by}`);
      break;
    case "superseded":
      out.push(`by task ${state.by}`);
      if (state.holder) out.push(`still held by ${you(state.holder.name)}`);
      break;
    default:
      assertNever(state, "task state");
  }
  if (task.resources.length > 0) out.push(`resources: ${task.resources.join(", ")}`);
  const result = state.status === "completed" ? resultPart(task) : undefined;
  if (result) out.push(result); // last: the leader reads what its board produced (issue 6)
  return out;
}

/** Tasks in view order: by status (TASK_STATUSES order), then oldest first; finished work newest first. */
function ordered(board: Board): Task[] {
  const buckets = new Map<TaskStatus, Task[]>(TASK_STATUSES.map((s) => [s, []]));
  for (const task of board.tasks.values()) buckets.get(task.state.status)?.push(task);
  return TASK_STATUSES.flatMap((s) => {
    const list = buckets.get(s) ?? [];
    return s === "completed" || s === "superseded" ? list.reverse() : list;
  });
}

function rosterLines(options: TaskListOptions): string[] {
  if (options.audience === "leader") {
    if (options.roster.length === 0) return ["Roster: no teammates. Call teammate_spawn to start one."];
    return [
      `Roster (${options.roster.length}):`,
      ...options.roster.map((r) => {
        const parts = [`@${r.name}`, r.status, r.agent && `agent ${r.agent}`, r.model && `model ${r.model}`, r.assignment && `assignment: ${short(r.assignment, 60)}`];
        return `- ${parts.filter(Boolean).join(" · ")}`;
      }),
    ];
  }
  const peers = options.roster.filter((r) => r.name !== options.self);
  const tail = peers.slice(-ROSTER_TAIL);
  if (tail.length === 0) return ["Peers: none."];
  const more = peers.length - tail.length;
  return [`Peers (send_message to reach them)${more > 0 ? `, last ${tail.length} of ${peers.length}` : ""}:`, ...tail.map((r) => `- @${r.name} · ${r.status}`)];
}

/**
 * Renders the board for task_list. Output: a header with counts per status, one page of tasks
 * (`offset`, `limit`) with a line saying how to see more, then the roster (leader) or the peers
 * tail (worker). Bounded by the page size whatever the board size; O(tasks) to order them.
 */
export function renderTaskList(board: Board, options: TaskListOptions): string {
  const { counts } = board.index;
  const total = board.tasks.size;
  const label = options.boardLabel ? ` ${options.boardLabel}` : "";
  const summary = TASK_STATUSES.filter((s) => counts[s] > 0).map((s) => `${counts[s]} ${LABEL[s]}`);
  const lines = [`Board${label}: ${total} task${total === 1 ? "" : "s"}${summary.length ? ` (${summary.join(", ")})` : ""}.`];
  if (total === 0) lines.push(options.audience === "leader" ? "No tasks yet. Add one with task_create." : "No tasks yet.");
  const limit = Math.max(1, options.limit ?? TASK_PAGE);
  const offset = Math.min(Math.max(0, options.offset ?? 0), Math.max(0, total - 1));
  const page = total === 0 ? [] : ordered(board).slice(offset, offset + limit);
  for (const task of page) {
    const extra = detail(board, task, options);
    lines.push(`- \`${task.id}\` [${statusMark(task)}] ${short(task.subject, 100)}${extra.length ? ` · ${extra.join(" · ")}` : ""}`);
  }
  if (total > page.length) {
    const end = offset + page.length;
    lines.push(`Showing tasks ${offset + 1}–${end} of ${total}.${end < total ? ` Call task_list({ offset: ${end} }) for more.` : ""}`);
  }
  lines.push("", ...rosterLines(options));
  return lines.join("\n");
}
