import { holderOf, type Board } from "../board/index.ts";

/** Tokens and cost (USD). */
export interface Usage {
  tokens: number;
  cost: number;
}

/**
 * What each board task cost (R61 Board page): the holder's usage over the time it held the task
 * (its lifetime usage when the holding began, subtracted from the usage when it ended or now),
 * summed over every holding, plus the usage of the task's reviewers. Fed with the board after
 * each change; in memory only, for this session's console.
 */
export class TaskCosts {
  /** Holdings in progress: task id → holder spawn id and its usage when the holding began. */
  readonly #open = new Map<string, { spawnId: string; start: Usage }>();
  /** Usage of finished holdings and reviewers, per task id. */
  readonly #done = new Map<string, Usage>();

  /**
   * Looks at every task's holder: a new holder opens a span at its usage now; a holder gone
   * (released, completed, stopped) closes its span. `usageOf` gives an incarnation's lifetime
   * usage by spawn id (undefined: unknown, counted as no change); it may be a live record that
   * keeps changing, so only its values are kept.
   */
  observe(board: Board, usageOf: (spawnId: string) => Usage | undefined): void {
    for (const task of board.tasks.values()) {
      const holder = holderOf(task.state);
      const open = this.#open.get(task.id);
      if (open && open.spawnId !== holder?.spawnId) {
        this.#close(task.id, open, usageOf(open.spawnId));
        this.#open.delete(task.id);
      }
      if (holder && !this.#open.has(task.id)) {
        // A copy: `usageOf` may hand out the live record it keeps counting (the feed's), and a
        // start that moves with the usage makes every holding cost nothing.
        const now = usageOf(holder.spawnId);
        this.#open.set(task.id, { spawnId: holder.spawnId, start: { tokens: now?.tokens ?? 0, cost: now?.cost ?? 0 } });
      }
    }
  }

  /** Adds a reviewer's usage to a task. */
  reviewer(taskId: string, usage: Usage): void {
    this.#add(taskId, usage);
  }

  /** A task's cost so far, its open holding counted up to now. */
  of(taskId: string, usageOf: (spawnId: string) => Usage | undefined): Usage {
    const done = this.#done.get(taskId) ?? { tokens: 0, cost: 0 };
    const open = this.#open.get(taskId);
    if (!open) return { ...done };
    const d = delta(open.start, usageOf(open.spawnId));
    return { tokens: done.tokens + d.tokens, cost: done.cost + d.cost };
  }

  #close(taskId: string, open: { start: Usage }, end: Usage | undefined): void {
    this.#add(taskId, delta(open.start, end));
  }

  #add(taskId: string, u: Usage): void {
    const done = this.#done.get(taskId) ?? { tokens: 0, cost: 0 };
    this.#done.set(taskId, { tokens: done.tokens + u.tokens, cost: done.cost + u.cost });
  }
}

function delta(start: Usage, end: Usage | undefined): Usage {
  if (!end) return { tokens: 0, cost: 0 };
  return { tokens: Math.max(0, end.tokens - start.tokens), cost: Math.max(0, end.cost - start.cost) };
}
