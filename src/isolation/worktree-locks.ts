/**
 * Mutual exclusion of captures of one worktree dir within one process (R20, L23).
 *
 * Two captures of the same dir at once corrupt each other: both run `git add -A` on the worktree's
 * one index ("index file smaller than expected"), and one may remove the dir while the other
 * commits. In the leader three callers can meet on one dir: the exit capture of a stopped teammate,
 * the reclaim of same-name leftovers when that name is spawned again, and the session-start
 * reclaim. Each public capture function (`captureWorktree`, `discardWorktree`, `reclaimWorktrees`
 * and the reclaim inside `prepareWorktree`) takes `locks` in its options; callers that share one
 * {@link WorktreeLocks} never capture one dir twice at the same time. Without `locks` nothing is
 * serialised (single-caller use, tests).
 *
 * Not across processes: two leaders never share a worktrees root (each session has its own, under
 * its session lock), and a dead session's root is reclaimed only by leaders that start later.
 */
import { resolve } from "node:path";

/**
 * One FIFO queue per worktree dir (keyed by its resolved absolute path). Holds no I/O and no
 * timers; an entry is dropped when its queue empties, so it never grows with the number of spawns.
 */
export class WorktreeLocks {
  /** Per dir: the end of the last task queued, settled (never rejects). */
  readonly #tails = new Map<string, Promise<void>>();

  /**
   * Runs `task` once every task queued earlier for the same `dir` has settled; tasks of other
   * dirs run freely. Not reentrant: a task must not queue another one for its own dir (it would
   * wait for itself forever).
   * @returns what `task` resolves to; rejects with what it throws (later tasks still run).
   */
  run<T>(dir: string, task: () => Promise<T>): Promise<T> {
    const key = resolve(dir);
    const before = this.#tails.get(key) ?? Promise.resolve();
    const result = before.then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }

  /** Dirs with a task running or queued (resolved paths), for diagnostics and tests. */
  busy(): string[] {
    return [...this.#tails.keys()];
  }
}

/** Options of the functions that capture a worktree: see {@link WorktreeLocks}. */
export interface LockOptions {
  /** Shared by every caller that may capture the same dirs; default: no locking. */
  locks?: WorktreeLocks;
}

/** `task` under `locks` for `dir` when given, else at once. */
export function withLock<T>(locks: WorktreeLocks | undefined, dir: string, task: () => Promise<T>): Promise<T> {
  return locks ? locks.run(dir, task) : task();
}
