/**
 * The board shell's notices (R36, R54, W20, W21): the notice book, the pace timer, and the
 * explanations of waiting work, over the pure rules in src/board/notices.ts and waiting.ts.
 */
import {
  canProgress,
  createNoticeBook,
  pacedUntil,
  planNotices,
  stuckSummary,
  whyWaiting,
  type Board,
  type Effect,
  type NoticePlan,
  type Wait,
  type WaitingInput,
} from "../board/index.ts";
import { assignmentsOf } from "./board-apply.ts";
import type { BoardMate } from "./board-host-types.ts";

/** Wiring of `BoardNotices`. */
export interface BoardNoticesOptions {
  board: () => Board;
  /** Living teammates, read fresh. */
  mates: () => BoardMate[];
  /** Carries out `notify_teammate` effects. */
  apply: (effects: readonly Effect[]) => void;
  /** The pace timer fired: plan again (the host also checks settle and activity). */
  replan: () => void;
  /** Minimum gap after a notice a teammate did not act on, ms (W20). */
  paceMs: number;
  now: () => number;
}

/** Notice memory and pace timer of one board; see the module comment. */
export class BoardNotices {
  readonly #o: BoardNoticesOptions;
  readonly #book = createNoticeBook();
  #paceTimer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: BoardNoticesOptions) {
    this.#o = options;
  }

  /** Plans and sends the notices due now (src/board/notices.ts), then re-arms the pace timer. */
  plan(extra: { synchronous?: boolean; onlyTaskIds?: string[]; direct?: { to: string[] } } = {}): NoticePlan {
    const mates = this.#o.mates();
    const plan = planNotices(this.#o.board(), this.#book, { ...this.#input(mates), ...extra });
    this.#o.apply(plan.effects);
    this.#arm(mates);
    return plan;
  }

  /** Task ids named in the last notice to `name`, outstanding while it works on that notice. */
  offered(name: string): string[] {
    return [...(this.#book.get(name)?.offered ?? [])];
  }

  /** Why pending `taskId` waits (src/board/waiting.ts), or undefined when it is not pending. */
  whyWaiting(taskId: string): Wait | undefined {
    const board = this.#o.board();
    const task = board.tasks.get(taskId);
    return task ? whyWaiting(board, this.#book, this.#input(this.#o.mates()), task) : undefined;
  }

  /** Whether the board can move without the leader (W21). */
  canProgress(): boolean {
    return canProgress(this.#o.board(), this.#book, this.#input(this.#o.mates()));
  }

  /** The stuck summary of the board as it is now (W21). */
  stuckSummary(): string {
    return stuckSummary(this.#o.board(), this.#book, this.#input(this.#o.mates()));
  }

  /** Stops the pace timer for good. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#paceTimer);
  }

  #input(mates: BoardMate[]): WaitingInput {
    return {
      teammates: mates.map((m) => ({ name: m.name, spawnId: m.spawnId, idle: m.idle, hasAssignment: m.hasAssignment })),
      assignments: assignmentsOf(mates),
      now: this.#o.now(),
      paceMs: this.#o.paceMs,
    };
  }

  /**
   * Re-plans when the earliest paced idle teammate may hear again (no polling while nothing
   * waits). A teammate whose pace already ran out was eligible in the plan just made, so it waits
   * for the next board change, not for a timer (re-arming for it would spin every millisecond).
   */
  #arm(mates: BoardMate[]): void {
    clearTimeout(this.#paceTimer);
    if (this.#closed || this.#o.board().index.ready.length === 0) return;
    const now = this.#o.now();
    let due = Number.POSITIVE_INFINITY;
    for (const m of mates) {
      if (!m.idle || m.hasAssignment) continue;
      const at = pacedUntil(this.#book.get(m.name), this.#o.paceMs);
      if (at > now) due = Math.min(due, at);
    }
    if (!Number.isFinite(due)) return;
    // Not unref'd: in a headless run this timer may be the one thing left that moves the board (W21).
    this.#paceTimer = setTimeout(() => this.#o.replan(), due - now + 1);
  }
}
