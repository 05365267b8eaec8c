/**
 * One more review attempt for parked tasks (R45, L10). A task parked after two FAILs refuses
 * `task_submit(completed)` until the leader allows one attempt; the leader does so with
 * `send_message({ to: holder, reopen: true })`, since the tool set is fixed.
 */
import { commit, sameHolder, type Board } from "./board.ts";
import { moveTask } from "./transition.ts";
import type { Accepted, Effect, Holder, Task } from "./types.ts";

/**
 * `allowed`: parked tasks of the holder that now have an allowance. `already`: parked tasks that
 * had one already (nothing changed for them; an allowance never stacks).
 */
export type AllowResubmitResult = Accepted<{ allowed: string[]; already: string[] }>;

const code = (id: string): string => `\`${id}\``;

function allowanceText(task: Task, failures: number): string {
  return [
    `The leader allows one more review attempt of ${code(task.id)} (${task.subject}), parked after ${failures} failed reviews.`,
    `Fix what the findings said, then submit it again with task_submit({ taskId: "${task.id}", status: "completed", result: "<what changed>" }).`,
    "A fresh reviewer judges it; a FAIL parks it again.",
  ].join(" ");
}

/**
 * Grants `holder` (name and spawn id, R47) exactly one more `task_submit(completed)` on every task
 * parked with it, at `now` (ms). The allowance lives in the parked state (and so in board.json)
 * and is used up by the submission that starts the next gate run; a FAIL on that run parks the
 * task again without a second escalation (`gateOutcome`, L10). Tasks that already carry an
 * allowance are listed in `already` and left alone; tasks in any other state are ignored.
 * Effects: one `tell_holder` (`resubmit_allowed`) per task allowed, then `persist` when
 * anything changed; none when the holder has nothing parked. Never throws for unknown holders.
 */
export function allowResubmit(board: Board, holder: Holder, now: number): AllowResubmitResult {
  const allowed: string[] = [];
  const already: string[] = [];
  const effects: Effect[] = [];
  for (const id of [...(board.index.holders.get(holder.name) ?? [])]) {
    const task = board.tasks.get(id);
    const state = task?.state;
    if (!task || state?.status !== "parked" || !sameHolder(state.holding.holder, holder)) continue;
    if (state.allowance) {
      already.push(id);
      continue;
    }
    moveTask(board, task, { status: "parked", holding: state.holding, allowance: { grantedAt: now } }, now);
    allowed.push(id);
    effects.push({ type: "tell_holder", to: state.holding.holder, taskId: id, about: "resubmit_allowed", text: allowanceText(task, state.holding.failures) });
  }
  if (allowed.length > 0) effects.push(commit(board));
  return { ok: true, allowed, already, effects };
}

/**
 * The line the leader's `send_message({ reopen: true })` result gets from `r`, the
 * {@link allowResubmit} for `holder`: the tasks allowed one more attempt and those that had one
 * already; undefined when the holder had nothing parked.
 */
export function describeResubmit(r: AllowResubmitResult, holder: Holder): string | undefined {
  const ids = (list: string[]) => list.map(code).join(", ");
  const parts: string[] = [];
  if (r.allowed.length > 0) parts.push(`Board: one more review attempt allowed for ${ids(r.allowed)} (parked with @${holder.name}; a FAIL parks it again, without another escalation).`);
  if (r.already.length > 0) parts.push(`Board: ${ids(r.already)} already had an attempt allowed.`);
  return parts.length > 0 ? parts.join(" ") : undefined;
}
