/**
 * What the leader hears when its board settles (issue 6, W22): one board-settled summary per
 * settle episode (src/board/settled.ts), and the board's escalations, each delivered at once
 * unless every task is settled and a teammate still works: then it waits and shares the
 * summary's turn, so a park that settles the board costs the leader one turn, not two.
 */
import { checkSettled, settledKey, type Board } from "../board/index.ts";
import type { BoardEscalation, BoardSettled } from "../board/index.ts";

/** Wiring of `BoardSettle`. */
export interface BoardSettleOptions {
  board: () => Board;
  /** Whether any teammate works, starts, is being spawned or has mail in flight. */
  teamWorking: () => boolean;
  /** Starts one leader turn with an escalation. */
  escalate: (e: BoardEscalation) => void;
  /** Starts one leader turn with the summary. */
  settled: (summary: BoardSettled) => void;
}

/** Settle summaries and held escalations of one board; see the module comment. */
export class BoardSettle {
  readonly #o: BoardSettleOptions;
  /** Settle key of the last summary (or of the board as loaded, if settled). */
  #key: string | undefined;
  /** The board's revision at the last summary: no check is needed until it changes. */
  #revision = -1;
  /** Escalations held back while the board is settling. */
  #held: BoardEscalation[] = [];

  constructor(options: BoardSettleOptions) {
    this.#o = options;
  }

  /** A board loaded already settled was summarised before (or is history): no summary for it. */
  loaded(board: Board): void {
    this.#key = settledKey(board);
  }

  /** An escalation from the board's effects; delivered by the next `check`. */
  hold(e: BoardEscalation): void {
    this.#held.push(e);
  }

  /** True while an escalation waits for delivery. */
  get holding(): boolean {
    return this.#held.length > 0;
  }

  /** Delivers the summary when its rule holds, with the held escalations; else the escalations alone, unless the summary is near. */
  check(): void {
    const board = this.#o.board();
    const d = checkSettled(board, { teamWorking: this.#o.teamWorking(), lastKey: this.#key });
    if (d.kind === "settled") {
      this.#key = d.key;
      this.#revision = board.revision;
      const held = this.#held.splice(0);
      this.#o.settled(held.length > 0 ? { ...d, text: [...held.map((e) => e.text), d.text].join("\n\n") } : d);
      return;
    }
    // Held only while every task is settled and a teammate still works: the summary comes soon.
    if (d.kind === "quiet" && d.why === "team_working") return;
    for (const e of this.#held.splice(0)) this.#o.escalate(e);
  }

  /**
   * The team's activity changed: checks only when something may be owed (every task settled and
   * not yet summarised at this revision, or an escalation held). O(1) otherwise.
   */
  teamChanged(): void {
    const board = this.#o.board();
    const { counts } = board.index;
    if (this.#held.length > 0) return this.check();
    if (counts.pending + counts.claimed + counts.in_review > 0 || board.revision === this.#revision) return;
    this.check();
  }
}
