import { basename, join } from "node:path";
import {
  allowResubmit,
  boardParts,
  claimableTaskIds,
  createBoard,
  createTask,
  describeCreate,
  describeResubmit,
  gateOutcome,
  normalizeCreateInput,
  offerRefusal,
  releaseHolder,
  renderTaskDetail,
  renderTaskList,
  reviveBoard,
  type Board, type Effect, type Holder, type RosterRow, type Wait,
} from "../board/index.ts";
import { TeamError } from "../errors.ts";
import { ensurePrivateDir } from "../store/index.ts";
import { BoardActivity } from "./board-activity.ts";
import { assignmentsOf } from "./board-apply.ts";
import { carryOut, type BoardEffectPorts } from "./board-effects.ts";
import type { BoardHostOptions, BoardWork } from "./board-host-types.ts";
import { BoardIntents, type IntentAnswer, type PipeIntent } from "./board-intents.ts";
import { BoardNotices } from "./board-notices.ts";
import { BoardSettle } from "./board-settle.ts";
import { BoardReviews } from "./board-reviews.ts";
import { BoardSnapshots } from "./board-snapshots.ts";
import { BoardRecorder } from "./board-trail.ts";

/**
 * The leader's shell around the pure board (R34–R60): loads and persists board.json, applies
 * worker intents and answers each on the teammate's pipe, runs verify reviewers, and turns the
 * core's effects into teammate mail and leader escalations. The only writer of the board (R48).
 * Its parts: persistence (board-snapshots.ts), intent files (board-intents.ts), reviewers
 * (board-reviews.ts), notices and waits (board-notices.ts), settle summaries (board-settle.ts),
 * the core's effects routed to those parts (board-effects.ts), and what a headless run sees of it
 * (board-activity.ts, `activity`).
 */
export class BoardHost {
  readonly #o: BoardHostOptions & { now: () => number; intentGraceMs: number };
  #board: Board = createBoard();
  readonly #snapshots: BoardSnapshots;
  readonly #intents: BoardIntents;
  readonly #reviews: BoardReviews;
  readonly #notices: BoardNotices;
  readonly #settle: BoardSettle;
  readonly #effects: BoardEffectPorts;
  /** The board as a headless run sees it (board-activity.ts). */
  readonly activity: BoardActivity;
  #closed = false;
  /** Set when board.json could not be read: the board refuses to run rather than overwrite it. */
  #unavailable: string | undefined;
  /** A one-time report (corrupt board moved aside) prefixed to the next tool result. */
  #report: string | undefined;
  readonly #recorder: BoardRecorder;
  /** Set at start when board.json was not the leader's last write: what was found and done (issue 18). */
  #flag: string | undefined;

  constructor(options: BoardHostOptions) {
    this.#o = { now: Date.now, intentGraceMs: 2000, ...options };
    const { layout, piCli, cwd, env } = this.#o;
    const now = () => this.#o.now();
    const note = (text: string) => this.#o.note(text);
    const apply = (effects: readonly Effect[]) => this.#apply(effects);
    this.#recorder = new BoardRecorder(basename(layout.root), this.#o.trail, note);
    this.#snapshots = new BoardSnapshots({ layout, now, note, serialize: () => boardParts(this.#board), record: (parts) => this.#recorder.record(parts) });
    this.#intents = new BoardIntents({
      layout, keys: this.#o.keys, answer: (to, id, d) => this.#o.answer(to, id, d), graceMs: this.#o.intentGraceMs, now, note, apply, mates: () => this.#o.mates(),
      unavailable: () => this.#unavailable, board: () => this.#board, answered: () => this.offerWork(), submitted: (holder, submission) => this.#o.bus.emit({ type: "submitted", holder, submission }),
    });
    this.#settle = new BoardSettle({ board: () => this.#board, teamWorking: () => this.#o.teamWorking?.() ?? false, escalate: (escalation) => this.#o.bus.emit({ type: "escalate", escalation }),
      settled: (summary) => this.#o.bus.emit({ type: "board_settled", summary }),
    });
    this.#notices = new BoardNotices({ board: () => this.#board, mates: () => this.#o.mates(), apply, replan: () => this.offerWork(), paceMs: this.#o.paceMs, now });
    const live = () => !this.#closed && !this.#unavailable;
    this.activity = new BoardActivity({ board: () => this.#board, notices: this.#notices, reviewing: () => this.#reviews.busy, live });
    this.#reviews = new BoardReviews({
      piCli, cwdOf: this.#o.cwdOf ?? (() => cwd), trusted: this.#o.trusted ?? (() => false), env, teamModel: () => this.#o.teamModel(), logDir: join(layout.root, "reviewers"), note,
      // A verdict may complete a dependency: free teammates hear of what became claimable now,
      // not after the holder's turn on the verdict mail (W20).
      apply: (effects) => {
        apply(effects);
        this.offerWork();
      },
      outcome: (token, text) => gateOutcome(this.#board, { token, text }, this.#o.now()),
      changed: () => this.activity.changed(),
      usage: (taskId, usage) => this.#o.bus.emit({ type: "reviewer_usage", taskId, usage }),
    });
    this.#effects = {
      persist: (revision) => this.#snapshots.markDirty(revision),
      tell: (to, text) => this.#o.bus.emit({ type: "tell", to, text }),
      review: (e) => void this.#reviews.review(e),
      abortReview: (token) => this.#reviews.abort(token),
      escalate: (e) => this.#settle.hold(e), // delivered by #checkSettled, alone or with the settle summary
    };
    // What the harness tells the board: a free teammate may take work (R36); a spawn that ended
    // (started or failed) may have been what kept the board from settling; a teammate that goes
    // away releases its claims.
    const { bus } = this.#o;
    bus.on("idle", () => this.offerWork());
    bus.on("spawn_ended", () => this.offerWork());
    bus.on("gone", ({ member: m, reason }) => this.holderGone({ name: m.name, spawnId: m.spawnId }, reason));
  }

  /**
   * Loads board.json (R58, R60, L8): a missing file is a new board; a corrupt one is moved aside
   * and reported, never overwritten; one the leader did not write is flagged and not taken as
   * fact (`flag`, issue 18); claims of teammates that no longer live return to pending. Then
   * starts watching the intent folders.
   */
  async start(): Promise<void> {
    const { layout } = this.#o;
    for (const dir of [layout.root, layout.claimsDir, layout.submissionsDir]) await ensurePrivateDir(dir);
    await this.#load();
    await this.#intents.start();
  }

  async #load(): Promise<void> {
    const loaded = await this.#snapshots.load(this.#recorder.trail);
    this.#unavailable = loaded.unavailable;
    this.#report = loaded.report;
    this.#flag = loaded.flag;
    const file = loaded.file;
    if (!file) return;
    const revived = reviveBoard(file, this.#o.mates(), this.#o.now());
    this.#board = revived.board;
    this.activity.loaded(revived.board);
    // A board already settled when the leader starts was summarised before (or is history): no event.
    this.#settle.loaded(revived.board);
    this.#apply(revived.effects);
    if (this.#flag) this.#snapshots.markDirty(this.#board.revision); // the leader's board replaces the file
    if (revived.released.length > 0) this.#o.note(`board reloaded: ${revived.released.join(", ")} returned to pending (holders gone)`);
  }

  /**
   * Set after `start` when board.json was not the leader's last recorded write: the text that
   * says what was found, restored or reset (src/board/resume-check.ts). The leader flags it to
   * the user and its model's next turn.
   */
  get flag(): string | undefined {
    return this.#flag;
  }

  /** A stream teammate's claim or submission, from its own pipe (src/harness/stream-records.ts). Never throws. */
  decideFromPipe(intent: PipeIntent): IntentAnswer {
    return this.#intents.applyFromPipe(intent);
  }

  /** Scans the intent folders now: a teammate's board call is open (src/boardhost/board-calls.ts). */
  rescanIntents(): void {
    void this.#intents.scan();
  }

  /** The board, for views. Read only. */
  get board(): Board {
    return this.#board;
  }

  #need(tool: string): void {
    if (this.#unavailable) throw new TeamError("io_error", `${tool}: ${this.#unavailable}`);
  }

  #withReport(text: string): string {
    const report = this.#report;
    this.#report = undefined;
    return report ? `${report}\n\n${text}` : text;
  }

  /**
   * task_create (R34–R35, R40): validates and adds a task, then notifies idle teammates at once
   * (the synchronous notice, exempt from the pace).
   * @throws TeamError `invalid_input` naming the field or ids at fault.
   */
  create(raw: unknown, boardLabel: string): string {
    this.#need("task_create");
    const input = normalizeCreateInput(raw);
    if (!input.ok) throw new TeamError("invalid_input", `task_create: ${input.message}`);
    const created = createTask(this.#board, input.value, this.#o.now());
    if (!created.ok) throw new TeamError("invalid_input", `task_create: ${created.message}`);
    this.#apply(created.effects);
    const mates = this.#o.mates();
    const plan = this.#notices.plan({ synchronous: true, onlyTaskIds: [created.task.id] });
    this.activity.changed();
    const starting = this.#o.spawning?.() ?? [];
    return this.#withReport(describeCreate(this.#board, { created, plan, living: mates.length, starting, boardLabel }));
  }

  /**
   * task_list for the leader (R46): one view definition, with the roster; with `taskId`, that
   * one task in full (its whole result).
   * @throws TeamError `not_found` for an unknown `taskId`, listing the ids that exist.
   */
  list(roster: RosterRow[], view: { offset?: number; taskId?: string }, boardLabel: string): string {
    this.#need("task_list");
    if (view.taskId !== undefined && view.taskId.trim() !== "") {
      const detail = renderTaskDetail(this.#board, view.taskId);
      if (!detail.ok) throw new TeamError("not_found", `task_list: ${detail.message}`);
      return this.#withReport(detail.text);
    }
    const waiting = (id: string) => this.#notices.whyWaiting(id)?.text;
    return this.#withReport(renderTaskList(this.#board, { audience: "leader", roster, boardLabel, waiting, ...(view.offset !== undefined ? { offset: view.offset } : {}) }));
  }

  /** A teammate went idle or the board changed: offer claimable work (R36, R54), then see whether the board settled. */
  offerWork(): void {
    if (this.#closed || this.#unavailable) return;
    this.#notices.plan();
    this.#checkSettled();
    this.activity.changed();
  }

  /** Why pending `taskId` waits, for the console's Board page (W20); undefined when not pending. */
  whyWaiting(taskId: string): Wait | undefined {
    return this.#closed || this.#unavailable ? undefined : this.#notices.whyWaiting(taskId);
  }

  /**
   * The leader reopened `holder` (send_message with `reopen: true`): every task parked with
   * that incarnation gets exactly one more review attempt (R45, L10); the holder is told how.
   * Returns a line for the send_message result naming the tasks, or undefined when it had none
   * parked. Never throws.
   */
  allowResubmit(holder: Holder): string | undefined {
    if (this.#closed || this.#unavailable) return undefined;
    const r = allowResubmit(this.#board, holder, this.#o.now());
    this.#apply(r.effects);
    return describeResubmit(r, holder);
  }

  /**
   * The user's offer of pending `taskId` to teammate `name` (the console, issue 21): a board notice
   * to that one teammate now, past the pace and past an offer to another. @returns the user's line.
   * @throws TeamError `not_found` (no such task or living teammate), `invalid_input` (the task
   * cannot be claimed now, or the teammate is working or holds other work; the reason is given).
   */
  offer(taskId: string, name: string): string {
    this.#need("offer");
    const task = this.#board.tasks.get(taskId);
    if (!task) throw new TeamError("not_found", `offer: no task \`${taskId}\` on the board.`);
    const mate = this.#o.mates().find((m) => m.name === name);
    if (!mate) throw new TeamError("not_found", `offer: @${name} is not a living teammate.`);
    const plan = this.#notices.plan({ synchronous: true, onlyTaskIds: [taskId], direct: { to: [name] } });
    this.activity.changed();
    if (plan.notified.length > 0) return `Offered \`${taskId}\` to @${name}: a board notice woke it.`;
    const why = offerRefusal(this.#board, task, mate, this.whyWaiting(taskId)?.text);
    throw new TeamError("invalid_input", `offer: \`${taskId}\` was not offered to @${name}: ${why}.`);
  }

  /**
   * One more review attempt for parked `taskId` (the console, issue 21; as the leader's
   * `send_message` with `reopen`, R45): its holder is told. @returns the user's line.
   * @throws TeamError `not_found` (no such task), `invalid_input` (not parked).
   */
  allowAttempt(taskId: string): string {
    this.#need("allow");
    const state = this.#board.tasks.get(taskId)?.state;
    if (!state) throw new TeamError("not_found", `allow: no task \`${taskId}\` on the board.`);
    if (state.status !== "parked") throw new TeamError("invalid_input", `allow: \`${taskId}\` is ${state.status}; only a parked task can have one more attempt.`);
    return this.allowResubmit(state.holding.holder) ?? `Board: \`${taskId}\` already had an attempt allowed.`;
  }

  /** Claimable work for teammate `name` and what its last notice offered (teammate_spawn wording). */
  workFor(name: string): BoardWork {
    if (this.#unavailable) return { offered: [], claimable: [] };
    return { offered: this.#notices.offered(name), claimable: claimableTaskIds(this.#board, assignmentsOf(this.#o.mates(), name)) };
  }

  #checkSettled(): void {
    if (!this.#closed && !this.#unavailable) this.#settle.check();
  }

  /**
   * The team's activity changed (a teammate went idle, a spawn ended): a summary that waited for
   * the team to stop working is delivered now, before a headless run's wait sees an idle team
   * and ends the run without it (src/boardhost/board-settle.ts).
   */
  teamChanged(): void {
    if (!this.#closed && !this.#unavailable) this.#settle.teamChanged();
  }

  /**
   * A teammate stops (requested, before its process is signalled, or after a crash): its claims
   * return to the board and an in-flight reviewer is aborted (R21, R56, L9).
   */
  holderGone(who: Holder, reason: "shutdown" | "crash"): void {
    if (this.#unavailable) return;
    const r = releaseHolder(this.#board, who, reason, this.#o.now());
    this.#apply(r.effects);
    if (r.released.length > 0) this.#o.note(`${who.name} ${reason}: released ${r.released.join(", ")}`);
    this.offerWork();
  }

  /** Carries out the core's effects, in order (board-effects.ts); after a board change, checks whether it settled. */
  #apply(effects: readonly Effect[]): void {
    const changed = carryOut(effects, this.#effects);
    if (!changed && !this.#settle.holding) return;
    this.#checkSettled();
    if (!changed) return;
    this.#o.bus.emit({ type: "board_changed" }); // the roster shows which resources each teammate holds
    this.activity.changed();
  }

  /** Stops watching, aborts reviewers, writes the last snapshot and waits for the reviewers to stop. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#notices.close();
    this.#snapshots.stop();
    await this.#intents.close();
    const reviewersStopped = this.#reviews.abortAll();
    if (!this.#unavailable) await this.#snapshots.writeLast();
    await reviewersStopped; // and what their bash left running is ended (src/process/reviewer.ts)
  }
}
