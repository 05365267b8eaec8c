import { Type, type Static } from "typebox";
import { BoardRejectionSchema } from "./rejections.ts";
import { EpochMsSchema, MessageIdSchema, SpawnIdSchema, TeammateNameSchema } from "./envelope.ts";
import { SealSchema, sealHolds, sealOf, type SpawnKeys } from "./seal.ts";

/** Version of claim/submission intents and decisions (references/board-intents.md). v2: sealed. */
export const INTENT_FORMAT_VERSION = 2;

/** Longest `taskId` an intent may carry, in characters (board task ids are shorter still). */
export const INTENT_TASK_ID_MAX_CHARS = 64;
/** Longest `result` an intent may carry, in characters. */
export const INTENT_RESULT_MAX_CHARS = 60_000;

/**
 * How long a worker's board tool waits for the leader's decision, in ms. A decision file older
 * than this has no reader left: the leader removes it (references/board-intents.md, cleanup).
 */
export const DECISION_TIMEOUT_MS = 120_000;

/**
 * A worker's request to the leader's board (R48, W5): published atomically as
 * `<board dir>/claims/<id>.json` or `submissions/<id>.json` (temp file + no-overwrite link).
 * Sender fields come from the worker's environment; `sig` seals the intent with the writer's
 * spawn key ({@link intentSealHolds}); the leader checks the seal first, then the spawn id (R47).
 */
export const BoardIntentSchema = Type.Object({
  v: Type.Literal(INTENT_FORMAT_VERSION),
  id: MessageIdSchema,
  from: TeammateNameSchema,
  spawnId: SpawnIdSchema,
  at: EpochMsSchema,
  action: Type.Union([Type.Literal("claim"), Type.Literal("submit")]),
  /** Claim: the task to claim, or absent for the first claimable. Submit: required. */
  taskId: Type.Optional(Type.String({ minLength: 1, maxLength: INTENT_TASK_ID_MAX_CHARS })),
  status: Type.Optional(Type.Union([Type.Literal("completed"), Type.Literal("failed")])),
  result: Type.Optional(Type.String({ maxLength: INTENT_RESULT_MAX_CHARS })),
  sig: SealSchema,
});
export type BoardIntent = Static<typeof BoardIntentSchema>;

/**
 * The leader's answer to one intent, written atomically to `<board dir>/decisions/<id>.json`;
 * the worker's tool call waits for it and returns it in the same call (W11). `sig` seals it with
 * the key of the intent's spawn, so only the leader can answer ({@link decisionSealHolds}).
 */
export const BoardDecisionSchema = Type.Object({
  v: Type.Literal(INTENT_FORMAT_VERSION),
  id: MessageIdSchema,
  at: EpochMsSchema,
  ok: Type.Boolean(),
  /** Rejection code (src/mail/rejections.ts), absent when accepted. */
  reason: Type.Optional(BoardRejectionSchema),
  /** Text for the worker's model: what happened and what to do next. */
  message: Type.String(),
  taskId: Type.Optional(Type.String()),
  sig: SealSchema,
});
export type BoardDecision = Static<typeof BoardDecisionSchema>;

/** An intent or a decision before it is sealed. */
export type UnsealedIntent = Omit<BoardIntent, "sig">;
export type UnsealedDecision = Omit<BoardDecision, "sig">;

/**
 * The sealed fields of an intent, in their fixed order: v, id, from, spawnId, at, action,
 * taskId, status, result. Reads any object (an untrusted marker too); absent fields seal as null.
 */
export function intentFields(i: Partial<Record<keyof UnsealedIntent, unknown>>): unknown[] {
  return [i.v, i.id, i.from, i.spawnId, i.at, i.action, i.taskId, i.status, i.result];
}

/** The sealed fields of a decision, in their fixed order: v, id, at, ok, reason, message, taskId. */
export function decisionFields(d: UnsealedDecision): unknown[] {
  return [d.v, d.id, d.at, d.ok, d.reason, d.message, d.taskId];
}

/** `intent` sealed with its writer's spawn `key` (kind "intent"). Pure apart from the hash. */
export function sealIntent(key: Buffer, intent: UnsealedIntent): BoardIntent {
  return { ...intent, sig: sealOf(key, "intent", intentFields(intent)) };
}

/**
 * True when `intent` (a parsed marker, valid or not) is sealed by the spawn it names: `from` and
 * `spawnId` are one spawn of this session in `keys` and `sig` is the seal of its fields under
 * that spawn's key. False for anything else (no such spawn, another teammate's spawn id, a
 * missing or wrong seal). Never throws.
 */
export function intentSealHolds(keys: SpawnKeys, intent: Record<string, unknown>): boolean {
  const { from, spawnId } = intent;
  if (typeof from !== "string" || typeof spawnId !== "string") return false;
  const key = keys.keyOf(from, spawnId);
  return key !== undefined && sealHolds(key, "intent", intentFields(intent), intent.sig);
}

/** `decision` sealed with the key of the spawn whose intent it answers (kind "decision"). */
export function sealDecision(key: Buffer, decision: UnsealedDecision): BoardDecision {
  return { ...decision, sig: sealOf(key, "decision", decisionFields(decision)) };
}

/** True when `decision` carries the leader's seal under this worker's spawn `key`. Never throws. */
export function decisionSealHolds(key: Buffer, decision: BoardDecision): boolean {
  return sealHolds(key, "decision", decisionFields(decision), decision.sig);
}
