import { randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import { discoverAgents, resolveAgent, type AgentDiscovery } from "../agents/index.ts";
import { TeamError } from "../errors.ts";
import { LEADER_NAME, makeInboxRecord } from "../mail/index.ts";
import { spawnPiChild } from "../process/index.ts";
import { ensurePrivateDir, watchDirs, type DirWatch } from "../store/index.ts";
import { Member } from "../team/member.ts";
import { routeFromLeader, type SendRequest } from "../team/routing.ts";
import { planSpawn } from "../team/spawn-plan.ts";
import { validateTeammateName } from "../team/names.ts";
import { MAX_LIVING_TEAMMATES, type LeaderHarnessOptions, type LeaderSendResult, type ResolvedHarnessOptions, type SpawnRequest, type SpawnResult } from "./harness-types.ts";
import type { ActivityChange, TeamActivity } from "./headless.ts";
import { acquireSessionLock, type SessionLock } from "./session-lock.ts";
import { TeamDriver } from "./team-driver.ts";

export * from "./harness-types.ts";

/**
 * The leader's side of the team (R3): takes the session lock, watches the mailboxes, and spawns,
 * messages and stops teammates. What happens to each teammate is decided by the pure lifecycle
 * (src/team/lifecycle.ts) and carried out by the `TeamDriver` (event queue per teammate plus
 * effect executor) this object owns. Driven by RPC and chokidar events with a slow safety poll
 * (W6). All state lives in these objects; once closed they ignore every callback (L29).
 */
export class LeaderHarness implements TeamActivity {
  readonly #o: ResolvedHarnessOptions;
  /** The teammates' event queues and the effect executor. */
  readonly #team: TeamDriver;
  #nextMessageId = 0;
  /** Names of spawns in flight that have not registered their teammate yet. */
  readonly #spawning: string[] = [];
  #watch: DirWatch | undefined;
  #lock: SessionLock | undefined;

  constructor(options: LeaderHarnessOptions) {
    this.#o = { now: Date.now, safetyPollMs: 5000, readyTimeoutMs: 30_000, stopGraceMs: 3000, heartbeat: { stallMs: 0, silentMs: 0 }, ...options };
    this.#team = new TeamDriver(this.#o);
  }

  /**
   * Takes the session lock, creates the runtime dirs and starts watching outboxes and inboxes.
   * Call once. @throws TeamError `locked` when another living leader runs this session's team.
   */
  async start(): Promise<void> {
    const { layout } = this.#o;
    await ensurePrivateDir(layout.root);
    this.#lock = await acquireSessionLock(layout.lock, layout.root);
    for (const dir of [layout.outboxDir, layout.inboxDir, layout.logDir]) await ensurePrivateDir(dir);
    this.#watch = watchDirs([layout.outboxDir, layout.inboxDir], (path) => this.#team.onFileChange(path), {
      safetyPollMs: this.#o.safetyPollMs,
      onError: (error) => this.#team.note(`watcher error: ${String(error)}`),
    });
    await this.#watch.ready;
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

  /** Discovers agent definitions now (files may change during a session). Never rejects. */
  discover(): Promise<AgentDiscovery> {
    return discoverAgents({ agentDir: this.#o.agentDir, cwd: this.#o.cwd, trusted: this.#o.trusted() });
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
      return await this.#spawn(req);
    } finally {
      this.#team.hook(() => this.#o.onSpawnEnded?.());
    }
  }

  async #spawn(req: SpawnRequest): Promise<SpawnResult> {
    // Discover first: from the name and limit checks to reserving the name below there is no
    // await, so parallel spawns (several teammate_spawn calls in one reply) cannot pass the
    // checks together and overrun the limit or take one name twice.
    this.#spawning.push(req.name);
    let discovery: AgentDiscovery;
    try {
      discovery = await this.discover();
    } finally {
      this.#spawning.splice(this.#spawning.indexOf(req.name), 1);
    }
    if (this.#team.phase !== "open") throw new TeamError("illegal_transition", "teammate_spawn: the session is ending; nothing was started.");
    const livingNames = this.members().filter((m) => m.living).map((m) => m.name);
    const nameCheck = validateTeammateName(req.name, livingNames);
    if (!nameCheck.ok) throw new TeamError("invalid_input", `teammate_spawn: ${nameCheck.message}`);
    if (livingNames.length >= MAX_LIVING_TEAMMATES) {
      throw new TeamError(
        "limit_reached",
        `teammate_spawn: ${livingNames.length} teammates are alive (${livingNames.join(", ")}); at most ${MAX_LIVING_TEAMMATES} may live at once. Shut one down with teammate_shutdown first.`,
      );
    }
    const resolved = resolveAgent(discovery, req.agent);
    if (!resolved.ok) throw new TeamError("invalid_input", `teammate_spawn: ${resolved.message}`);
    const spawnId = randomUUID();
    const { layout } = this.#o;
    const plan = planSpawn({
      name: req.name,
      spawnId,
      agent: resolved.agent,
      leaderModel: this.#o.leaderModel(),
      packageDir: this.#o.packageDir,
      runtimeDir: layout.root,
      boardDir: this.#o.boardDir,
      leaderPid: process.pid,
    });
    const m = new Member({
      name: req.name,
      agent: resolved.agent,
      spawnId,
      tools: plan.tools,
      resources: req.resources ?? [],
      model: plan.model,
      startedAt: this.#o.now(),
      log: layout.log(req.name),
      ...this.#team.mail.of(req.name),
    });
    this.#team.members.set(req.name.toLowerCase(), m);
    await this.#team.touchRoster();
    try {
      m.proc = await spawnPiChild({ piCli: this.#o.piCli, args: plan.args, cwd: this.#o.cwd, env: { ...this.#o.env, ...plan.env }, stderrLog: layout.log(req.name), label: `teammate ${req.name}` });
    } catch (error) {
      this.#team.dispatch(m, { type: "stop_requested" });
      this.#team.dispatch(m, { type: "closed", exit: { code: null, signal: null }, stderrTail: "" });
      m.markClosed();
      throw error;
    }
    const proc = m.proc;
    if (m.state.phase !== "starting") {
      // Shut down (or the session ended) while the process was being started: stop it now.
      await proc.stop({ graceMs: 500, termGraceMs: 500, abortFirst: false });
      this.#team.dispatch(m, { type: "closed", exit: { code: null, signal: null }, stderrTail: "" });
      m.markClosed();
      throw new TeamError("illegal_transition", `teammate_spawn: ${req.name} was shut down while it was starting; nothing is left running.`);
    }
    m.disposers.push(proc.child.onEvent((event) => this.#team.onRpcEvent(m, event)));
    m.disposers.push(proc.child.onUiRequest((r) => this.#team.note(`cancelled a ${r.request.method} dialog of the child`, m)));
    void proc.exited.then((exit) => this.#team.enqueue(m, async () => {
      for (const dispose of m.disposers.splice(0)) dispose();
      const records = await this.#team.mail.read(m.outbox); // a last report before the end still counts
      return [{ type: "outbox", records }, { type: "closed", exit: { code: exit.code, signal: exit.signal }, stderrTail: proc.stderrTail(2048).trim() }];
    }).finally(() => m.markClosed()));
    try {
      await proc.waitReady(this.#o.readyTimeoutMs);
      const sent = req.prompt ? this.#team.kickoffSent(m) : undefined;
      await this.#team.enqueue(m, () => [{ type: "ready", ...(req.prompt ? { kickoff: req.prompt } : {}) }]);
      if (m.status === "stopped") this.#team.releaseKickoff(m); // stopped before ready: no kickoff went out
      const error = await sent;
      if (error !== undefined) throw new TeamError("child_exited", `teammate_spawn: the kickoff prompt to ${req.name} failed: ${error}`);
      await this.#team.writeRoster(); // with its pid, before the tool returns
    } catch (error) {
      void proc.stop({ graceMs: 500, termGraceMs: 500, abortFirst: false });
      this.#team.dispatch(m, { type: "stop_requested" });
      await m.closed;
      throw error;
    }
    return {
      name: m.name,
      agent: m.agent.name,
      spawnId,
      pid: proc.pid,
      status: m.status,
      tools: m.tools,
      model: m.model ? `${m.model.provider}/${m.model.id}` : "(Pi default)",
      kickoff: Boolean(req.prompt),
      log: proc.stderrLogPath,
    };
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
    if (req.reopen) this.#team.hook(() => (reopened = this.#o.onReopen?.(m)), m);
    const result = this.#team.leaderResult(m, id);
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
      throw new TeamError("not_found", `teammate_shutdown: "${name}" is not a living teammate. Living: ${living.join(", ") || "(none)"}.`);
    }
    this.#team.dispatch(m, { type: "stop_requested" }); // at once, not queued: no close may pass for a crash (L22)
    const exit = await m.proc?.stop({ graceMs: this.#o.stopGraceMs, termGraceMs: this.#o.stopGraceMs });
    await m.closed;
    return { name: m.name, exit: exit ? `${exit.reason}${exit.signal ? ` (${exit.signal})` : ` (code ${exit.code})`}` : "never started" };
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
