import { readFile, rename } from "node:fs/promises";
import { basename, join } from "node:path";
import writeFileAtomic from "write-file-atomic";
import {
  allowResubmit,
  checkSettled,
  claimableTaskIds,
  claimTask,
  createBoard,
  createNoticeBook,
  createTask,
  describeCreate,
  gateOutcome,
  normalizeCreateInput,
  parseBoardFile,
  planNotices,
  releaseHolder,
  renderTaskDetail,
  renderTaskList,
  reviveBoard,
  serializeBoard,
  settledKey,
  SnapshotScheduler,
  submitTask,
  type Assignment,
  type Board,
  type Effect,
  type Holder,
  type RosterRow,
  type SettledDecision,
} from "../board/index.ts";
import { TeamError } from "../errors.ts";
import { BoardIntentSchema, INTENT_FORMAT_VERSION, MessageIdSchema, type BoardDecision, type BoardIntent } from "../mail/index.ts";
import { checkValue, consumeIntent, ensurePrivateDir, errnoCode, listIntents, readIntent, watchDirs, type BoardLayout, type DirWatch } from "../store/index.ts";
import { startReviewer, type Reviewer } from "../process/index.ts";
import type { ModelRef } from "../team/spawn-plan.ts";
import type { ActivityChange, TeamActivity } from "./headless.ts";

/** What the board needs to know about one living teammate. */
export interface BoardMate extends Holder {
  idle: boolean;
  /** An open or closed-but-not-reopened direct assignment blocks board claims (R15, R49). */
  hasAssignment: boolean;
  /** Resources of its open direct assignment, if any. */
  assignmentResources: readonly string[] | undefined;
  /** The role's default verify criteria (R43). */
  roleVerify: string | undefined;
}

/** A verify escalation for the leader: the task, its holder (who the event is about) and the text. */
export type BoardEscalation = Extract<Effect, { type: "escalate" }>;

/** The board-settled summary for the leader (one per settle episode). */
export type BoardSettled = Extract<SettledDecision, { kind: "settled" }>;

/** What the board holds for one teammate, for the teammate_spawn result. */
export interface BoardWork {
  /** Tasks named in the notice it was just sent (outstanding while it works on that notice). */
  offered: string[];
  /** Tasks it could claim now (first 50), whether or not a notice named them. */
  claimable: string[];
}

/** Wiring of a `BoardHost`. */
export interface BoardHostOptions {
  layout: BoardLayout;
  /** Where reviewers run (the leader's cwd until worktrees exist). */
  cwd: string;
  piCli: string;
  env: NodeJS.ProcessEnv;
  /** Living teammates, read fresh for every decision. */
  mates: () => BoardMate[];
  /** Delivers board text (notice, findings, supersede notice) into a teammate's next turn. */
  tell: (to: Holder, text: string) => void;
  /** Starts one leader turn with a harness event about `e.holder` (verify escalation, R45). */
  escalate: (e: BoardEscalation) => void;
  /**
   * Whether any teammate works, starts, is being spawned or has mail in flight; read before a
   * board-settled summary. Default: never (no teammates).
   */
  teamWorking?: () => boolean;
  /** Starts one leader turn with the board-settled summary. Without it no summary is made. */
  onSettled?: (summary: BoardSettled) => void;
  /**
   * Names of teammates being spawned or still starting, so task_create does not say "no teammate
   * is alive" while one is on its way (R35). Default: none.
   */
  spawning?: () => string[];
  teamModel: () => ModelRef | undefined;
  note: (text: string) => void;
  /** Minimum gap between notices to one teammate, ms (PI_TEAMMATE_NOTICE_PACE_MS). */
  paceMs: number;
  /** A marker that cannot be parsed is retried until it is this old, ms (L6). Default 2000. */
  intentGraceMs?: number;
  now?: () => number;
}

/**
 * The leader's shell around the pure board (R34–R60): loads and persists board.json, applies
 * worker intents and answers each with a decision file, runs verify reviewers, and turns the
 * core's effects into teammate mail and leader escalations. The only writer of the board (R48).
 */
export class BoardHost implements TeamActivity {
  readonly #o: BoardHostOptions & { now: () => number; intentGraceMs: number };
  #board: Board = createBoard();
  #book = createNoticeBook();
  #scheduler = new SnapshotScheduler();
  #flushTimer: NodeJS.Timeout | undefined;
  #paceTimer: NodeJS.Timeout | undefined;
  #retryTimer: NodeJS.Timeout | undefined;
  #watch: DirWatch | undefined;
  #reviewers = new Map<string, Reviewer | undefined>();
  readonly #activity = new Set<(change: ActivityChange) => void>();
  #scanning = false;
  #rescan = false;
  #closed = false;
  /** Set when board.json could not be read: the board refuses to run rather than overwrite it. */
  #unavailable: string | undefined;
  /** A one-time report (corrupt board moved aside) prefixed to the next tool result. */
  #report: string | undefined;
  /** Settle key of the last board-settled summary (or of the board as loaded, if settled). */
  #settledKey: string | undefined;

  constructor(options: BoardHostOptions) {
    this.#o = { now: Date.now, intentGraceMs: 2000, ...options };
  }

  /**
   * Loads board.json (R58, R60, L8): a missing file is a new board; a corrupt one is moved aside
   * and reported, never overwritten; claims of teammates that no longer live return to pending.
   * Then starts watching the intent folders.
   */
  async start(): Promise<void> {
    const { layout } = this.#o;
    for (const dir of [layout.root, layout.claimsDir, layout.submissionsDir, layout.decisionsDir]) await ensurePrivateDir(dir);
    await this.#load();
    this.#watch = watchDirs([layout.claimsDir, layout.submissionsDir], () => void this.#scan(), {
      onError: (e) => this.#o.note(`board watcher: ${String(e)}`),
    });
    await this.#watch.ready;
  }

  async #load(): Promise<void> {
    const path = this.#o.layout.board;
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      if (errnoCode(error) === "ENOENT") return;
      this.#unavailable = `${path} cannot be read (${errnoCode(error) ?? String(error)}); the board is off until it is fixed. Nothing was overwritten.`;
      this.#o.note(this.#unavailable);
      return;
    }
    const parsed = parseBoardFile(text);
    if (!parsed.ok) {
      const aside = join(this.#o.layout.root, `board.corrupt-${this.#o.now()}.json`);
      await rename(path, aside);
      this.#report = `board.json was unreadable (${parsed.reason}: ${parsed.message}); it was moved aside to ${aside} and a new board started. Nothing in it was discarded.`;
      this.#o.note(this.#report);
      return;
    }
    const revived = reviveBoard(parsed.file, this.#o.mates(), this.#o.now());
    this.#board = revived.board;
    // A board already settled when the leader starts was summarised before (or is history): no event.
    this.#settledKey = settledKey(revived.board);
    this.#scheduler = new SnapshotScheduler({ writtenRevision: parsed.file.revision });
    this.#apply(revived.effects);
    if (revived.released.length > 0) this.#o.note(`board reloaded: ${revived.released.join(", ")} returned to pending (holders gone)`);
  }

  /** TeamActivity: a verify reviewer is running; its verdict still goes to a teammate or the leader. */
  busy(): boolean {
    return this.#reviewers.size > 0;
  }

  /** TeamActivity: `status` when a reviewer starts or ends (its escalations are harness deliveries). */
  subscribe(listener: (change: ActivityChange) => void): () => void {
    this.#activity.add(listener);
    return () => this.#activity.delete(listener);
  }

  #reviewersChanged(): void {
    for (const listener of [...this.#activity]) listener("status");
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
    const plan = this.#plan(mates, { synchronous: true, onlyTaskIds: [created.task.id] });
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
    return this.#withReport(renderTaskList(this.#board, { audience: "leader", roster, boardLabel, ...(view.offset !== undefined ? { offset: view.offset } : {}) }));
  }

  /** A teammate went idle or the board changed: offer claimable work (R36, R54), then see whether the board settled. */
  offerWork(): void {
    if (this.#closed || this.#unavailable) return;
    this.#plan(this.#o.mates(), {});
    this.#checkSettled();
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
    const ids = (list: string[]) => list.map((id) => `\`${id}\``).join(", ");
    const parts: string[] = [];
    if (r.allowed.length > 0) parts.push(`Board: one more review attempt allowed for ${ids(r.allowed)} (parked with @${holder.name}; a FAIL parks it again, without another escalation).`);
    if (r.already.length > 0) parts.push(`Board: ${ids(r.already)} already had an attempt allowed.`);
    return parts.length > 0 ? parts.join(" ") : undefined;
  }

  /** Claimable work for teammate `name` and what its last notice offered (teammate_spawn wording). */
  workFor(name: string): BoardWork {
    if (this.#unavailable) return { offered: [], claimable: [] };
    const assignments = this.#o.mates()
      .filter((m) => m.name !== name && m.assignmentResources)
      .map((m) => ({ name: m.name, resources: m.assignmentResources ?? [] }));
    return { offered: [...(this.#book.get(name)?.offered ?? [])], claimable: claimableTaskIds(this.#board, assignments) };
  }

  /** Delivers the board-settled summary when its rule holds (src/board/settled.ts). */
  #checkSettled(): void {
    if (this.#closed || this.#unavailable || !this.#o.onSettled) return;
    const d = checkSettled(this.#board, { teamWorking: this.#o.teamWorking?.() ?? false, lastKey: this.#settledKey });
    if (d.kind !== "settled") return;
    this.#settledKey = d.key;
    this.#o.onSettled(d);
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

  #plan(mates: BoardMate[], extra: { synchronous?: boolean; onlyTaskIds?: string[] }) {
    const assignments: Assignment[] = mates
      .filter((m) => m.assignmentResources)
      .map((m) => ({ name: m.name, resources: m.assignmentResources ?? [] }));
    const plan = planNotices(this.#board, this.#book, {
      teammates: mates.map((m) => ({ name: m.name, spawnId: m.spawnId, idle: m.idle, hasAssignment: m.hasAssignment })),
      assignments,
      now: this.#o.now(),
      paceMs: this.#o.paceMs,
      ...extra,
    });
    this.#apply(plan.effects);
    this.#armPace(mates);
    return plan;
  }

  /**
   * Re-plans when the earliest paced-out idle teammate may hear again (no polling while nothing
   * waits). A teammate whose pace already ran out was eligible in the plan just made, so it waits
   * for the next board change, not for a timer (re-arming for it would spin every millisecond).
   */
  #armPace(mates: BoardMate[]): void {
    clearTimeout(this.#paceTimer);
    if (this.#closed || this.#board.index.ready.length === 0) return;
    const now = this.#o.now();
    let due = Number.POSITIVE_INFINITY;
    for (const m of mates) {
      const last = this.#book.get(m.name)?.lastAt;
      if (!m.idle || m.hasAssignment || last === undefined) continue;
      const at = last + this.#o.paceMs;
      if (at > now) due = Math.min(due, at);
    }
    if (!Number.isFinite(due)) return;
    this.#paceTimer = setTimeout(() => this.offerWork(), due - now + 1);
    this.#paceTimer.unref();
  }

  /** Applies every pending intent, oldest first, one at a time (R37–R39, R47, L6). */
  async #scan(): Promise<void> {
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
    const read = await readIntent(path, BoardIntentSchema, { graceMs: this.#o.intentGraceMs, now: this.#o.now });
    if (!read.ok) {
      if (read.reason === "young-unparseable") {
        clearTimeout(this.#retryTimer);
        this.#retryTimer = setTimeout(() => void this.#scan(), this.#o.intentGraceMs).unref();
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
    const decision = this.#unavailable
      ? this.#decide(read.value, { ok: false, reason: "board_unavailable", message: this.#unavailable })
      : this.#decide(read.value, this.#apply1(read.value));
    await this.#writeDecision(decision);
    await consumeIntent(path, "done", this.#o.now);
    this.offerWork();
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

  #decide(intent: BoardIntent, r: { ok: boolean; reason?: string; message: string; taskId?: string }): BoardDecision {
    return { v: INTENT_FORMAT_VERSION, id: intent.id, at: this.#o.now(), ...r };
  }

  /** Validates the sender's identity (R47) and applies one intent to the core. */
  #apply1(intent: BoardIntent): { ok: boolean; reason?: string; message: string; taskId?: string } {
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
      const r = claimTask(this.#board, { holder: { ...holder, hasAssignment: mate.hasAssignment }, ...(intent.taskId ? { taskId: intent.taskId } : {}), assignments }, now);
      this.#apply(r.effects);
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
    const r = submitTask(this.#board, {
      holder,
      taskId: intent.taskId,
      status: intent.status,
      ...(intent.result !== undefined ? { result: intent.result } : {}),
      ...(mate.roleVerify ? { roleVerify: mate.roleVerify } : {}),
    }, now);
    this.#apply(r.effects);
    if (!r.ok) return { ok: false, reason: r.reason, message: r.message, taskId: intent.taskId };
    const said: Record<typeof r.outcome, string> = {
      completed: `Task ${r.task.id} is completed.`,
      in_review: `Task ${r.task.id} was submitted; an independent reviewer is checking it now. You keep the claim; the verdict reaches you as a message. End your turn.`,
      released: `Task ${r.task.id} returned to the board as pending with your reason kept.`,
      acknowledged: `Task ${r.task.id} was superseded; your acknowledgement released its resources.`,
    };
    return { ok: true, message: said[r.outcome], taskId: r.task.id };
  }

  /** Carries out the core's effects, in order; after a board change, checks whether it settled. */
  #apply(effects: readonly Effect[]): void {
    let changed = false;
    for (const e of effects) {
      switch (e.type) {
        case "persist":
          this.#scheduler.markDirty(e.revision, this.#o.now());
          this.#armFlush();
          changed = true;
          break;
        case "notify_teammate":
        case "send_findings":
        case "tell_holder":
          this.#o.tell(e.to, e.text);
          break;
        case "start_reviewer":
          void this.#review(e);
          break;
        case "clarify_reviewer":
          break; // asked inside #review, on the same reviewer
        case "abort_reviewer":
          this.#abortReviewer(e.token);
          break;
        case "escalate":
          this.#o.escalate(e);
          break;
        default: {
          const never: never = e;
          throw new TeamError("illegal_transition", `unknown board effect ${JSON.stringify(never)}`);
        }
      }
    }
    if (changed) this.#checkSettled();
  }

  /** Runs one verify gate (R44, W9): a fresh one-shot reviewer, one clarification at most. */
  async #review(e: Extract<Effect, { type: "start_reviewer" }>): Promise<void> {
    this.#reviewers.set(e.token, undefined);
    this.#reviewersChanged();
    let reviewer: Reviewer | undefined;
    let prompt: string | undefined = e.prompt;
    try {
      reviewer = await startReviewer({
        piCli: this.#o.piCli,
        cwd: this.#o.cwd,
        env: this.#o.env,
        model: this.#o.teamModel(),
        stderrLog: join(this.#o.layout.root, "reviewers", `${e.taskId}.log`),
        label: `reviewer of ${e.taskId}`,
      });
      while (prompt !== undefined && this.#reviewers.has(e.token)) {
        this.#reviewers.set(e.token, reviewer);
        let answer: string;
        try {
          answer = await reviewer.ask(prompt);
        } catch (error) {
          answer = `(the reviewer failed: ${error instanceof Error ? error.message : String(error)})`;
        }
        if (!this.#reviewers.has(e.token)) break; // aborted while answering: the outcome is stale (L9)
        const r = gateOutcome(this.#board, { token: e.token, text: answer }, this.#o.now());
        const clarify = r.effects.find((x): x is Extract<Effect, { type: "clarify_reviewer" }> => x.type === "clarify_reviewer" && x.token === e.token);
        this.#apply(r.effects);
        prompt = clarify?.prompt;
        this.#o.note(`reviewer of ${e.taskId}: ${r.ok ? r.outcome : r.reason}`);
      }
    } catch (error) {
      const r = gateOutcome(this.#board, { token: e.token, text: `(the reviewer could not start: ${String(error)})` }, this.#o.now());
      this.#apply(r.effects.filter((x) => x.type !== "clarify_reviewer"));
    } finally {
      this.#reviewers.delete(e.token);
      this.#reviewersChanged();
      await reviewer?.stop();
    }
  }

  #abortReviewer(token: string): void {
    const reviewer = this.#reviewers.get(token);
    this.#reviewers.delete(token);
    this.#reviewersChanged();
    void reviewer?.stop();
  }

  #armFlush(): void {
    if (this.#flushTimer || this.#closed) return;
    const due = this.#scheduler.dueAt();
    if (due === undefined) return;
    this.#flushTimer = setTimeout(() => {
      this.#flushTimer = undefined;
      void this.#flush();
    }, Math.max(0, due - this.#o.now()));
  }

  /** Writes board.json when due: atomically, only changed revisions, coalesced (L24). */
  async #flush(): Promise<void> {
    const revision = this.#scheduler.begin(this.#o.now());
    if (revision === undefined) return this.#armFlush();
    let ok = false;
    try {
      await writeFileAtomic(this.#o.layout.board, serializeBoard(this.#board), { mode: 0o600 });
      ok = true;
    } catch (error) {
      this.#o.note(`board.json write failed (will retry): ${error instanceof Error ? error.message : String(error)}`);
    }
    this.#scheduler.done(revision, ok, this.#o.now());
    this.#armFlush();
  }

  /** Stops watching, aborts reviewers and writes the last snapshot. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#paceTimer);
    clearTimeout(this.#retryTimer);
    clearTimeout(this.#flushTimer);
    await this.#watch?.close();
    for (const token of [...this.#reviewers.keys()]) this.#abortReviewer(token);
    if (this.#scheduler.dirty && !this.#unavailable) {
      await writeFileAtomic(this.#o.layout.board, serializeBoard(this.#board), { mode: 0o600 });
    }
  }
}
