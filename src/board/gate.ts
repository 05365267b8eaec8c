/**
 * Verify-gate outcomes (R44–R45, L9, L10, W9): what a reviewer's answer does to the task.
 */
import { assertNever } from "../errors.ts";
import { commit, type Board } from "./board.ts";
import { moveTask } from "./transition.ts";
import type { Accepted, Effect, GateRun, Holding, Rejected, Task } from "./types.ts";
import { clarificationPrompt, parseVerdict, type Verdict } from "./verdict.ts";

/** Explicit FAILs in one holding that park the task (R45). */
export const FAILS_TO_PARK = 2;

/** A reviewer's answer as the shell reports it. */
export interface GateOutcomeInput {
  /** The token the reviewer was started with (`start_reviewer.token`). */
  readonly token: string;
  /** The reviewer's full answer text. */
  readonly text: string;
}

/**
 * `completed` (PASS), `findings` (FAIL, holder keeps the claim), `parked` (a FAIL that parks or
 * keeps the task parked), `clarify` (no verdict, the one clarification is asked), `escalated`
 * (still no verdict: leader escalation, not a failure; the holder keeps the claim).
 */
export type GateOutcome = "completed" | "findings" | "parked" | "clarify" | "escalated";

/** The gate's decision, or `stale_gate` (with an `abort_reviewer` effect). */
export type GateResult = Accepted<{ task: Task; outcome: GateOutcome; verdict: Verdict }> | Rejected<"stale_gate">;

const code = (id: string): string => `\`${id}\``;

/**
 * The exact leader call that allows one more review attempt of the tasks parked with `name`
 * (R45): a `send_message` with `reopen: true` (see `allowResubmit`).
 */
export function reopenCall(name: string): string {
  return `send_message({ to: ${JSON.stringify(name)}, message: "<what to fix>", reopen: true })`;
}

/** The leader's options for a parked task, for escalations. */
export function parkedChoices(task: Task, holding: Holding): string {
  const name = holding.holder.name;
  return [
    `No reviewer runs for it and @${name} cannot resubmit until you decide:`,
    `- allow one more attempt: ${reopenCall(name)} (this allows one attempt for every task parked with @${name}; a FAIL parks it again, with no further escalation);`,
    `- or have @${name} release it (task_submit with status "failed");`,
    `- or replace it: task_create({ subject: "...", supersedes: ["${task.id}"] }).`,
  ].join("\n");
}

function onFail(board: Board, task: Task, holding: Holding, gate: GateRun, reasons: string, now: number): { outcome: GateOutcome; effects: Effect[] } {
  const failures = holding.failures + 1;
  const parks = failures >= FAILS_TO_PARK;
  const next = { ...holding, failures };
  moveTask(board, task, parks ? { status: "parked", holding: next } : { status: "claimed", holding: next }, now);
  const because = reasons === "" ? "The reviewer gave no reasons." : `Findings:\n${reasons}`;
  const effects: Effect[] = [
    {
      type: "send_findings",
      to: holding.holder,
      taskId: task.id,
      attempt: gate.attempt,
      reasons,
      parked: parks,
      text: parks
        ? `Review of ${code(task.id)} failed again (attempt ${gate.attempt}); the task is parked with you and the leader decides what happens next. Do not resubmit unless the leader asks: task_submit(completed) is refused until the leader allows one more attempt. ${because}`
        : `Review of ${code(task.id)} failed (attempt ${gate.attempt}). You keep the claim: fix the findings and submit again with task_submit. ${because}`,
    },
  ];
  // Exactly one escalation per holding: on the FAIL that parks it, never on later ones (L10).
  if (failures === FAILS_TO_PARK) {
    effects.push({
      type: "escalate",
      taskId: task.id,
      kind: "verify_failed_twice",
      holder: holding.holder,
      text: `Task ${code(task.id)} (${task.subject}) failed review twice and is parked with @${holding.holder.name}. Last findings: ${reasons === "" ? "(none given)" : reasons}\n${parkedChoices(task, holding)}`,
    });
  }
  return { outcome: parks ? "parked" : "findings", effects };
}

function onMissing(board: Board, task: Task, holding: Holding, gate: GateRun, why: "no_verdict" | "conflicting", now: number): { outcome: GateOutcome; effects: Effect[] } {
  if (!gate.clarified) {
    moveTask(board, task, { status: "in_review", holding, gate: { ...gate, clarified: true } }, now);
    return { outcome: "clarify", effects: [{ type: "clarify_reviewer", token: gate.token, taskId: task.id, prompt: clarificationPrompt(task.id, why) }] };
  }
  // An attempt the leader allowed on a parked task goes back to parked: the allowance was for one
  // review, and an inconclusive one must not turn into free resubmissions (R45, L10).
  const parked = holding.failures >= FAILS_TO_PARK;
  moveTask(board, task, parked ? { status: "parked", holding } : { status: "claimed", holding }, now);
  const head = `The reviewer of ${code(task.id)} (${task.subject}) gave no usable verdict, even after one clarification. This does not count as a failed review;`;
  return {
    outcome: "escalated",
    effects: [
      {
        type: "escalate",
        taskId: task.id,
        kind: "verdict_missing",
        holder: holding.holder,
        text: parked
          ? `${head} the task stays parked with @${holding.holder.name} (it had failed review ${holding.failures} times before).\n${parkedChoices(task, holding)}`
          : `${head} @${holding.holder.name} keeps the claim. Decide: ask @${holding.holder.name} to resubmit (a fresh reviewer runs), or release or supersede the task.`,
      },
    ],
  };
}

/**
 * Applies a reviewer's answer at `now` (ms). The token must match the task's current gate run;
 * otherwise (release, stop, supersede, new claim since) the outcome is ignored: `stale_gate`
 * with an `abort_reviewer` effect (L9). PASS completes the task. FAIL returns it to `claimed`
 * with findings for the holder; the second FAIL in a holding parks it and escalates once; later
 * FAILs (after a resubmission from parked) keep it parked without escalation (L10). No verdict:
 * the first time, the task stays in review and one `clarify_reviewer` goes to the same reviewer;
 * the second time the leader gets one escalation and the holder keeps the claim, failures
 * unchanged (R44, W9); on an attempt allowed from parked the task returns to parked instead.
 */
export function gateOutcome(board: Board, input: GateOutcomeInput, now: number): GateResult {
  const taskId = board.index.gates.get(input.token);
  const task = taskId === undefined ? undefined : board.tasks.get(taskId);
  if (!task || task.state.status !== "in_review" || task.state.gate.token !== input.token) {
    const staleTask = input.token.split("#")[0] ?? "";
    return {
      ok: false,
      reason: "stale_gate",
      message: `Ignored a reviewer outcome for gate ${code(input.token)}: task ${code(staleTask)} is no longer in that review (released, stopped, superseded or claimed again).`,
      effects: [{ type: "abort_reviewer", token: input.token, taskId: staleTask, reason: "stale_outcome" }],
    };
  }
  const { holding, gate } = task.state;
  const verdict = parseVerdict(input.text);
  let step: { outcome: GateOutcome; effects: Effect[] };
  switch (verdict.kind) {
    case "pass":
      moveTask(board, task, { status: "completed", completedAt: now, by: holding.holder.name }, now);
      step = {
        outcome: "completed",
        effects: [{ type: "tell_holder", to: holding.holder, taskId: task.id, about: "verify_passed", text: `Review of ${code(task.id)} passed (attempt ${gate.attempt}); the task is completed.` }],
      };
      break;
    case "fail":
      step = onFail(board, task, holding, gate, verdict.reasons, now);
      break;
    case "missing":
      step = onMissing(board, task, holding, gate, verdict.why, now);
      break;
    default:
      assertNever(verdict, "verdict");
  }
  return { ok: true, task, outcome: step.outcome, verdict, effects: [...step.effects, commit(board)] };
}
