import { Type, type Static } from "typebox";
import { EpochMsSchema, MessageIdSchema, SpawnIdSchema, TeammateNameSchema } from "./envelope.ts";
import { SealSchema, sealHolds, sealOf, type SpawnKeys } from "./seal.ts";

/** Version of claim/submission intents (references/board-intents.md). v2: sealed. */
export const INTENT_FORMAT_VERSION = 2;

/** Longest `taskId` an intent may carry, in characters (board task ids are shorter still). */
export const INTENT_TASK_ID_MAX_CHARS = 64;
/** Longest `result` an intent may carry, in characters. */
export const INTENT_RESULT_MAX_CHARS = 60_000;

/**
 * A worker's request to the leader's board (R48, W5): published atomically as
 * `<board dir>/claims/<id>.json` or `submissions/<id>.json` (temp file + no-overwrite link).
 * Sender fields come from the worker's environment; `sig` seals the intent with the writer's
 * spawn key ({@link intentSealHolds}); the leader checks the seal first, then the spawn id (R47),
 * and answers on the writer's own stdin (src/mail/stream-wire.ts), in the same tool call (W11).
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

/** An intent before it is sealed. */
export type UnsealedIntent = Omit<BoardIntent, "sig">;

/**
 * The sealed fields of an intent, in their fixed order: v, id, from, spawnId, at, action,
 * taskId, status, result. Reads any object (an untrusted marker too); absent fields seal as null.
 */
export function intentFields(i: Partial<Record<keyof UnsealedIntent, unknown>>): unknown[] {
  return [i.v, i.id, i.from, i.spawnId, i.at, i.action, i.taskId, i.status, i.result];
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
