/**
 * What the leader's harness tells the outside (the session, the console feed, the board host,
 * tests): one typed signal per thing that happened, through one subscription (`on`). Listeners
 * run synchronously, in subscription order, where the harness emits: a `gone` listener releases
 * the board before the child is signalled, an `idle` one offers work at once.
 */
import type { RpcEvent } from "../process/index.ts";
import type { Member } from "../team/member.ts";
import type { HarnessNote, LeaderDelivery, MailDelivery } from "./harness-types.ts";
import type { ActivityChange } from "../team/team-activity.ts";

/** One signal of the harness. */
export type HarnessSignal =
  /** A leader follow-up turn to start (R26, R30): a report or a `<harness-event>`. */
  | { readonly type: "delivery"; readonly delivery: LeaderDelivery }
  /** A console note (routing results, suppressed reports, child dialogs); never a model turn. */
  | { readonly type: "note"; readonly note: HarnessNote }
  /** Mail was written into a teammate's control stream (console, benchmarks). */
  | { readonly type: "mail_delivered"; readonly delivery: MailDelivery }
  /** Every RPC event of a teammate's child as it arrives (activity line, context gauge). */
  | { readonly type: "rpc_event"; readonly member: Member; readonly event: RpcEvent }
  /** The one end-of-life line of an incarnation (R55); `ok` false for a failure end. */
  | { readonly type: "lifeline"; readonly member: Member; readonly text: string; readonly ok: boolean }
  /** A teammate settled idle with nothing pending: the board may offer it work (R36). */
  | { readonly type: "idle"; readonly member: Member }
  /** A teammate is going away: before a requested stop is signalled, and after a crash (R21, R56). */
  | { readonly type: "gone"; readonly member: Member; readonly reason: "shutdown" | "crash" }
  /** A spawn ended, started or failed (it counted as team work while in flight). */
  | { readonly type: "spawn_ended" }
  /** After teammate steps (`status`) and leader deliveries (`delivery`): headless waits. */
  | { readonly type: "activity"; readonly change: ActivityChange };

/** The signal types. */
export type HarnessSignalType = HarnessSignal["type"];

/** A listener of signals of type `K`. */
export type SignalListener<K extends HarnessSignalType> = (signal: Extract<HarnessSignal, { type: K }>) => void;

/**
 * The harness's signal list. `onError` hears a listener's throw (the harness notes it); a throw
 * never reaches the emitter, and one of a `note` listener is dropped (no note about a note).
 */
export class HarnessSignals {
  readonly #listeners = new Map<HarnessSignalType, Set<(signal: HarnessSignal) => void>>();
  readonly #onError: (type: HarnessSignalType, error: unknown) => void;

  constructor(onError: (type: HarnessSignalType, error: unknown) => void) {
    this.#onError = onError;
  }

  /** Calls `listener` for every later signal of `type`. Returns the unsubscribe. */
  on<K extends HarnessSignalType>(type: K, listener: SignalListener<K>): () => void {
    let set = this.#listeners.get(type);
    if (!set) this.#listeners.set(type, (set = new Set()));
    const entry = listener as (signal: HarnessSignal) => void;
    set.add(entry);
    return () => set.delete(entry);
  }

  /** Tells every listener of `signal.type`, in subscription order. Never throws. */
  emit(signal: HarnessSignal): void {
    for (const listener of [...(this.#listeners.get(signal.type) ?? [])]) {
      try {
        listener(signal);
      } catch (error) {
        if (signal.type !== "note") this.#onError(signal.type, error);
      }
    }
  }
}
