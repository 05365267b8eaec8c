import { rm } from "node:fs/promises";
import { basename, join } from "node:path";
import { discoverAgents, type AgentDiscovery } from "../agents/index.ts";
import { SessionRoles, withSessionRoles } from "../agents/session-roles.ts";
import { TeamError } from "../errors.ts";
import { LEADER_NAME, makeInboxRecord, type SpawnKeys } from "../mail/index.ts";
import { WorktreeLocks, captureWorktree } from "../isolation/index.ts";
import { ensureWorkerBundle } from "../process/worker-bundle.ts";
import { ensurePrivateDir, watchDirs, type DirWatch } from "../store/index.ts";
import type { Member } from "../team/member.ts";
import { routeFromLeader, type SendRequest } from "../team/routing.ts";
import { type LeaderHarnessOptions, type LeaderSendResult, type ResolvedHarnessOptions, type SpawnRequest, type SpawnResult } from "./harness-types.ts";
import type { ActivityChange, TeamActivity } from "./headless.ts";
import { acquireSessionLock, type SessionLock } from "./session-lock.ts";
import { spawnTeammate } from "./spawn-teammate.ts";
import { TeamDriver } from "./team-driver.ts";
import { teamCompactor, type Compactor } from "./compactor.ts";
import { captureHasNews, captureNote, worktreeKeptText } from "./worktree-report.ts";

export * from "./harness-types.ts";

/**
 * The leader's side of the team (R3): takes the session lock, watches the mailboxes, and spawns,
 * messages and stops teammates. What happens to each teammate is decided by the pure lifecycle
 * (src/team/lifecycle.ts) and carried out by the `TeamDriver` (event queue per teammate plus
 * effect executor) this object owns. Driven by RPC and chokidar events; the safety net for a
 * dropped watch event is event-driven too (src/leader/mail-hints.ts), so an idle team runs no
 * timer (W6). All state lives in these objects; once closed they ignore every callback (L29).
 */
export class LeaderHarness implements TeamActivity {
  readonly #o: ResolvedHarnessOptions;
  /** The teammates' event queues and the effect executor. */
  readonly #team: TeamDriver;
  #nextMessageId = 0;
  /** Names of spawns in flight that have not registered their teammate yet. */
  readonly #spawning: string[] = [];
  #watch: DirWatch | undefined;
  /** Roles defined inline by `teammate_spawn` for this session only (R8, R9). */
  readonly roles = new SessionRoles();
  #lock: SessionLock | undefined;
  /** Manual and automatic compaction of teammates' contexts (issue 8). */
  readonly #compactor: Compactor<Member>;
  /** The worker bundle children load (checked, or rebuilt, once from `start`); undefined: the sources. */
  #workerBundle: Promise<string | undefined> = Promise.resolve(undefined);

  constructor(options: LeaderHarnessOptions) {
    this.#o = {
      now: Date.now,
      safetyPollMs: 0,
      readyTimeoutMs: 30_000,
      stopGraceMs: 3000,
      heartbeat: { stallMs: 0, silentMs: 0 },
      leaderThinking: () => undefined,
      teamModel: () => undefined,
      knownModels: () => undefined,
      worktreesRoot: join(options.agentDir, "worktrees", basename(options.layout.root)),
      worktreeLocks: new WorktreeLocks(),
      compaction: { at: 0 },
      ...options,
      // The compactor hears of terminal reports, and of quiet idles before the board offers work.
      deliver: (d) => {
        if (d.kind === "report" && d.record.status !== "in_progress") this.assignmentBoundary({ name: d.record.from, spawnId: d.record.spawnId });
        options.deliver(d);
      },
      onIdle: (m) => {
        this.#compactor.idle(m);
        options.onIdle?.(m);
      },
    };
    this.#team = new TeamDriver(this.#o);
    this.#compactor = teamCompactor(this.#team, this.#o.compaction, this.#o.now);
  }

  /**
   * Takes the session lock, creates the runtime dirs and starts watching outboxes and inboxes.
   * Call once. @throws TeamError `locked` when another living leader runs this session's team.
   */
  async start(): Promise<void> {
    const { layout } = this.#o;
    await ensurePrivateDir(layout.root);
    this.#lock = await acquireSessionLock(layout.lock, layout.root);
    // In the background (a few ms when fresh, a rebuild ~100 ms): a spawn waits for it.
    this.#workerBundle = ensureWorkerBundle(this.#o.packageDir, (text) => this.#team.note(text));
    for (const dir of [layout.outboxDir, layout.inboxDir, layout.logDir]) await ensurePrivateDir(dir);
    this.#watch = watchDirs([layout.outboxDir, layout.inboxDir], (path) => this.#team.onFileChange(path), {
      safetyPollMs: this.#o.safetyPollMs,
      onError: (error) => this.#team.note(`watcher error: ${String(error)}`),
    });
    await this.#watch.ready;
  }

  /**
   * The spawn keys of this session (src/mail/seal.ts), for code in the leader process that checks
   * a seal (the board's intents) or writes as a teammate in a test. Never leaves this process.
   */
  get keys(): SpawnKeys {
    return this.#team.keys;
  }

  /** Living and stopped teammates, latest incarnation per name. */
  members(): Member[] {
    return [...this.#team.members.values()];
  }

  /** The living teammate of that name (case-insensitive), if any. */
  living(name: string): Member | undefined {
    const m = this.#team.members.get(name.toLowerCase());
    return m?.living ? m : undefined;
  }

  /** Names of spawns in flight that have not registered their teammate yet (task_create wording). */
  spawning(): string[] {
    return [...this.#spawning];
  }

  /** See `TeamDriver#busy`: a teammate starting or working, a prompt or a queued step in flight. */
  busy(): boolean {
    return this.#team.busy();
  }

  /** Calls `listener` after teammate steps (`status`) and leader deliveries (`delivery`). Returns the unsubscribe. */
  subscribe(listener: (change: ActivityChange) => void): () => void {
    return this.#team.subscribe(listener);
  }

  /**
   * Discovers agent definitions now (files may change during a session), with this session's
   * roles filling the names no file defines (R7). Never rejects.
   */
  async discover(): Promise<AgentDiscovery> {
    const files = await discoverAgents({ agentDir: this.#o.agentDir, cwd: this.#o.cwd, trusted: this.#o.trusted() });
    return withSessionRoles(files, this.roles);
  }

  /**
   * Starts a teammate (R13–R19, R22) and waits until its child answers `get_state`. With a
   * kickoff `prompt`, the first prompt carries the role prompt and the kickoff as one direct
   * assignment; without one the teammate idles and costs no model call.
   * @throws TeamError `invalid_input` (bad name, unknown agent: the message lists the available
   *   agents), `limit_reached` (8 living), `child_exited` (the child died before it was ready).
   */
  async spawn(req: SpawnRequest): Promise<SpawnResult> {
    try {
      return await spawnTeammate({
        o: this.#o,
        team: this.#team,
        spawning: this.#spawning,
        roles: this.roles,
        discover: () => this.discover(),
        watchExit: (m) => this.#watchExit(m),
        workerBundle: () => this.#workerBundle,
      }, req);
    } finally {
      this.#team.hook(() => this.#o.onSpawnEnded?.());
    }
  }

  /** Watches `m`'s child: on exit, drains its outbox, closes it, then keeps its worktree's work. */
  #watchExit(m: Member): void {
    const proc = m.proc!;
    void proc.exited.then((exit) => this.#team.enqueue(m, async () => {
      for (const dispose of m.disposers.splice(0)) dispose();
      const records = await this.#team.mail.read(m.outbox); // a last report before the end still counts
      return [{ type: "outbox", records }, { type: "closed", exit: { code: exit.code, signal: exit.signal }, stderrTail: proc.stderrTail(2048).trim() }];
    })).then(() => this.#keepWorktree(m)).finally(() => m.markClosed());
  }

  /**
   * After a stop or a crash (R20, L23): commits what is left in `m`'s worktree onto its branch,
   * removes the directory and keeps the branch (under the session's shared `worktreeLocks`, so a
   * same-name respawn's reclaim never captures it at the same time). The leader hears once, with
   * a `worktree_kept` event whenever the capture found anything (work on the branch or on other
   * branches, a capture commit, a dir left in place), with the capture's notes; a worktree with
   * nothing at all loses its empty branch (a note only). See src/leader/worktree-report.ts. Never throws.
   */
  async #keepWorktree(m: Member): Promise<void> {
    if (!m.worktree) return;
    try {
      const cap = await captureWorktree(m.worktree, { locks: this.#o.worktreeLocks });
      if (cap.kept) m.kept = { name: cap.branch, base: cap.base };
      if (!cap.removed) m.leftAt = m.worktree.dir;
      this.#team.note(captureNote(cap), m);
      if (captureHasNews(cap)) this.#team.event("worktree_kept", m.name, worktreeKeptText(`@${m.name} stopped`, cap));
    } catch (error) {
      const text = `@${m.name}'s worktree ${m.worktree.dir} could not be committed and was left in place (nothing deleted): ${error instanceof Error ? error.message : String(error)}`;
      m.leftAt = m.worktree.dir;
      this.#team.note(text, m);
      this.#team.event("worktree_capture_failed", m.name, text);
    }
  }

  /**
   * The leader's `send_message` (R24, R25): a working teammate is steered through its control
   * stream (`steered` only when the child accepted it); otherwise the message goes to its inbox
   * (`queued`) and is delivered at its next wake. `reopen` starts a new assignment after a
   * terminal report: the report gate opens again and the board is open to the teammate (R15);
   * the `onReopen` hook's note (one more attempt of its parked tasks, R45) joins the result.
   * @throws TeamError `invalid_input` when the recipient is not a living teammate.
   */
  async sendFromLeader(req: SendRequest): Promise<LeaderSendResult> {
    const statuses = new Map(this.members().map((m) => [m.name, { name: m.name, status: m.status }]));
    const route = routeFromLeader(req, statuses);
    if (route.kind === "error") throw new TeamError("invalid_input", route.message);
    const m = this.living(route.to)!;
    const id = ++this.#nextMessageId;
    const record = makeInboxRecord({ from: LEADER_NAME, to: m.name, body: req.message }, this.#o.now());
    let reopened: string | undefined;
    if (req.reopen) {
      m.assign(req.message);
      this.#team.hook(() => (reopened = this.#o.onReopen?.(m)), m);
    }
    const result = this.#team.waits.leaderResult(m, id);
    void this.#team.enqueue(m, () => [{ type: "leader_message", id, record, reopen: req.reopen === true }]);
    const notes = [route.note, reopened].filter((n): n is string => n !== undefined && n !== "");
    return { to: m.name, result: await result, ...(notes.length > 0 ? { note: notes.join(" ") } : {}) };
  }

  /**
   * Stops one teammate on request (R21): stdin EOF, then SIGTERM, then SIGKILL, each after a
   * bounded wait. The teammate ends `stopped` and no leader turn is started (R30).
   * @throws TeamError `not_found` when no living teammate has that name.
   */
  async shutdown(name: string): Promise<{ name: string; exit: string }> {
    const m = this.living(name);
    if (!m || m.state.phase === "stopping") {
      const living = this.members().filter((x) => x.living).map((x) => x.name);
      throw new TeamError("not_found", `teammate_shutdown: name "${name}" is not a living teammate. Living: ${living.join(", ") || "(none)"}.`);
    }
    this.#team.dispatch(m, { type: "stop_requested" }); // at once, not queued: no close may pass for a crash (L22)
    const exit = await m.proc?.stop({ graceMs: this.#o.stopGraceMs, termGraceMs: this.#o.stopGraceMs });
    await m.closed;
    return { name: m.name, exit: exit ? `${exit.reason}${exit.signal ? ` (${exit.signal})` : ` (code ${exit.code})`}` : "never started" };
  }

  /**
   * Compacts a living teammate's context now (the console's `c`; `by` labels the feed row). A
   * working teammate is refused (Pi would abort its run); mail arriving meanwhile is held and
   * delivered once it ends. Resolves with the status-bar line, e.g. `@ada compacted: 150K → 32K
   * tokens`, or `@ada compaction failed: <Pi's reason>`. The leader's model is not told.
   * @throws TeamError `not_found` when no living teammate has that name (the message lists them).
   */
  async compact(name: string, by: "user" | "auto" = "user"): Promise<string> {
    const m = this.living(name);
    if (!m || m.state.phase === "stopping") {
      const living = this.members().filter((x) => x.living).map((x) => x.name);
      throw new TeamError("not_found", `compact: "${name}" is not a living teammate. Living: ${living.join(", ") || "(none)"}.`);
    }
    return this.#compactor.compact(m, by);
  }

  /**
   * `who` reached an assignment boundary (its terminal report, or a board submission the board
   * accepted): once its run settles idle, its context is compacted if it passed the threshold.
   * Ignored for an incarnation that no longer lives.
   */
  assignmentBoundary(who: { name: string; spawnId: string }): void {
    const m = this.living(who.name);
    if (m && m.spawnId === who.spawnId) this.#compactor.boundary(m);
  }

  /**
   * Session end (L22): every teammate is marked as a requested shutdown first, then all are
   * stopped together; the heartbeat timer and watchers end and the runtime dir is removed (R57).
   * After it, no callback of this session does anything (L29). Idempotent.
   */
  async close(): Promise<void> {
    if (this.#team.phase !== "open") return;
    this.#team.phase = "closing";
    const living = this.members().filter((m) => m.living);
    for (const m of living) if (m.state.phase !== "stopping") this.#team.dispatch(m, { type: "stop_requested" });
    await Promise.all(living.map(async (m) => {
      await m.proc?.stop({ graceMs: this.#o.stopGraceMs, termGraceMs: this.#o.stopGraceMs });
      await m.closed;
    }));
    this.#team.phase = "closed";
    await this.#team.quiesce(); // a roster write still in flight would recreate the dir after the rm
    await this.#watch?.close();
    // Only the lock holder owns the runtime dir; a leader refused at start must not delete it.
    if (this.#lock) await rm(this.#o.layout.root, { recursive: true, force: true });
    await this.#lock?.release();
  }

  /** Rewrites the roster if what it shows changed (board holdings the edit guards read). */
  rosterChanged(): void {
    void this.#team.writeRoster();
  }

  /**
   * Delivers board text (a notice, review findings) into a living teammate's next turn, from
   * "task-board". Dropped when `to` is no longer that incarnation (R47).
   */
  tell(to: { name: string; spawnId: string }, text: string): void {
    const m = this.living(to.name);
    if (!m || m.spawnId !== to.spawnId || m.state.phase === "stopping") return;
    const record = makeInboxRecord({ from: "task-board", to: m.name, body: text }, this.#o.now());
    // At once, not queued: the board plans its next notices from this teammate's state (R36).
    this.#team.dispatch(m, { type: "mail", records: [record] });
  }

  /**
   * Starts one leader turn with a `<harness-event>` (R30): escalations and other actionable
   * events. Nothing once the session is ending (a board summary must not start a turn then).
   */
  event(type: string, teammate: string, body: string): void {
    this.#team.event(type, teammate, body);
  }
}
