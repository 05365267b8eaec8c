/**
 * The closed set of codes a board decision can reject with (references/board-intents.md), defined
 * once as typebox literal unions: the core's claim and submit rejections, and the three the
 * leader's shell adds. The core returns them, the decision on the pipe carries them (its schema is
 * built from {@link BoardRejectionSchema}), and the worker hands them to its model unchanged.
 */
import { Type, type Static, type TLiteral, type TUnion } from "typebox";

/** A typebox union of one literal per code, typed as exactly those codes. */
function codes<const T extends readonly string[]>(list: T): TUnion<{ -readonly [K in keyof T]: TLiteral<T[K]> }> {
  // typebox cannot map a generic tuple itself; the literals are built one per code, in order.
  return Type.Union(list.map((c) => Type.Literal(c))) as unknown as TUnion<{ -readonly [K in keyof T]: TLiteral<T[K]> }>;
}

/** Why `claimTask` refused a claim (R37, R49–R50), in check order. */
export const CLAIM_REJECTIONS = [
  "has_assignment",
  "not_found",
  "not_pending",
  "completed",
  "superseded",
  "blocked",
  "resource_conflict",
  "none_claimable",
] as const;
export const ClaimRejectionSchema = codes(CLAIM_REJECTIONS);
export type ClaimRejection = Static<typeof ClaimRejectionSchema>;

/** Why `submitTask` refused a submission (R38–R39, R45). */
export const SUBMIT_REJECTIONS = ["not_found", "not_claimed", "not_holder", "in_review", "superseded", "parked"] as const;
export const SubmitRejectionSchema = codes(SUBMIT_REJECTIONS);
export type SubmitRejection = Static<typeof SubmitRejectionSchema>;

/**
 * Codes only the leader's shell gives, before the core is asked: `stale_spawn` (the intent's
 * spawn is not the living incarnation, R47), `board_unavailable` (board.json cannot be read, so
 * the board is off), `invalid_input` (the intent broke the intent schema).
 */
export const SHELL_REJECTIONS = ["stale_spawn", "board_unavailable", "invalid_input"] as const;

/** Every code a board decision may carry, each once, in the order claim, submit, shell. */
export const BOARD_REJECTIONS = [...new Set([...CLAIM_REJECTIONS, ...SUBMIT_REJECTIONS, ...SHELL_REJECTIONS])] as Array<
  (typeof CLAIM_REJECTIONS)[number] | (typeof SUBMIT_REJECTIONS)[number] | (typeof SHELL_REJECTIONS)[number]
>;
/** The `reason` of a rejecting decision: one of {@link BOARD_REJECTIONS}. */
export const BoardRejectionSchema = Type.Union([ClaimRejectionSchema, SubmitRejectionSchema, codes(SHELL_REJECTIONS)]);
export type BoardRejection = Static<typeof BoardRejectionSchema>;
