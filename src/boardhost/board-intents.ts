/**
 * Worker intent files of the board shell (R37–R39, R47, L6; references/board-intents.md):
 * watches the claims and submissions folders and handles every pending intent oldest first, one
 * at a time. The seal is checked before anything else: an intent not sealed by the spawn it
 * names is never applied and never answered, only set aside in `invalid/` with a "refused:"
 * note. A sealed intent is applied once per session (a replayed copy is set aside) and answered
 * on the stdin of the spawn that sealed it (`answer`, the same path as a stream teammate's
 * intent: src/harness/stream-records.ts). A marker that cannot be parsed yet is retried until it
 * is `graceMs` old; a sealed but invalid one is answered with `invalid_input`.
 */
import { basename } from "node:path";
import type { AcceptedSubmission, Board, Effect, Holder } from "../board/index.ts";
import {
  BoardIntentSchema,
  type BoardIntent,
  intentSealHolds,
  MessageIdSchema,
  notSignedBy,
  type SpawnKeys,
} from "../mail/index.ts";
import { checkValue, consumeIntent, listIntents, readIntent, watchDirs, type BoardLayout, type DirWatch } from "../store/index.ts";
import { applyIntent, type IntentAnswer } from "./board-apply.ts";
import type { BoardMate } from "./board-host-types.ts";

export type { IntentAnswer } from "./board-apply.ts";

/** What `applyFromPipe` needs of an intent: who (from the pipe) and what. */
export type PipeIntent = Pick<BoardIntent, "action" | "from" | "spawnId" | "taskId" | "status" | "result">;

/** Wiring of `BoardIntents`, supplied by the host. */
export interface BoardIntentsOptions {
  layout: BoardLayout;
  /** Every spawn's key (the harness's): intents are checked with them. */
  keys: SpawnKeys;
  /**
   * Answers intent `id` of spawn `to` (whose seal held) with `decision`, on that teammate's own
   * stdin; nothing when `to` no longer lives (its call ended with it). Must not throw.
   */
  answer: (to: Holder, id: string, decision: IntentAnswer) => void;
  /** A marker that cannot be parsed is retried until it is this old, ms (L6). */
  graceMs: number;
  now: () => number;
  note: (text: string) => void;
  /** Why the board is off (board.json unreadable), if it is: every intent is then refused. */
  unavailable: () => string | undefined;
  /** The board intents are applied to (the host's, read at each intent). */
  board: () => Board;
  /** Living teammates, read fresh for every intent. */
  mates: () => BoardMate[];
  /** Carries out the core's effects (the host's). */
  apply: (effects: readonly Effect[]) => void;
  /** Called after each intent was answered and consumed. */
  answered: () => void;
  /** A submission of `holder` was accepted (an assignment boundary: its context may be compacted). Must not throw. */
  submitted?: (holder: { name: string; spawnId: string }, submission: AcceptedSubmission) => void;
}

const record = (v: unknown): Record<string, unknown> => (typeof v === "object" && v !== null ? (v as Record<string, unknown>) : {});

/** The intent folders' reader; the host owns one. */
export class BoardIntents {
  readonly #o: BoardIntentsOptions;
  /** Ids of the intents answered this session: a copy put back after it was consumed is a replay. */
  readonly #answered = new Set<string>();
  #watch: DirWatch | undefined;
  #retryTimer: NodeJS.Timeout | undefined;
  #scanning = false;
  #rescan = false;
  #closed = false;

  constructor(options: BoardIntentsOptions) {
    this.#o = options;
  }

  /** Starts watching the intent folders (each change scans them); resolves once the watch is ready. */
  async start(): Promise<void> {
    const { layout } = this.#o;
    this.#watch = watchDirs([layout.claimsDir, layout.submissionsDir], () => void this.scan(), {
      safetyPollMs: 0, // no clock: the session rescans while a board call is open (src/boardhost/board-calls.ts)
      onError: (e) => this.#o.note(`board watcher: ${String(e)}`),
    });
    await this.#watch.ready;
  }

  /** Stops the grace retry and the watch. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retryTimer);
    await this.#watch?.close();
  }

  /**
   * Applies an intent that came on its sender's own RPC pipe (the stream transport), which
   * proved who sent it: no seal and no file, otherwise as an intent file is applied. Never throws.
   */
  applyFromPipe(intent: PipeIntent): IntentAnswer {
    const answer = applyIntent(intent, {
      board: this.#o.board(), mates: this.#o.mates(), unavailable: this.#o.unavailable(), now: this.#o.now(), apply: this.#o.apply,
      ...(this.#o.submitted ? { submitted: this.#o.submitted } : {}),
    });
    this.#o.answered();
    return answer;
  }

  /** Handles every pending intent, oldest first, one at a time (R37–R39, R47, L6). */
  async scan(): Promise<void> {
    if (this.#scanning) {
      this.#rescan = true;
      return;
    }
    this.#scanning = true;
    try {
      do {
        this.#rescan = false;
        for (const dir of [this.#o.layout.claimsDir, this.#o.layout.submissionsDir]) {
          for (const path of await listIntents(dir)) {
            if (this.#closed) return;
            try {
              await this.#handleIntent(path);
            } catch (error) {
              // One intent that cannot be handled must not block the ones after it: set it aside.
              this.#o.note(`intent ${path} could not be handled and was set aside: ${error instanceof Error ? error.message : String(error)}`);
              await consumeIntent(path, "invalid", this.#o.now).catch((e: unknown) => {
                this.#o.note(`intent ${path} could not be set aside either: ${e instanceof Error ? e.message : String(e)}`);
              });
            }
          }
        }
      } while (this.#rescan);
    } catch (error) {
      this.#o.note(`intent scan failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.#scanning = false;
    }
  }

  async #handleIntent(path: string): Promise<void> {
    const read = await readIntent(path, BoardIntentSchema, { graceMs: this.#o.graceMs, now: this.#o.now });
    if (!read.ok) {
      if (read.reason === "young-unparseable") {
        clearTimeout(this.#retryTimer);
        this.#retryTimer = setTimeout(() => void this.scan(), this.#o.graceMs).unref();
      } else if (read.reason === "invalid") {
        const fields = record(read.parsed);
        if (this.#refused(path, fields)) return this.#setAside(path);
        this.#o.note(`intent ${path} is invalid and was set aside: ${read.message}`);
        this.#rejectInvalid(fields, read.problem);
        await this.#setAside(path);
      }
      return;
    }
    const intent = read.value;
    if (this.#refused(path, intent)) return this.#setAside(path);
    if (basename(path, ".json") !== intent.id) {
      // A genuine intent copied under another name would answer in another call's place.
      this.#o.note(`intent ${path} names id ${intent.id}, not its file name; set aside`);
      return this.#setAside(path);
    }
    this.#answered.add(intent.id);
    const answer = applyIntent(intent, {
      board: this.#o.board(), mates: this.#o.mates(), unavailable: this.#o.unavailable(), now: this.#o.now(), apply: this.#o.apply,
      ...(this.#o.submitted ? { submitted: this.#o.submitted } : {}),
    });
    this.#o.answer({ name: intent.from, spawnId: intent.spawnId }, intent.id, answer);
    await consumeIntent(path, "done", this.#o.now);
    this.#o.answered();
  }

  /**
   * Why `fields` (a parsed marker) must not be handled at all, noted, or false: its seal fails
   * (not written by the spawn it names: "refused: not signed by <name>'s spawn"), or its id was
   * answered before this session (a replay of a consumed genuine intent).
   */
  #refused(path: string, fields: Record<string, unknown>): boolean {
    const name = typeof fields.from === "string" ? fields.from : "an unnamed sender";
    if (!intentSealHolds(this.#o.keys, fields)) {
      this.#o.note(`${notSignedBy(name)}: intent ${path} was set aside in invalid/, not applied and not answered`);
      return true;
    }
    if (typeof fields.id === "string" && this.#answered.has(fields.id)) {
      this.#o.note(`refused: intent ${fields.id} of ${name} was already answered (a replayed copy): ${path} was set aside in invalid/`);
      return true;
    }
    return false;
  }

  async #setAside(path: string): Promise<void> {
    await consumeIntent(path, "invalid", this.#o.now);
  }

  /**
   * A sealed but invalid intent (a worker of another build, say) whose `id` is well-formed gets a
   * rejection decision, so the worker waiting on it learns the reason at once instead of timing
   * out. Otherwise nobody can be answered (the note already went out).
   */
  #rejectInvalid(fields: Record<string, unknown>, problem: string): void {
    if (!checkValue(MessageIdSchema, fields.id).ok) return;
    const id = fields.id as string;
    this.#answered.add(id);
    const tool = fields.action === "submit" ? "task_submit" : "task_claim";
    const message = `The ${tool} request was invalid and nothing was changed: ${problem}. Fix the arguments and call ${tool} again.`;
    // The seal held, so `from` and `spawnId` are the strings of a spawn of this session.
    this.#o.answer({ name: fields.from as string, spawnId: fields.spawnId as string }, id, { ok: false, reason: "invalid_input", message });
  }
}
