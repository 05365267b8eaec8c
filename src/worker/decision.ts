import { rm } from "node:fs/promises";
import { join } from "node:path";
import { TeamError } from "../errors.ts";
import { BoardDecisionSchema, BoardIntentSchema, INTENT_FORMAT_VERSION, newMessageId, type BoardDecision, type BoardIntent } from "../mail/index.ts";
import { checkValue, publishIntent, readValidated, watchDirs, type BoardLayout } from "../store/index.ts";

/** How long a worker's board tool waits for the leader's decision, in ms. */
export const DECISION_TIMEOUT_MS = 120_000;

/**
 * Publishes one board intent and waits for the leader's decision, returning it in the same tool
 * call (W11). The decision file is watched with chokidar (not a sleep loop) from before the
 * intent is published, so a fast answer is never missed; the worker removes it once read.
 * The whole intent is checked against the intent schema first, as the leader will check it: an
 * intent the leader would only set aside as invalid is never published.
 * @throws TeamError `invalid_input` naming the field, its value (cut short) and the limit when the
 *   intent breaks the schema (nothing is published); TeamError `timeout` when no decision arrives
 *   within `timeoutMs` (the leader may be gone); TeamError `io_error` when the intent cannot be
 *   published.
 */
export async function requestDecision(
  layout: BoardLayout,
  intent: Omit<BoardIntent, "v" | "id" | "at">,
  timeoutMs: number = DECISION_TIMEOUT_MS,
): Promise<BoardDecision> {
  const now = Date.now();
  const full: BoardIntent = { v: INTENT_FORMAT_VERSION, id: newMessageId(now), at: now, ...intent };
  const checked = checkValue(BoardIntentSchema, full);
  if (!checked.ok) {
    const tool = intent.action === "claim" ? "task_claim" : "task_submit";
    throw new TeamError("invalid_input", `${tool}: invalid arguments, nothing was sent to the leader: ${checked.message}. Fix them and call ${tool} again.`);
  }
  const decisionPath = join(layout.decisionsDir, `${full.id}.json`);
  let settle!: (d: BoardDecision) => void;
  const decided = new Promise<BoardDecision>((resolve) => (settle = resolve));
  const check = async (): Promise<void> => {
    const read = await readValidated(decisionPath, BoardDecisionSchema, "board decision");
    if (read.ok) settle(read.value);
  };
  const watch = watchDirs([layout.decisionsDir], (path) => {
    if (path === decisionPath || path === layout.decisionsDir) void check();
  }, { safetyPollMs: 2000 });
  let timer: NodeJS.Timeout | undefined;
  try {
    await watch.ready;
    const dir = intent.action === "claim" ? layout.claimsDir : layout.submissionsDir;
    const published = await publishIntent(dir, full.id, full);
    if (!published.ok) throw new TeamError("io_error", published.message);
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new TeamError("timeout", `No decision from the leader on ${intent.action} ${intent.taskId ?? "(first claimable)"} within ${timeoutMs} ms; the leader may be busy or gone. Try again later.`)),
        timeoutMs,
      );
    });
    const decision = await Promise.race([decided, timedOut]);
    await rm(decisionPath, { force: true });
    return decision;
  } finally {
    clearTimeout(timer);
    await watch.close();
  }
}
