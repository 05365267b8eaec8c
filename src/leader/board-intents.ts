/**
 * Worker intent files of the board shell (R37–R39, R47, L6): watches the claims and submissions
 * folders, applies every pending intent oldest first and one at a time, answers each with a
 * decision file, retries a marker that cannot be parsed yet until it is `graceMs` old, answers an
 * invalid one with a rejection when its id is still readable, and sets aside what it cannot handle.
 * A valid intent is applied to the board only when its sender is a living incarnation (R47).
 */
import { basename, join } from "node:path";
import writeFileAtomic from "write-file-atomic";
import { claimTask, submitTask, type Board, type Effect } from "../board/index.ts";
import { BoardIntentSchema, INTENT_FORMAT_VERSION, MessageIdSchema, type BoardDecision, type BoardIntent } from "../mail/index.ts";
import { checkValue, consumeIntent, listIntents, readIntent, watchDirs, type BoardLayout, type DirWatch } from "../store/index.ts";
import type { BoardMate } from "./board-host-types.ts";

/** What one intent did, as its decision file says it (without envelope). */
export interface IntentAnswer {
  ok: boolean;
  reason?: string;
  message: string;
  taskId?: string;
}

/** Wiring of `BoardIntents`, supplied by the host. */
export interface BoardIntentsOptions {
  layout: BoardLayout;
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
  submitted?: (holder: { name: string; spawnId: string }) => void;
}

/** The intent folders' reader and the decision folder's writer; the host owns one. */
export class BoardIntents {
  readonly #o: BoardIntentsOptions;
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
      safetyPollMs: 0, // no clock: the session rescans while a board call is open (src/leader/board-calls.ts)
      onError: (e) => this.#o.note(`board watcher: ${String(e)}`),
    });
    await this.#watch.ready;
  }

  /** Stops the grace retry and, once closed, the watch; no intent is handled after. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retryTimer);
    await this.#watch?.close();
  }

  /** Applies every pending intent, oldest first, one at a time (R37–R39, R47, L6). */
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
        this.#o.note(`intent ${path} is invalid and was set aside: ${read.message}`);
        await this.#rejectInvalid(read.parsed, read.problem);
        await consumeIntent(path, "invalid", this.#o.now);
      }
      return;
    }
    if (basename(path, ".json") !== read.value.id) {
      // A hand-made marker reusing another worker's pending id would answer in its place.
      this.#o.note(`intent ${path} names id ${read.value.id}, not its file name; set aside`);
      await consumeIntent(path, "invalid", this.#o.now);
      return;
    }
    const unavailable = this.#o.unavailable();
    const decision = unavailable
      ? this.#decide(read.value, { ok: false, reason: "board_unavailable", message: unavailable })
      : this.#decide(read.value, this.#apply1(read.value));
    await this.#writeDecision(decision);
    await consumeIntent(path, "done", this.#o.now);
    this.#o.answered();
  }

  /** `decisions/<id>.json`, atomically. The id is schema-checked (path-safe) by every caller. */
  async #writeDecision(decision: BoardDecision): Promise<void> {
    await writeFileAtomic(join(this.#o.layout.decisionsDir, `${decision.id}.json`), JSON.stringify(decision), { mode: 0o600 });
  }

  /**
   * An invalid intent whose `id` is still readable and path-safe gets a rejection decision, so
   * the worker waiting on it learns the reason at once instead of timing out. Otherwise nobody
   * can be answered (the note already went out).
   */
  async #rejectInvalid(parsed: unknown, problem: string): Promise<void> {
    const fields = typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
    if (!checkValue(MessageIdSchema, fields.id).ok) return;
    const tool = fields.action === "submit" ? "task_submit" : "task_claim";
    await this.#writeDecision({
      v: INTENT_FORMAT_VERSION,
      id: fields.id as string,
      at: this.#o.now(),
      ok: false,
      reason: "invalid_input",
      message: `The ${tool} request was invalid and nothing was changed: ${problem}. Fix the arguments and call ${tool} again.`,
    });
  }

  /** Validates the sender's identity (R47) and applies one intent to the core. */
  #apply1(intent: BoardIntent): IntentAnswer {
    const mate = this.#o.mates().find((m) => m.name === intent.from);
    if (!mate || mate.spawnId !== intent.spawnId) {
      return { ok: false, reason: "stale_spawn", message: `${intent.from} (spawn ${intent.spawnId}) is not a living teammate incarnation; nothing was changed.` };
    }
    const holder = { name: mate.name, spawnId: mate.spawnId };
    const now = this.#o.now();
    if (intent.action === "claim") {
      const assignments = this.#o.mates()
        .filter((m) => m.name !== mate.name && m.assignmentResources)
        .map((m) => ({ name: m.name, resources: m.assignmentResources ?? [] }));
      const r = claimTask(this.#o.board(), { holder: { ...holder, hasAssignment: mate.hasAssignment }, ...(intent.taskId ? { taskId: intent.taskId } : {}), assignments }, now);
      this.#o.apply(r.effects);
      if (!r.ok) return { ok: false, reason: r.reason, message: r.message, ...(intent.taskId ? { taskId: intent.taskId } : {}) };
      const t = r.task;
      const lines = [`Claimed task ${t.id}: ${t.subject}.`];
      if (t.description) lines.push(t.description);
      if (t.resources.length) lines.push(`Resources you now hold: ${t.resources.join(", ")}.`);
      if (t.verify ?? mate.roleVerify) lines.push(`An independent reviewer will check it against: ${t.verify ?? mate.roleVerify}`);
      lines.push('When done, call task_submit with status "completed" and a result, or "failed" with the reason.');
      return { ok: true, message: lines.join("\n"), taskId: t.id };
    }
    if (!intent.taskId || !intent.status) return { ok: false, reason: "invalid_input", message: "task_submit needs taskId and status." };
    const r = submitTask(this.#o.board(), {
      holder,
      taskId: intent.taskId,
      status: intent.status,
      ...(intent.result !== undefined ? { result: intent.result } : {}),
      ...(mate.roleVerify ? { roleVerify: mate.roleVerify } : {}),
    }, now);
    this.#o.apply(r.effects);
    if (!r.ok) return { ok: false, reason: r.reason, message: r.message, taskId: intent.taskId };
    this.#o.submitted?.(holder);
    const said: Record<typeof r.outcome, string> = {
      completed: `Task ${r.task.id} is completed.`,
      in_review: `Task ${r.task.id} was submitted; an independent reviewer is checking it now. You keep the claim; the verdict reaches you as a message. End your turn.`,
      released: `Task ${r.task.id} returned to the board as pending with your reason kept.`,
      acknowledged: `Task ${r.task.id} was superseded; your acknowledgement released its resources.`,
    };
    return { ok: true, message: said[r.outcome], taskId: r.task.id };
  }

  #decide(intent: BoardIntent, r: IntentAnswer): BoardDecision {
    return { v: INTENT_FORMAT_VERSION, id: intent.id, at: this.#o.now(), ...r };
  }
}
