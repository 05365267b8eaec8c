/**
 * task_submit in the core (R38–R39, R41, R43): a holder releases (`failed`) or completes its
 * task; completion passes through the effective verify gate when there is one.
 */
import { commit, sameHolder, type Board } from "./board.ts";
import type { SubmitRejection } from "../mail/rejections.ts";
import { reopenCall } from "./gate.ts";
import { moveTask } from "./transition.ts";
import { RESULT_LIMIT, type Accepted, type Effect, type Holder, type Holding, type Rejected, type Task } from "./types.ts";
import { bound, reviewerPrompt } from "./verdict.ts";

/** Input of `submitTask`: the submitting incarnation, the task, the status and result text. */
export interface SubmitInput {
  readonly holder: Holder;
  readonly taskId: string;
  readonly status: "completed" | "failed";
  /** Result (completed) or error (failed) text; bounded to `RESULT_LIMIT` chars. */
  readonly result?: string;
  /** The `verify` of the holder's role, used when the task has none (R43). */
  readonly roleVerify?: string;
}


/**
 * What happened: `completed` (no gate), `in_review` (a reviewer must run), `released` (failed →
 * pending), `acknowledged` (failed on a superseded task: the holder's lock is dropped).
 */
export type SubmitOutcome = "completed" | "in_review" | "released" | "acknowledged" | "parked";

/** An accepted `task_submit`, for the console's Mail page (a failure is seen, W22). */
export interface AcceptedSubmission {
  readonly taskId: string;
  readonly status: "completed" | "failed";
  readonly outcome: SubmitOutcome;
  /** The result or failure reason as submitted (bounded by the core). */
  readonly text: string;
  /** Failed submissions of the task so far, by any holders. */
  readonly failedSubmits: number;
}

/** Failed submissions of one task, by any holders, that park it instead of releasing it (W22). */
export const FAILED_SUBMITS_TO_PARK = 2;

/** The submission's outcome, or a rejection. */
export type SubmitResult = Accepted<{ task: Task; outcome: SubmitOutcome }> | Rejected<SubmitRejection>;

const code = (id: string): string => `\`${id}\``;

function reject(reason: SubmitRejection, message: string): Rejected<SubmitRejection> {
  return { ok: false, reason, message, effects: [] };
}

/** Starts a fresh gate run for `task` held under `holding`; returns the `start_reviewer` effect. */
export function startGate(board: Board, task: Task, holding: Holding, criteria: string, now: number): Effect {
  const attempt = holding.reviews + 1;
  const token = `${task.id}#g${board.nextGate}`;
  board.nextGate += 1;
  const gate = { token, attempt, clarified: false, startedAt: now, criteria };
  moveTask(board, task, { status: "in_review", holding: { ...holding, reviews: attempt }, gate }, now);
  const prompt = reviewerPrompt({ task, criteria, result: task.lastResult ?? "", attempt });
  return { type: "start_reviewer", token, taskId: task.id, holder: holding.holder, prompt };
}

function release(board: Board, task: Task, error: string, now: number): void {
  task.lastError = error;
  task.noticeEpoch += 1; // a released task re-arms notices (R54, L11)
  moveTask(board, task, { status: "pending" }, now);
}

/**
 * A task failed for the second time (or later) is parked with the holder that failed it, not
 * offered again (W22): without this, two teammates that cannot do a task pass it back and forth,
 * each pass a notice and a model call. Escalated once, on the failure that reaches the bound.
 */
function parkFailed(board: Board, task: Task, holding: Holding, reason: string, now: number): Effect[] {
  task.lastError = reason;
  moveTask(board, task, { status: "parked", holding }, now);
  const n = task.failedSubmits ?? 0;
  const name = holding.holder.name;
  const effects: Effect[] = [
    {
      type: "tell_holder",
      to: holding.holder,
      taskId: task.id,
      about: "parked_failed",
      text: `Task ${code(task.id)} has now failed ${n} times, so it is parked with you and not offered to anyone again until the leader decides. Do not resubmit unless the leader asks.`,
    },
  ];
  if (n === FAILED_SUBMITS_TO_PARK) {
    effects.push({
      type: "escalate",
      taskId: task.id,
      kind: "failed_twice",
      holder: holding.holder,
      text: `Task ${code(task.id)} (${task.subject}) was submitted as failed ${n} times and is parked with @${name}. Last reason: ${reason}\n${failedChoices(task, name)}`,
    });
  }
  return effects;
}

/** The leader's options for a task parked by failed submissions (W22). */
function failedChoices(task: Task, name: string): string {
  return [
    `@${name} cannot submit or give it up until you decide:`,
    `- allow one more attempt: ${reopenCall(name)} (it may then submit it completed, or failed to give it up: back to the board, where its next failure parks it again without another escalation);`,
    `- or replace it: task_create({ subject: "...", supersedes: ["${task.id}"] });`,
    `- or shut @${name} down: the task returns to the board.`,
  ].join("\n");
}

function checkHolder(task: Task, holder: Holder): Rejected<SubmitRejection> | undefined {
  const { state } = task;
  if (state.status === "pending" || state.status === "completed") {
    return reject("not_claimed", `taskId: task ${code(task.id)} is ${state.status}, not claimed by @${holder.name}; claim it first with task_claim.`);
  }
  if (state.status === "superseded") return undefined;
  const current = state.holding.holder;
  if (current.name !== holder.name) return reject("not_holder", `Task ${code(task.id)} is held by @${current.name}, not @${holder.name}.`);
  if (current.spawnId !== holder.spawnId) {
    return reject("not_holder", `Task ${code(task.id)} is held by an earlier incarnation of @${holder.name} (spawn ${current.spawnId}); this process cannot submit it.`);
  }
  return undefined;
}

/** Parked by failed submissions (W22), not by failed reviews (R45, which count in `failures`). */
function parkedBySubmissions(task: Task, holding: Holding): boolean {
  return holding.failures === 0 && (task.failedSubmits ?? 0) >= FAILED_SUBMITS_TO_PARK;
}

/**
 * A holder may not give up a task parked by failed submissions on its own (W22): released, it
 * would go round the team again, each round a notice and a park, with the leader hearing nothing.
 */
function heldRefusal(task: Task): Rejected<SubmitRejection> {
  return reject(
    "parked",
    `Task ${code(task.id)} is parked with you after ${task.failedSubmits ?? 0} failed submissions and stays with you until the leader decides; nothing was changed. Do not submit it again: end your turn and wait for the leader's message.`,
  );
}

function parkedRefusal(task: Task, holding: Holding): Rejected<SubmitRejection> {
  // Parked by failed reviews (R45) or by failed submissions (W22), which leave `failures` at 0.
  const n = holding.failures > 0 ? holding.failures : task.failedSubmits ?? 0;
  const fails = `${n} failed ${holding.failures > 0 ? "review" : "submission"}${n === 1 ? "" : "s"}`;
  return reject(
    "parked",
    `Task ${code(task.id)} is parked after ${fails}; no reviewer runs for it until the leader allows one more attempt, and nothing was changed. Do not resubmit: end your turn and wait for the leader's message.${holding.failures > 0 ? ` To give the task up instead, call task_submit({ taskId: "${task.id}", status: "failed", result: "<why>" }).` : ""}`,
  );
}

/**
 * Applies a submission at `now` (ms). Rules: only the current holder (name and spawn id, R47)
 * may submit. `failed` returns a claimed, parked or in-review task to pending with the error kept
 * and notices re-armed (R39, R54), aborting a running reviewer, except that the task's second
 * failed submission (by any holders) parks it with this holder and escalates once, and later
 * ones from claimed or in review park it again without escalation (W22); on a superseded task it is the
 * holder's acknowledgement and drops its resource lock (R41). `completed` is rejected on a
 * superseded task and while a review runs, and on a parked task unless the leader allowed one
 * more attempt (`parked`: no reviewer starts, R45, L10; see `allowResubmit`); otherwise it starts
 * a gate run when the effective verify (`task.verify ?? roleVerify`) is set, else completes the
 * task. A gate run from parked uses the allowance up. Effects: `abort_reviewer`,
 * `start_reviewer`, `tell_holder`, `escalate`, `persist`.
 */
export function submitTask(board: Board, input: SubmitInput, now: number): SubmitResult {
  const id = input.taskId.trim().toLowerCase();
  const task = board.tasks.get(id);
  if (!task) return reject("not_found", `taskId: no task ${code(id)} on this board; only its ids are accepted (call task_list to see them).`);
  const denied = checkHolder(task, input.holder);
  if (denied) return denied;
  const text = bound(input.result?.trim() ?? "", RESULT_LIMIT);
  const { state } = task;
  const effects: Effect[] = [];
  if (state.status === "superseded") {
    if (input.status === "completed" || !state.holder || !sameHolder(state.holder, input.holder)) {
      return reject("superseded", `Task ${code(task.id)} is superseded by ${code(state.by)} and cannot be completed; acknowledge with task_submit({ taskId: "${task.id}", status: "failed" }) if you hold it.`);
    }
    moveTask(board, task, { status: "superseded", by: state.by, supersededAt: state.supersededAt }, now);
    return { ok: true, task, outcome: "acknowledged", effects: [commit(board)] };
  }
  if (state.status === "pending" || state.status === "completed") throw new Error("unreachable: checked by checkHolder");
  if (input.status === "failed") {
    if (state.status === "parked" && !state.allowance && parkedBySubmissions(task, state.holding)) return heldRefusal(task);
    if (state.status === "in_review") effects.push({ type: "abort_reviewer", token: state.gate.token, taskId: task.id, reason: "released" });
    const reason = text === "" ? "(failed without a reason)" : text;
    task.failedSubmits = (task.failedSubmits ?? 0) + 1;
    // From parked, `failed` gives the task up (released): after failed reviews the holder may; after
    // failed submissions only with the leader's allowance, or the give-up would loop (W22).
    if (state.status !== "parked" && task.failedSubmits >= FAILED_SUBMITS_TO_PARK) {
      return { ok: true, task, outcome: "parked", effects: [...effects, ...parkFailed(board, task, state.holding, reason, now), commit(board)] };
    }
    release(board, task, reason, now);
    effects.push(commit(board));
    return { ok: true, task, outcome: "released", effects };
  }
  if (state.status === "in_review") {
    return reject("in_review", `Task ${code(task.id)} is already in review (attempt ${state.gate.attempt}); wait for the reviewer's verdict.`);
  }
  if (state.status === "parked" && !state.allowance) return parkedRefusal(task, state.holding);
  task.lastResult = text;
  const criteria = task.verify ?? input.roleVerify?.trim();
  if (criteria) {
    effects.push(startGate(board, task, state.holding, criteria, now));
    effects.push(commit(board));
    return { ok: true, task, outcome: "in_review", effects };
  }
  moveTask(board, task, { status: "completed", completedAt: now, by: state.holding.holder.name }, now);
  effects.push(commit(board));
  return { ok: true, task, outcome: "completed", effects };
}
