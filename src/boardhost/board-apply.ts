/**
 * One checked intent applied to the pure board core (R37–R39, R47, R49): the shell's own checks
 * (the sender is the living incarnation; the board is readable), then `claimTask` or
 * `submitTask`, and the text the worker's model gets back. No I/O: the caller answers on the
 * teammate's pipe (board-intents.ts, stream-records.ts).
 */
import { boardOffText, claimTask, submitTask, type Assignment, type Board, type BoardRejection, type Effect, type Holder, type AcceptedSubmission } from "../board/index.ts";
import type { BoardIntent } from "../mail/index.ts";
import type { BoardMate } from "./board-host-types.ts";


/** What one intent did: the decision the teammate's pipe carries back (src/mail/stream-wire.ts). */
export type IntentAnswer =
  | { ok: true; message: string; taskId?: string }
  | { ok: false; reason: BoardRejection; message: string; taskId?: string };

/** What `applyIntent` reads and calls; fresh for every intent. */
export interface ApplyContext {
  board: Board;
  /** Living teammates. */
  mates: BoardMate[];
  /** Why the board is off (board.json unreadable), if it is: the intent is refused. */
  unavailable: string | undefined;
  /** Clock, ms since the epoch. */
  now: number;
  /** Carries out the core's effects. */
  apply: (effects: readonly Effect[]) => void;
  /** A submission of `holder` was accepted (an assignment boundary). Must not throw. */
  submitted?: (holder: Holder, submission: AcceptedSubmission) => void;
}

/** The direct assignments of `mates` other than `except`, whose resources block claims (R49). */
export function assignmentsOf(mates: readonly BoardMate[], except?: string): Assignment[] {
  return mates.filter((m) => m.name !== except && m.assignmentResources).map((m) => ({ name: m.name, resources: m.assignmentResources ?? [] }));
}

/**
 * Applies one intent whose seal already held: refuses it with `board_unavailable` when the board
 * is off and `stale_spawn` when its spawn is not the living incarnation (R47), else hands it to
 * the core and carries out the effects. Returns the answer for the worker; never throws.
 */
export function applyIntent(intent: Pick<BoardIntent, "action" | "from" | "spawnId" | "taskId" | "status" | "result">, c: ApplyContext): IntentAnswer {
  const tool = intent.action === "claim" ? "task_claim" : "task_submit";
  if (c.unavailable) return { ok: false, reason: "board_unavailable", message: boardOffText(tool, "the leader cannot read board.json") };
  const mate = c.mates.find((m) => m.name === intent.from);
  if (!mate || mate.spawnId !== intent.spawnId) {
    return { ok: false, reason: "stale_spawn", message: `${intent.from} (spawn ${intent.spawnId}) is not a living teammate incarnation; nothing was changed.` };
  }
  const holder = { name: mate.name, spawnId: mate.spawnId };
  if (intent.action === "claim") {
    const claimant = { ...holder, hasAssignment: mate.hasAssignment };
    const r = claimTask(c.board, { holder: claimant, ...(intent.taskId ? { taskId: intent.taskId } : {}), assignments: assignmentsOf(c.mates, mate.name) }, c.now);
    c.apply(r.effects);
    if (!r.ok) return { ok: false, reason: r.reason, message: r.message, ...(intent.taskId ? { taskId: intent.taskId } : {}) };
    const t = r.task;
    const lines = [`Claimed task ${t.id}: ${t.subject}.`];
    if (t.description) lines.push(t.description);
    if (t.resources.length) lines.push(`Resources you now hold: ${t.resources.join(", ")}.`);
    if (t.verify ?? mate.roleVerify) lines.push(`An independent reviewer will check it against: ${t.verify ?? mate.roleVerify}`);
    lines.push('When done, call task_submit with status "completed" and a result, or "failed" with the reason.');
    return { ok: true, message: lines.join("\n"), taskId: t.id };
  }
  if (!intent.taskId || !intent.status) return { ok: false, reason: "invalid_input", message: "task_submit needs taskId and status." };
  const r = submitTask(c.board, {
    holder,
    taskId: intent.taskId,
    status: intent.status,
    ...(intent.result !== undefined ? { result: intent.result } : {}),
    ...(mate.roleVerify ? { roleVerify: mate.roleVerify } : {}),
  }, c.now);
  c.apply(r.effects);
  if (!r.ok) return { ok: false, reason: r.reason, message: r.message, taskId: intent.taskId };
  const text = intent.status === "failed" ? (r.task.lastError ?? "") : (r.task.lastResult ?? "");
  c.submitted?.(holder, { taskId: r.task.id, status: intent.status, outcome: r.outcome, text, failedSubmits: r.task.failedSubmits ?? 0 });
  const said: Record<typeof r.outcome, string> = {
    completed: `Task ${r.task.id} is completed.`,
    in_review: `Task ${r.task.id} was submitted; an independent reviewer is checking it now. You keep the claim; the verdict reaches you as a message. End your turn.`,
    released: `Task ${r.task.id} returned to the board as pending with your reason kept.`,
    parked: `Task ${r.task.id} has failed ${r.task.failedSubmits ?? 0} times: it is parked with you and the leader decides what happens next. Do not resubmit unless the leader asks; end your turn.`,
    acknowledged: `Task ${r.task.id} was superseded; your acknowledgement released its resources.`,
  };
  return { ok: true, message: said[r.outcome], taskId: r.task.id };
}
