/**
 * The session's one bus (issue 19): the harness, the board host and the feed publish and hear
 * typed signals (src/team/signals.ts) here instead of calling each other's closures. Listeners
 * run synchronously, in subscription order, where the signal is emitted: a `gone` listener
 * releases the board before the child is signalled, an `idle` one offers work at once.
 */
import type { SignalListener, TeamSignal, TeamSignalType } from "./signals.ts";

/**
 * One session's signal list. A listener's throw never reaches the emitter: it is reported as a
 * `note` signal (`<type> listener failed: …`), and one of a `note` listener is dropped (no note
 * about a note).
 */
export class TeamBus {
  readonly #listeners = new Map<TeamSignalType, Set<(signal: TeamSignal) => void>>();
  readonly #now: () => number;

  /** `now`: the clock of the failure notes, ms since the epoch. */
  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Calls `listener` for every later signal of `type`. Returns the unsubscribe. */
  on<K extends TeamSignalType>(type: K, listener: SignalListener<K>): () => void {
    let set = this.#listeners.get(type);
    if (!set) this.#listeners.set(type, (set = new Set()));
    const entry = listener as (signal: TeamSignal) => void;
    set.add(entry);
    return () => set.delete(entry);
  }

  /** Tells every listener of `signal.type`, in subscription order. Never throws. */
  emit(signal: TeamSignal): void {
    for (const listener of [...(this.#listeners.get(signal.type) ?? [])]) {
      try {
        listener(signal);
      } catch (error) {
        if (signal.type === "note") continue;
        this.emit({ type: "note", note: { at: this.#now(), text: `${signal.type} listener failed: ${error instanceof Error ? error.message : String(error)}` } });
      }
    }
  }
}
