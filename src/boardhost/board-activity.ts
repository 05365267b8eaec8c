/**
 * The board as a headless run sees it (W21): busy while a verify reviewer runs or the board can
 * still move without the leader, stuck when it is not settled and nothing it holds open can move,
 * and every change told to the run's wait (src/leader/headless.ts).
 */
import { settledKey, type Board } from "../board/index.ts";
import type { BoardNotices } from "./board-notices.ts";
import type { ActivityChange, TeamActivity } from "../team/team-activity.ts";

/** Wiring of `BoardActivity`. */
export interface BoardActivityOptions {
  board: () => Board;
  notices: BoardNotices;
  /** A verify reviewer is running: its verdict still goes to a teammate or the leader. */
  reviewing: () => boolean;
  /** False once the board is closed or off (board.json unreadable): then it is never busy nor stuck. */
  live: () => boolean;
}

/** The board's `TeamActivity`; see the module comment. */
export class BoardActivity implements TeamActivity {
  readonly #o: BoardActivityOptions;
  readonly #listeners = new Set<(change: ActivityChange) => void>();
  /** The board's revision when loaded: a stuck board is reported only if this session changed it. */
  #loadedRevision = 0;

  constructor(options: BoardActivityOptions) {
    this.#o = options;
  }

  /** The board as loaded at start (a resumed board is history, never "stuck" by itself). */
  loaded(board: Board): void {
    this.#loadedRevision = board.revision;
  }

  /**
   * TeamActivity: a reviewer runs, or claimable work has a living teammate that may take it, now
   * or after its pace (W21).
   */
  busy(): boolean {
    if (this.#o.reviewing()) return true;
    return this.#o.live() && this.#o.notices.canProgress();
  }

  /**
   * The stuck summary (W21) when this session changed the board, it is not settled, and nothing
   * it holds open can move without the leader (read once no teammate works: a claimed task then
   * has an idle holder that owes it); else undefined. Read when a headless run is about to end.
   */
  stuck(): string | undefined {
    const board = this.#o.board();
    if (!this.#o.live() || board.revision === this.#loadedRevision) return undefined;
    if (board.tasks.size === 0 || settledKey(board) !== undefined || this.#o.notices.canProgress()) return undefined;
    return this.#o.notices.stuckSummary();
  }

  /** TeamActivity: `status` on every board change and when a reviewer starts or ends. */
  subscribe(listener: (change: ActivityChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** busy() may have changed: tells every listener. */
  changed(): void {
    for (const listener of this.#listeners) listener("status");
  }
}
