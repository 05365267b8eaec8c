import { Type, type Static } from "typebox";
import { EpochMsSchema, MessageIdSchema, SpawnIdSchema, TeammateNameSchema } from "./envelope.ts";

/** Version of claim/submission intents and decisions (references/board-intents.md). */
export const INTENT_FORMAT_VERSION = 1;

/** Longest `taskId` an intent may carry, in characters (board task ids are shorter still). */
export const INTENT_TASK_ID_MAX_CHARS = 64;
/** Longest `result` an intent may carry, in characters. */
export const INTENT_RESULT_MAX_CHARS = 60_000;

/**
 * A worker's request to the leader's board (R48, W5): published atomically as
 * `<board dir>/claims/<id>.json` or `submissions/<id>.json` (temp file + no-overwrite link).
 * Sender fields come from the worker's environment; the leader validates the spawn id (R47).
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
});
export type BoardIntent = Static<typeof BoardIntentSchema>;

/**
 * The leader's answer to one intent, written atomically to `<board dir>/decisions/<id>.json`;
 * the worker's tool call waits for it and returns it in the same call (W11).
 */
export const BoardDecisionSchema = Type.Object({
  v: Type.Literal(INTENT_FORMAT_VERSION),
  id: MessageIdSchema,
  at: EpochMsSchema,
  ok: Type.Boolean(),
  /** Rejection reason code (e.g. `owned`, `blocked`, `stale_spawn`), absent when accepted. */
  reason: Type.Optional(Type.String()),
  /** Text for the worker's model: what happened and what to do next. */
  message: Type.String(),
  taskId: Type.Optional(Type.String()),
});
export type BoardDecision = Static<typeof BoardDecisionSchema>;
