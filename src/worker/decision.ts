import { TeamError } from "../errors.ts";
import { BoardIntentSchema, INTENT_FORMAT_VERSION, sealIntent, type UnsealedIntent } from "../mail/intents.ts";
import { newMessageId } from "../mail/envelope.ts";
import { ANSWER_TIMEOUT_MS, type BoardDecision, type StreamAnswer } from "../mail/stream-wire.ts";
import { checkValue, publishIntent, type BoardLayout } from "../store/index.ts";
import type { StreamLink } from "./stream-link.ts";

/** What `requestDecision` publishes through: the board's folders, this spawn's key, its pipe. */
export interface DecisionChannel {
  layout: BoardLayout;
  /** This worker's spawn key (src/mail/seal.ts): seals the intent. */
  key: Buffer;
  /** This process's pipe to the leader, where the decision comes back. */
  link: StreamLink;
}

/**
 * The decision an answer on the pipe carries. An answer without one (a leader of another build)
 * is a rejection with its text. Pure.
 */
export function decisionOf(a: StreamAnswer): BoardDecision {
  return a.decision ?? { ok: false, reason: "invalid_input", message: a.text };
}

/**
 * Publishes one board intent file, sealed with this spawn's key, and waits for the leader's
 * decision on this process's pipe, returning it in the same tool call (W11). The wait is
 * registered before the intent is published, so a fast answer is never missed; only the leader
 * writes to the pipe, so the answer needs no seal. The whole intent is checked against the
 * intent schema first, as the leader will check it: an intent the leader would only set aside as
 * invalid is never published. A rejection is a decision like any other (`ok: false` with its
 * code), not an error.
 * @throws TeamError `invalid_input` naming the field, its value (cut short) and the limit when the
 *   intent breaks the schema (nothing is published); TeamError `timeout` when no decision arrives
 *   within `timeoutMs` (the leader may be gone); TeamError `io_error` when the intent cannot be published.
 */
export async function requestDecision(
  channel: DecisionChannel,
  intent: Omit<UnsealedIntent, "v" | "id" | "at">,
  timeoutMs: number = ANSWER_TIMEOUT_MS,
): Promise<BoardDecision> {
  const { layout, key, link } = channel;
  const now = Date.now();
  const full = sealIntent(key, { v: INTENT_FORMAT_VERSION, id: newMessageId(now), at: now, ...intent });
  const checked = checkValue(BoardIntentSchema, full);
  if (!checked.ok) {
    const tool = intent.action === "claim" ? "task_claim" : "task_submit";
    throw new TeamError("invalid_input", `${tool}: invalid arguments, nothing was sent to the leader: ${checked.message}. Fix them and call ${tool} again.`);
  }
  const answer = await link.answerTo(full.id, async () => {
    const dir = intent.action === "claim" ? layout.claimsDir : layout.submissionsDir;
    const published = await publishIntent(dir, full.id, full);
    if (!published.ok) throw new TeamError("io_error", published.message);
  }, timeoutMs);
  return decisionOf(answer);
}
