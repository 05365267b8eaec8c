import { nextDue } from "../team/heartbeat.ts";
import type { HeartbeatConfig } from "../team/lifecycle-types.ts";
import type { Member } from "../team/member.ts";

/** Node's setTimeout limit (2^31-1 ms, about 24.8 days): a longer delay would fire at once. */
const MAX_TIMEOUT_MS = 2_147_483_647;

/**
 * The one heartbeat timer of a team (R52): armed for the earliest notice any working or starting
 * teammate could get, cleared when nobody works, so an idle team has no timer and no wake-up.
 * Output only moves due times later, so a timer armed earlier stays: when it fires early its
 * ticks find nothing due, and it is armed again for the new earliest time.
 */
export class HeartbeatTimer {
  readonly #config: HeartbeatConfig;
  readonly #now: () => number;
  readonly #onTick: () => void;
  #timer: NodeJS.Timeout | undefined;
  #at = Number.POSITIVE_INFINITY;

  /** `onTick` is called when the timer fires; it should tick every member. */
  constructor(config: HeartbeatConfig, now: () => number, onTick: () => void) {
    this.#config = config;
    this.#now = now;
    this.#onTick = onTick;
  }

  /** Re-arms for `members` after a change. Cheap: at most one clear and set per call. */
  arm(members: Iterable<Member>): void {
    let due = Number.POSITIVE_INFINITY;
    for (const m of members) {
      const s = m.state;
      if (s.phase !== "working" && s.phase !== "starting") continue;
      const at = nextDue(s.life.activity, this.#config);
      if (at !== undefined) due = Math.min(due, at);
    }
    if (!Number.isFinite(due)) return this.stop();
    if (this.#timer && this.#at <= due) return;
    clearTimeout(this.#timer);
    this.#at = due;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#at = Number.POSITIVE_INFINITY;
      this.#onTick();
    }, Math.min(Math.max(0, due - this.#now()) + 1, MAX_TIMEOUT_MS));
    this.#timer.unref();
  }

  /** True while armed (tests and benchmarks check that an idle team has none). */
  get armed(): boolean {
    return this.#timer !== undefined;
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#at = Number.POSITIVE_INFINITY;
  }
}
