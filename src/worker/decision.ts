import { TeamError } from "../errors.ts";
import { BoardIntentSchema, DECISION_TIMEOUT_MS, INTENT_FORMAT_VERSION, sealIntent, type BoardDecision, type UnsealedIntent } from "../mail/intents.ts";
import { newMessageId } from "../mail/envelope.ts";
import { checkValue, publishIntent, type BoardLayout } from "../store/index.ts";
import type { DecisionWatcher } from "./decision-watch.ts";

export { DECISION_TIMEOUT_MS };

/** What `requestDecision` publishes through: the board's folders, this spawn's key, its decisions watcher. */
export interface DecisionChannel {
  layout: BoardLayout;
  /** This worker's spawn key (src/mail/seal.ts): seals the intent; the decision must be sealed with it too. */
  key: Buffer;
  /** The worker's one watcher of `decisions/` (started here on first use). */
  watcher: DecisionWatcher;
}

/**
 * Publishes one board intent, sealed with this spawn's key, and waits for the leader's sealed
 * decision, returning it in the same tool call (W11). The process's decisions watcher is ready
 * and the call registered on it before the intent is published, so a fast answer is never
 * missed; the watcher removes the decision once read and ignores any file in its name that the
 * leader did not seal for this spawn. The whole intent is checked against the intent schema
 * first, as the leader will check it: an intent the leader would only set aside as invalid is
 * never published. A rejection is a decision like any other (`ok: false` with its code), not an error.
 * @throws TeamError `invalid_input` naming the field, its value (cut short) and the limit when the
 *   intent breaks the schema (nothing is published); TeamError `timeout` when no decision arrives
 *   within `timeoutMs` (the leader may be gone); TeamError `io_error` when the intent cannot be
 *   published or the decisions folder cannot be watched, or when the session shuts down first.
 */
export async function requestDecision(
  channel: DecisionChannel,
  intent: Omit<UnsealedIntent, "v" | "id" | "at">,
  timeoutMs: number = DECISION_TIMEOUT_MS,
): Promise<BoardDecision> {
  const { layout, key, watcher } = channel;
  const now = Date.now();
  const full = sealIntent(key, { v: INTENT_FORMAT_VERSION, id: newMessageId(now), at: now, ...intent });
  const checked = checkValue(BoardIntentSchema, full);
  if (!checked.ok) {
    const tool = intent.action === "claim" ? "task_claim" : "task_submit";
    throw new TeamError("invalid_input", `${tool}: invalid arguments, nothing was sent to the leader: ${checked.message}. Fix them and call ${tool} again.`);
  }
  await watcher.ready();
  const wait = watcher.expect(full.id);
  let timer: NodeJS.Timeout | undefined;
  try {
    const dir = intent.action === "claim" ? layout.claimsDir : layout.submissionsDir;
    const published = await publishIntent(dir, full.id, full);
    if (!published.ok) throw new TeamError("io_error", published.message);
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new TeamError("timeout", `No decision from the leader on ${intent.action} ${intent.taskId ?? "(first claimable)"} within ${timeoutMs} ms; the leader may be busy or gone. Try again later.`)),
        timeoutMs,
      );
    });
    return await Promise.race([wait.decided, timedOut]);
  } finally {
    clearTimeout(timer);
    wait.cancel();
  }
}
