/**
 * The worker's one watcher of the board's `decisions/` folder (references/board-intents.md):
 * started on first use and closed at session_shutdown, it routes each decision file by its name
 * (the intent id) to the tool call waiting on it. A file that is not the leader's sealed answer
 * to that call (a forged or replayed one, a half-written one) is ignored and the call keeps
 * waiting; the leader's real answer replaces it atomically.
 */
import { rm } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { TeamError } from "../errors.ts";
import { BoardDecisionSchema, decisionSealHolds, type BoardDecision } from "../mail/intents.ts";
import { readValidated } from "../store/snapshot.ts";
import { watchDirs, type DirWatch } from "../store/watcher.ts";

/** An intent id as a decision file name carries it (MessageIdSchema's pattern). */
const ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/**
 * The intent id a changed `path` is the decision of, when it is a direct child `<id>.json` of
 * `dir` (both absolute) with a well-formed id; undefined for anything else (the dir itself,
 * temp files, other names). Pure.
 */
export function decisionIdOf(dir: string, path: string): string | undefined {
  if (dirname(path) !== dir || !path.endsWith(".json")) return undefined;
  const id = basename(path, ".json");
  return ID.test(id) ? id : undefined;
}

/** One call's wait for its decision. */
export interface DecisionWait {
  /** Resolves with the leader's sealed decision; rejects with TeamError `io_error` when the watcher closes first. */
  readonly decided: Promise<BoardDecision>;
  /** Stops waiting (the call timed out or failed); the decision, if it comes, is left to the leader's cleanup. */
  cancel(): void;
}

/** Options of a `DecisionWatcher`. */
export interface DecisionWatcherOptions {
  /** The board's `decisions/` folder. */
  dir: string;
  /** This worker's spawn key: a decision counts only when sealed with it. */
  key: Buffer;
  /** Safety poll in ms (a dropped fs event is caught this late). Default 2000. */
  safetyPollMs?: number;
}

/** The worker process's one decisions watcher; see the module doc. Not a module singleton: the worker owns one. */
export class DecisionWatcher {
  readonly #dir: string;
  readonly #key: Buffer;
  readonly #pollMs: number;
  #watch: DirWatch | undefined;
  #ready: Promise<void> | undefined;
  readonly #waiting = new Map<string, { resolve: (d: BoardDecision) => void; reject: (e: Error) => void }>();

  constructor(options: DecisionWatcherOptions) {
    this.#dir = resolve(options.dir);
    this.#key = options.key;
    this.#pollMs = options.safetyPollMs ?? 2000;
  }

  /** Ids of the calls waiting now. */
  get waiting(): string[] {
    return [...this.#waiting.keys()];
  }

  /**
   * Starts the watch if it is not running and resolves once it is ready, so a decision written
   * after this resolved is seen. Call it before publishing an intent (a fast answer is never missed).
   * @throws TeamError `io_error` naming the folder when it cannot be watched (the next call retries).
   */
  async ready(): Promise<void> {
    if (!this.#ready) {
      const watch = watchDirs([this.#dir], (path) => this.#changed(path), { safetyPollMs: this.#pollMs });
      this.#watch = watch;
      this.#ready = watch.ready.catch(async (error: unknown) => {
        if (this.#watch === watch) [this.#watch, this.#ready] = [undefined, undefined];
        await watch.close();
        throw new TeamError("io_error", `cannot watch ${this.#dir} for board decisions: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      });
    }
    return this.#ready;
  }

  /**
   * Waits for the decision on intent `id` (register before publishing the intent). A file
   * already there is checked at once.
   * @throws TeamError `invalid_input` when a call already waits on `id`.
   */
  expect(id: string): DecisionWait {
    if (this.#waiting.has(id)) throw new TeamError("invalid_input", `a board call already waits on decision ${id}`);
    const decided = new Promise<BoardDecision>((resolve, reject) => this.#waiting.set(id, { resolve, reject }));
    decided.catch(() => undefined); // a caller that stopped waiting must not see an unhandled rejection
    void this.#check(id);
    return { decided, cancel: () => void this.#waiting.delete(id) };
  }

  /** Stops the watch; calls still waiting are rejected with TeamError `io_error`. A later `ready` starts a new one. */
  async close(): Promise<void> {
    const watch = this.#watch;
    [this.#watch, this.#ready] = [undefined, undefined];
    for (const [id, w] of this.#waiting) w.reject(new TeamError("io_error", `the session is shutting down; the decision on ${id} will not be read`));
    this.#waiting.clear();
    await watch?.close();
  }

  #changed(path: string): void {
    if (path === this.#dir) {
      for (const id of this.#waiting.keys()) void this.#check(id); // safety poll: look again for every waiting call
      return;
    }
    const id = decisionIdOf(this.#dir, path);
    if (id !== undefined && this.#waiting.has(id)) void this.#check(id);
  }

  /** Reads `<id>.json`; settles the call waiting on `id` only with the leader's sealed answer to it. */
  async #check(id: string): Promise<void> {
    const path = join(this.#dir, `${id}.json`);
    const read = await readValidated(path, BoardDecisionSchema, "board decision");
    if (!read.ok || read.value.id !== id || !decisionSealHolds(this.#key, read.value)) return;
    const waiter = this.#waiting.get(id);
    if (!waiter) return;
    this.#waiting.delete(id);
    await rm(path, { force: true }).catch(() => undefined); // read: the leader's cleanup need not find it
    waiter.resolve(read.value);
  }
}
