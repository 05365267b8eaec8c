import { nextDue } from "../team/heartbeat.ts";
import { isActive } from "../team/lifecycle-state.ts";
import type { HeartbeatConfig } from "../team/lifecycle-types.ts";
import type { Member } from "../team/member.ts";
import type { Clock } from "./harness-ports.ts";

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
  readonly #clock: Clock;
  readonly #onTick: () => void;
  /** Cancels the armed timer; undefined when none is armed. */
  #cancel: (() => void) | undefined;
  #at = Number.POSITIVE_INFINITY;

  /** `onTick` is called when the timer fires; it should tick every member. */
  constructor(config: HeartbeatConfig, clock: Clock, onTick: () => void) {
    this.#config = config;
    this.#clock = clock;
    this.#onTick = onTick;
  }

  /** Re-arms for `members` after a change. Cheap: at most one clear and set per call. */
  arm(members: Iterable<Member>): void {
    let due = Number.POSITIVE_INFINITY;
    for (const m of members) {
      const s = m.state;
      if (!("life" in s) || !isActive(s.phase)) continue;
      const at = nextDue(s.life.activity, this.#config);
      if (at !== undefined) due = Math.min(due, at);
    }
    if (!Number.isFinite(due)) return this.stop();
    if (this.#cancel && this.#at <= due) return;
    this.#cancel?.();
    this.#at = due;
    this.#cancel = this.#clock.setTimer(() => {
      this.#cancel = undefined;
      this.#at = Number.POSITIVE_INFINITY;
      this.#onTick();
    }, Math.min(Math.max(0, due - this.#clock.now()) + 1, MAX_TIMEOUT_MS));
  }

  /** True while armed (tests and benchmarks check that an idle team has none). */
  get armed(): boolean {
    return this.#cancel !== undefined;
  }

  stop(): void {
    this.#cancel?.();
    this.#cancel = undefined;
    this.#at = Number.POSITIVE_INFINITY;
  }
}
