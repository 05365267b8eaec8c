/**
 * The board-settled summary (issue 6): the leader hears once when its board has nothing left
 * in motion, instead of once per task. Per-task completions never start a leader turn.
 *
 * Rules:
 * - A task is settled when it is `completed`, `superseded`, or `parked` without an allowance (a
 *   parked task the leader allowed one more attempt is back in its holder's hands, so it is open
 *   work until that attempt ends).
 * - The board is settled when it has at least one task and every task is settled.
 * - The summary fires when the board is settled, no teammate works (the shell's `teamWorking`:
 *   working, starting, being spawned, or mail in flight), and the board's settle key differs from
 *   the key of the last summary. The key changes only when a task is created or a task leaves its
 *   settled state and settles again (completed or superseded, or parked in a new holding or after
 *   another review run); a holder acknowledging a superseded task does not change it.
 * - So: one summary per settle episode; none while a teammate works (the shell re-checks when one
 *   goes idle); none for an empty board.
 */
import type { Board } from "./board.ts";
import { reopenCall } from "./gate.ts";
import { TASK_STATUSES, type Task, type TaskStatus } from "./types.ts";
import { detailCall, resultPreview, statusMark } from "./view.ts";

/** Tasks a summary names at most (most recently changed first). */
export const SUMMARY_TASKS = 30;

/** Input of `checkSettled`: the shell's view of the team and what it last summarised. */
export interface SettledInput {
  /** True while any teammate works, starts, is being spawned, or has mail in flight. */
  readonly teamWorking: boolean;
  /** The `key` of the last summary the shell delivered; undefined when none was. */
  readonly lastKey: string | undefined;
}

/** Fire a summary now (`settled`), or why not (`quiet`). */
export type SettledDecision =
  | { readonly kind: "settled"; readonly key: string; readonly text: string; readonly counts: Readonly<Record<TaskStatus, number>> }
  | { readonly kind: "quiet"; readonly why: "no_tasks" | "open_work" | "team_working" | "already_summarised" };

/** The board-settled summary for the leader (one per settle episode). */
export type BoardSettled = Extract<SettledDecision, { kind: "settled" }>;

const code = (id: string): string => `\`${id}\``;

function settledTask(task: Task): boolean {
  const { state } = task;
  return state.status === "completed" || state.status === "superseded" || (state.status === "parked" && !state.allowance);
}

/**
 * The settle key of `board` when every task is settled, else undefined (also for an empty
 * board). O(1) while claimed, pending or in-review work exists; O(tasks) otherwise. The shell
 * may seed its memory with it on load, so a board that was already settled is not summarised
 * again at resume.
 */
export function settledKey(board: Board): string | undefined {
  const { counts } = board.index;
  if (board.tasks.size === 0 || counts.pending + counts.claimed + counts.in_review > 0) return undefined;
  const parts: string[] = [];
  for (const task of board.tasks.values()) {
    if (!settledTask(task)) return undefined;
    const { state } = task;
    parts.push(state.status === "parked" ? `${task.id}=p${state.holding.claimedAt}.${state.holding.reviews}` : `${task.id}=${state.status === "completed" ? "c" : "s"}`);
  }
  return parts.join(",");
}

function taskLine(task: Task): string {
  const { state } = task;
  const head = `- ${code(task.id)} [${statusMark(task)}] ${task.subject}`;
  const preview = task.lastResult ? resultPreview(task.lastResult) : undefined;
  const result = preview && preview.text !== "" ? ` · result: ${preview.text}` : "";
  const failure = task.failedSubmits && task.lastError ? ` · last failure: ${resultPreview(task.lastError, 120).text}` : "";
  switch (state.status) {
    case "completed":
      return `${head}${state.by ? ` · by @${state.by}` : ""}${result}`;
    case "parked": {
      const why = state.holding.failures > 0 ? `after ${state.holding.failures} failed reviews` : `after ${task.failedSubmits ?? 0} failed submissions`;
      return `${head} · with @${state.holding.holder.name} ${why}${failure}${result} · to allow one more attempt: ${reopenCall(state.holding.holder.name)}`;
    }
    case "superseded":
      return `${head} · by ${code(state.by)}`;
    default:
      return head; // not reached: only settled tasks are summarised
  }
}

function summaryText(board: Board): string {
  const { counts } = board.index;
  const total = board.tasks.size;
  const tally = TASK_STATUSES.filter((s) => counts[s] > 0).map((s) => `${counts[s]} ${s}`).join(", ");
  const recent = [...board.tasks.values()].sort((a, b) => b.updatedAt - a.updatedAt || b.seq - a.seq).slice(0, SUMMARY_TASKS);
  const lines = [
    `The task board settled: every task is completed, parked or superseded, and no teammate is working. ${total} task${total === 1 ? "" : "s"} (${tally}).`,
    ...recent.map(taskLine),
  ];
  if (total > recent.length) lines.push(`… and ${total - recent.length} older task(s); task_list shows them all.`);
  lines.push(`Full result of one task: ${detailCall("<id>")}. You hear this once per settled board, not per task; create tasks to continue, or wrap up.`);
  return lines.join("\n");
}

/**
 * Decides whether the leader gets the board-settled summary now (rules in the module comment).
 * Pure: the shell delivers `text` as one `board_settled` harness event and keeps `key` as its
 * next `lastKey`. Summaries are bounded: counts plus at most `SUMMARY_TASKS` task lines with
 * one-line result previews.
 */
export function checkSettled(board: Board, input: SettledInput): SettledDecision {
  if (board.tasks.size === 0) return { kind: "quiet", why: "no_tasks" };
  const key = settledKey(board);
  if (key === undefined) return { kind: "quiet", why: "open_work" };
  if (input.teamWorking) return { kind: "quiet", why: "team_working" };
  if (key === input.lastKey) return { kind: "quiet", why: "already_summarised" };
  return { kind: "settled", key, text: summaryText(board), counts: { ...board.index.counts } };
}
