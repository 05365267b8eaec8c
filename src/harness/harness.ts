import { rm } from "node:fs/promises";
import { basename, join } from "node:path";
import { discoverAgents, type AgentDiscovery } from "../agents/index.ts";
import { SessionRoles, withSessionRoles } from "../agents/session-roles.ts";
import { makeInboxRecord, TASK_BOARD, type SpawnKeys } from "../mail/index.ts";
import type { BoardDecision } from "../mail/stream-wire.ts";
import { WorktreeLocks } from "../isolation/index.ts";
import { spawnPiChild } from "../process/index.ts";
import { ensurePrivateDir, watchDirs, type DirWatch } from "../store/index.ts";
import type { Member } from "../team/member.ts";
import { LOOP_CALLS } from "../team/model-call-rate.ts";
import { PEER_PAIR_CAP } from "../team/peer-pairs.ts";
import type { SendRequest } from "../team/routing.ts";
import { type LeaderHarnessOptions, type LeaderSendResult, type ResolvedHarnessOptions, type SpawnRequest, type SpawnResult } from "./harness-types.ts";
import type { ActivityChange, TeamActivity } from "../team/team-activity.ts";
import { interruptTeammate, livingOrRefuse, sendFromLeader, shutdownTeammate } from "./leader-orders.ts";
import { acquireSessionLock, type SessionLock } from "./session-lock.ts";
import { spawnTeammate } from "./spawn-teammate.ts";
import { TeamDriver } from "./team-driver.ts";
import { teamCompactor, type Compactor } from "./compactor.ts";
import { TeamBus } from "../team/bus.ts";
import type { SignalListener, TeamSignalType } from "../team/signals.ts";
import { SYSTEM_CLOCK, TEAMMATE_FILES } from "./harness-ports.ts";
import { hearTeamSteps } from "./team-steps.ts";
import { watchExit } from "./teammate-exit.ts";


/**
 * The leader's side of the team (R3): takes the session lock, watches the mailboxes, and spawns
 * (src/harness/spawn-teammate.ts), messages and stops (src/harness/leader-orders.ts) teammates; a
 * child's exit is handled in src/harness/teammate-exit.ts. Each teammate is one actor: its whole
 * life, from the resources its spawn acquires to their release after its close, is decided by
 * the pure lifecycle (src/team/lifecycle.ts) and carried out by the `TeamDriver` (event queue
 * per teammate, src/harness/team-driver.ts, and its effect executor, src/harness/team-effects.ts)
 * this object owns. It runs on ports (src/harness/harness-ports.ts: a Spawner, a Clock, the
 * file-system operations), asks its session through one board port (`HarnessBoard`) and tells it
 * through one typed subscription (`on`, the session's bus: src/team/bus.ts). Driven by RPC and
 * chokidar events; the safety net for a dropped watch event is event-driven too
 * (src/harness/mail-hints.ts), so an idle team runs no timer (W6). All state lives in these
 * objects; once closed they ignore every callback (L29).
 */
export class LeaderHarness implements TeamActivity {
  readonly #o: ResolvedHarnessOptions;
  /** The teammates' event queues and the effect executor. */
  readonly #team: TeamDriver;
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
      clock: SYSTEM_CLOCK,
      spawner: spawnPiChild,
      files: TEAMMATE_FILES,
      board: {},
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
      peerPairCap: PEER_PAIR_CAP,
      loopCalls: LOOP_CALLS,
      ...options,
      bus: options.bus ?? new TeamBus(() => (options.clock ?? SYSTEM_CLOCK).now()),
    };
    this.#team = new TeamDriver(this.#o);
    this.#compactor = teamCompactor(this.#team, this.#o.compaction, () => this.#o.clock.now());
    // First listeners, before any of the session's (src/harness/team-steps.ts).
    hearTeamSteps({ team: this.#team, compactor: this.#compactor, heldClaims: this.#o.board.heldClaims });
    // What the board host tells the teammates and the leader (src/boardhost/board-host.ts).
    this.on("tell", ({ to, text }) => this.tell(to, text));
    this.on("escalate", ({ escalation: e }) => this.event("verify_escalation", e.holder.name, e.text));
    this.on("board_settled", ({ summary }) => this.event("board_settled", TASK_BOARD, summary.text));
    this.on("board_changed", () => void this.#team.writeRoster()); // holdings the edit guards read
  }

  /**
   * Calls `listener` for every later signal of `type` (src/team/bus.ts): leader
   * deliveries, notes, mail written into a child, RPC events, lifelines, idle and gone
   * teammates, ended spawns, activity changes. Returns the unsubscribe.
   */
  on<K extends TeamSignalType>(type: K, listener: SignalListener<K>): () => void {
    return this.#team.bus.on(type, listener);
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
    this.#workerBundle = this.#o.files.ensureWorkerBundle(this.#o.packageDir, (text) => this.#team.note(text));
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
    return this.#team.living(name);
  }

  /** Names of spawns in flight that have not registered their teammate yet (task_create wording). */
  spawning(): string[] {
    return [...this.#spawning];
  }

  /** Resolves once every event queued for `m` so far has been applied (its queue is drained). */
  settled(m: Member): Promise<void> {
    return this.#team.drained(m);
  }

  /** See `TeamDriver#busy`: a teammate starting or working, a prompt or a queued step in flight. */
  busy(): boolean {
    return this.#team.busy();
  }

  /** Calls `listener` after teammate steps (`status`) and leader deliveries (`delivery`): the `activity` signal. Returns the unsubscribe. */
  subscribe(listener: (change: ActivityChange) => void): () => void {
    return this.on("activity", ({ change }) => listener(change));
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
        watchExit: (m) => watchExit(this.#team, m),
        workerBundle: () => this.#workerBundle,
      }, req);
    } finally {
      this.#team.bus.emit({ type: "spawn_ended" });
    }
  }

  /**
   * The leader's `send_message` (R24, R25): steers a working teammate, else holds the message for
   * its next wake; `reopen` starts a new assignment (R15). See src/harness/leader-orders.ts.
   * @throws TeamError `invalid_input` when the recipient is not a living teammate.
   */
  async sendFromLeader(req: SendRequest): Promise<LeaderSendResult> {
    return sendFromLeader(this.#team, this.#o, req);
  }

  /**
   * The user's message from the console (issue 21): routed as the leader's `send_message`
   * (steered into a working teammate's run, else held for its next wake), from `user`.
   * @throws TeamError `invalid_input` when the recipient is not a living teammate.
   */
  async sendFromUser(req: { to: string; message: string }): Promise<LeaderSendResult> {
    return sendFromLeader(this.#team, this.#o, req, "user");
  }

  /**
   * Stops one teammate on request (R21), with no leader turn (R30). See src/harness/leader-orders.ts.
   * @throws TeamError `not_found` when no living teammate has that name.
   */
  async shutdown(name: string): Promise<{ name: string; exit: string }> {
    return shutdownTeammate(this.#team, this.#o, name);
  }

  /**
   * The user's interrupt of a working teammate's run (the console's `a`, issue 21): it goes idle
   * with its context and claims; no reminder, no leader turn. See src/harness/leader-orders.ts.
   * @throws TeamError `not_found` (not a living teammate), `invalid_input` (not working).
   */
  async interrupt(name: string): Promise<string> {
    return interruptTeammate(this.#team, name);
  }

  /**
   * Compacts a living teammate's context now (the console's `c`; `by` labels the feed row). A
   * working teammate is refused (Pi would abort its run); mail arriving meanwhile is held and
   * delivered once it ends. Resolves with the status-bar line, e.g. `@ada compacted: 150K → 32K
   * tokens`, or `@ada compaction failed: <Pi's reason>`. The leader's model is not told.
   * @throws TeamError `not_found` when no living teammate has that name (the message lists them).
   */
  async compact(name: string, by: "user" | "auto" = "user"): Promise<string> {
    return this.#compactor.compact(livingOrRefuse(this.#team, name, `compact: "${name}"`), by);
  }

  /** The living teammate `who` names, if it is still that incarnation. */
  #incarnation(who: { name: string; spawnId: string }): Member | undefined {
    const m = this.living(who.name);
    return m?.spawnId === who.spawnId ? m : undefined;
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
    for (const m of living) if (m.state.phase !== "stopping") this.#team.stop(m);
    const ending = this.members().filter((m) => m.state.phase !== "stopped"); // a crashed one may still be releasing
    await Promise.all(ending.map(async (m) => {
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

  /**
   * Answers board intent `id` of `who` (an intent file) with `decision` on its stdin, the path a
   * stream teammate's intent takes (src/harness/stream-records.ts). Dropped when `who` is no
   * longer that incarnation: its waiting call ended with it.
   */
  answerIntent(who: { name: string; spawnId: string }, id: string, decision: BoardDecision): void {
    const m = this.#incarnation(who);
    if (m) this.#team.stream.decided(m, id, decision);
  }

  /**
   * Delivers board text (a notice, review findings) into a living teammate's next turn, from
   * "task-board". Dropped when `to` is no longer that incarnation (R47).
   */
  tell(to: { name: string; spawnId: string }, text: string): void {
    const m = this.living(to.name);
    if (!m || m.spawnId !== to.spawnId || m.state.phase === "stopping") return;
    const record = makeInboxRecord({ from: "task-board", to: m.name, body: text }, this.#o.clock.now());
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
