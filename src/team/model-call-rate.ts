/**
 * The model-call rate of one teammate as a pure rule (issue 18): a teammate that makes many model
 * calls in a short time with no report and no board step in between is looping (a scripted
 * misbehaving teammate called `task_list` 975 times in 45 s, unseen), and the leader is told once.
 * Nothing is stopped. No clock: every `at` is given (ms since the epoch). The shell is
 * src/harness/team-driver.ts (one per incarnation; it counts each assistant `message_end` of the
 * teammate's RPC stream) and src/harness/harness.ts (the steps that start a new streak).
 */

/**
 * Model calls within {@link LOOP_WINDOW_MS} that make a loop.
 *
 * Why 100 in 60 s: one model call of a real model takes about a second or more (time to the first
 * token plus the tool call it writes, then the tool's own run), so a teammate at work makes at
 * most about 60 a minute, and far fewer when it reads, edits or runs tests; parallel tool calls of
 * one answer are one call. 100 calls in a minute is 0.6 s a call, sustained a hundred times with
 * no report and no board claim or submission: only a model answering instantly with the same
 * cheap call again does that. The loop this catches ran at about 22 calls a second and is seen
 * after about 5 s. A loop at a real model's pace (a call a second or slower) is not caught: it
 * costs what normal work costs per minute, and telling the two apart needs more than a rate.
 */
export const LOOP_CALLS = 100;
/** The window of {@link LOOP_CALLS}, in ms. */
export const LOOP_WINDOW_MS = 60_000;

/**
 * Reads `PI_TEAMMATE_LOOP_CALLS` (a whole number of model calls within {@link LOOP_WINDOW_MS};
 * `0` turns the rule off, for the fault suite's floods, where a teammate answering 10,000 mails
 * is the point). Unset or blank keeps {@link LOOP_CALLS}; a bad value (or 1) keeps it too and
 * returns a warning naming the variable, the value and what is accepted.
 */
export function resolveLoopCalls(env: NodeJS.ProcessEnv): { calls: number; warnings: string[] } {
  const raw = env.PI_TEAMMATE_LOOP_CALLS?.trim();
  if (raw === undefined || raw === "") return { calls: LOOP_CALLS, warnings: [] };
  if (!/^\d+$/.test(raw) || Number(raw) === 1) {
    return { calls: LOOP_CALLS, warnings: [`PI_TEAMMATE_LOOP_CALLS="${env.PI_TEAMMATE_LOOP_CALLS}" is not a whole number of model calls of at least 2 (0 turns the rule off); using ${LOOP_CALLS}.`] };
  }
  return { calls: Number(raw), warnings: [] };
}

/** A streak that reached the rate: what the leader is told. */
export interface LoopStreak {
  /** The calls within the window: {@link LOOP_CALLS} (or the limit given). */
  readonly calls: number;
  /** The time those calls took, first to last, in ms. */
  readonly spanMs: number;
  /** Every call since the last reset (at least `calls`). */
  readonly total: number;
}

/**
 * The model calls of one teammate incarnation since its last report or board step (a streak).
 * `call` counts one; the first time `calls` of them fall within `windowMs` it returns the streak,
 * and never again for that streak, however long it goes on (one leader event per streak: the
 * leader already knows, and can message the teammate, which starts a new streak, or shut it
 * down). `reset` starts a new streak.
 */
export class ModelCallRate {
  readonly #calls: number;
  readonly #windowMs: number;
  /** Times of the streak's latest calls, at most `#calls`, oldest first. */
  #times: number[] = [];
  #total = 0;
  #raised = false;

  /**
   * @param limits the loop rate; default {@link LOOP_CALLS}, window default {@link LOOP_WINDOW_MS}.
   * @throws RangeError when `calls` is not an integer of at least 2 or `windowMs` is not positive.
   */
  constructor(limits: { calls: number; windowMs?: number } = { calls: LOOP_CALLS }) {
    if (!Number.isInteger(limits.calls) || limits.calls < 2) throw new RangeError(`loop calls must be an integer of at least 2; got ${limits.calls}`);
    const windowMs = limits.windowMs ?? LOOP_WINDOW_MS;
    if (!(windowMs > 0)) throw new RangeError(`loop window must be a positive number of ms; got ${windowMs}`);
    this.#calls = limits.calls;
    this.#windowMs = windowMs;
  }

  /** Counts one model call made at `at`. @returns the streak the first time it reaches the rate, else undefined. */
  call(at: number): LoopStreak | undefined {
    this.#total += 1;
    this.#times.push(at);
    if (this.#times.length > this.#calls) this.#times.shift();
    if (this.#raised || this.#times.length < this.#calls) return undefined;
    const spanMs = at - this.#times[0]!;
    if (spanMs > this.#windowMs) return undefined;
    this.#raised = true;
    return { calls: this.#calls, spanMs, total: this.#total };
  }

  /** A report reached the leader, a board claim or submission was accepted, or the leader wrote to it: a new streak. */
  reset(): void {
    this.#times = [];
    this.#total = 0;
    this.#raised = false;
  }
}

/** The harness event type (R30): one per streak. */
export const LOOP_EVENT = "teammate_looping";

/** The leader's one event for a streak of `name`: the figures, that nothing was stopped, and what to do. */
export function loopEventText(name: string, s: LoopStreak): string {
  const seconds = Math.round(s.spanMs / 100) / 10;
  const all = s.total > s.calls ? ` (${s.total} since the last one)` : "";
  return [
    `@${name} made ${s.calls} model calls in ${seconds} s with no report or board step${all}. A teammate at work makes at most about one a second: it is probably looping, repeating the same call.`,
    `Nothing was stopped. Tell it what to do with send_message (that also starts its count again), or shut it down with teammate_shutdown. You get this once per streak: the next only after its next report, board claim or submission, or message from you.`,
  ].join("\n");
}
