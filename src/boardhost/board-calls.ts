/**
 * The safety net of the board's intent watch (W6), armed by events instead of a clock. A
 * teammate's task_claim or task_submit publishes an intent file and then waits, inside the same
 * tool call, for the leader's decision. Its child reports `tool_execution_start` before and
 * `tool_execution_end` after on the RPC stream the leader reads anyway. While at least one such
 * call is open, the intent folders are rescanned every `everyMs`, so an intent whose watch event
 * the OS dropped is still answered; with none open there is no timer at all. This replaced a 5 s
 * poll that ran for the whole session (bench/leader-pi.ts: an idle leader's CPU).
 */
import type { TeammateOutput } from "../team/teammate-output.ts";
import type { Member } from "../team/member.ts";

/** The worker tools that publish a board intent and wait for its decision. */
const INTENT_TOOLS: ReadonlySet<string> = new Set(["task_claim", "task_submit"]);

/** Default rescan period while a board call is open, in ms (a dropped watch event costs at most this much). */
export const BOARD_CALL_RESCAN_MS = 2000;

/** Tracks the open board calls of every teammate and rescans while any is open. */
export class BoardCallWatch {
  readonly #rescan: () => void;
  readonly #everyMs: number;
  /** Open calls: spawn id → tool call ids. */
  readonly #open = new Map<string, Set<string>>();
  #timer: NodeJS.Timeout | undefined;

  /** `rescan` scans the intent folders; it must not throw. */
  constructor(rescan: () => void, everyMs: number = BOARD_CALL_RESCAN_MS) {
    this.#rescan = rescan;
    this.#everyMs = everyMs;
  }

  /** Follows one piece of `m`'s output (heard on the session's bus). */
  observe(m: Member, output: TeammateOutput): void {
    if (m.transport === "stream") return; // its board calls travel on its pipe: no intent file to rescan for
    if ((output.kind === "tool_started" || output.kind === "tool_ended") && INTENT_TOOLS.has(output.tool)) {
      const calls = this.#open.get(m.spawnId) ?? new Set<string>();
      if (output.kind === "tool_started") calls.add(output.callId);
      else calls.delete(output.callId);
      if (calls.size > 0) this.#open.set(m.spawnId, calls);
      else this.#open.delete(m.spawnId);
    } else if (output.kind === "settled") {
      this.#open.delete(m.spawnId); // a run that ended has no call left open, whatever events were lost
    } else {
      return;
    }
    this.#arm();
  }

  /** `m` is going away (stop or crash): its calls will never end. */
  forget(m: Member): void {
    this.#open.delete(m.spawnId);
    this.#arm();
  }

  /** True while the rescan timer runs (tests). */
  get armed(): boolean {
    return this.#timer !== undefined;
  }

  /** Stops the timer for good. */
  close(): void {
    this.#open.clear();
    this.#arm();
  }

  #arm(): void {
    if (this.#open.size === 0) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    } else if (!this.#timer) {
      this.#timer = setInterval(() => this.#rescan(), this.#everyMs);
      this.#timer.unref();
    }
  }
}
