import { randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import { basename } from "node:path";
import { discoverAgents, resolveAgent, type AgentDiscovery } from "../agents/index.ts";
import { TeamError } from "../errors.ts";
import { appendInboxRecord, LEADER_NAME, makeInboxRecord } from "../mail/index.ts";
import { spawnPiChild, type RpcEvent } from "../process/index.ts";
import { ensurePrivateDir, watchDirs, type DirWatch } from "../store/index.ts";
import { eventsFromRpc } from "../team/rpc-events.ts";
import { transition, type TeammateEffect, type TeammateEvent } from "../team/lifecycle.ts";
import { Member } from "../team/member.ts";
import { harnessEventText, reportText } from "../team/prompts.ts";
import { routeFromLeader, type SendRequest } from "../team/routing.ts";
import { planSpawn } from "../team/spawn-plan.ts";
import { validateTeammateName } from "../team/names.ts";
import { MAX_LIVING_TEAMMATES, type HarnessHook, type LeaderHarnessOptions, type LeaderSendResult, type SpawnRequest, type SpawnResult } from "./harness-types.ts";
import type { ActivityChange, TeamActivity } from "./headless.ts";
import { HeartbeatTimer } from "./heartbeat-timer.ts";
import { Mailboxes } from "./mailboxes.ts";
import { RosterWriter } from "./roster-writer.ts";
import { acquireSessionLock, type SessionLock } from "./session-lock.ts";

export * from "./harness-types.ts";

type Resolved = Required<Omit<LeaderHarnessOptions, HarnessHook>> & Pick<LeaderHarnessOptions, HarnessHook>;

/**
 * The leader's side of the team (R3), as an imperative shell around the pure teammate lifecycle
 * (src/team/lifecycle.ts): every input of a teammate (RPC events, outbox and inbox records, the
 * leader's messages, clock ticks) becomes an event on that teammate's queue, and the effects of
 * each transition are carried out here, in the style of `BoardHost#apply`. Driven by RPC and
 * chokidar events with a slow safety poll (W6); one heartbeat timer for the team, armed only
 * while someone works. All state lives in this object; once closed it ignores every callback (L29).
 */
export class LeaderHarness implements TeamActivity {
  readonly #o: Resolved;
  readonly #members = new Map<string, Member>(); // key: lower-case name; the latest incarnation
  readonly #mail: Mailboxes;
  readonly #roster: RosterWriter;
  /** Every roster write started so far; close waits for them. */
  #rosterWrites: Promise<void> = Promise.resolve();
  /** The leader's send_message calls waiting for their routing result, by message id. */
  readonly #leaderWaits = new Map<number, { m: Member; resolve: (r: "steered" | "queued") => void }>();
  /** Kickoff prompts waiting for the child's answer, by spawn id. */
  readonly #kickoffs = new Map<string, (error: string | undefined) => void>();
  readonly #listeners = new Set<(change: ActivityChange) => void>();
  /** Queue jobs not yet done (a settle draining its outbox, a crash being handled). */
  #inFlight = 0;
  #nextMessageId = 0;
  /** Names of spawns in flight that have not registered their teammate yet. */
  readonly #spawning: string[] = [];
  #watch: DirWatch | undefined;
  readonly #heartbeat: HeartbeatTimer;
  /** `open`, then `closing` while the teammates stop, then `closed`: every late callback is ignored (L29). */
  #phase: "open" | "closing" | "closed" = "open";
  #lock: SessionLock | undefined;

  constructor(options: LeaderHarnessOptions) {
    this.#o = { now: Date.now, safetyPollMs: 5000, readyTimeoutMs: 30_000, stopGraceMs: 3000, heartbeat: { stallMs: 0, silentMs: 0 }, ...options };
    this.#heartbeat = new HeartbeatTimer(this.#o.heartbeat, this.#o.now, () => {
      for (const m of this.#members.values()) void this.#enqueue(m, () => [{ type: "tick" }]);
    });
    this.#roster = new RosterWriter(this.#o.layout.roster, this.#o.now);
    this.#mail = new Mailboxes(this.#o.layout, (text) => this.#note(text));
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
    this.#watch = watchDirs([layout.outboxDir, layout.inboxDir], (path) => this.#onFileChange(path), {
      safetyPollMs: this.#o.safetyPollMs,
      onError: (error) => this.#note(`watcher error: ${String(error)}`),
    });
    await this.#watch.ready;
  }

  /** Living and stopped teammates, latest incarnation per name. */
  members(): Member[] {
    return [...this.#members.values()];
  }

  /** The living teammate of that name (case-insensitive), if any. */
  living(name: string): Member | undefined {
    const m = this.#members.get(name.toLowerCase());
    return m?.living ? m : undefined;
  }

  /** Names of spawns in flight that have not registered their teammate yet (task_create wording). */
  spawning(): string[] {
    return [...this.#spawning];
  }

  /**
   * True while the team owes the leader something (headless runs wait for it to turn false): a
   * teammate is starting or working, a prompt to one is in flight, or a queued step (a settle
   * draining its outbox, a close) is not done. Mail left on an idle teammate after a failed wake
   * does not count: nothing would ever end the wait.
   */
  busy(): boolean {
    return this.#inFlight > 0 || this.members().some((m) => m.state.phase === "starting" || m.state.phase === "working" || m.sending);
  }

  /** Calls `listener` after teammate steps (`status`) and leader deliveries (`delivery`). Returns the unsubscribe. */
  subscribe(listener: (change: ActivityChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
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
      this.#hook(() => this.#o.onSpawnEnded?.());
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
    if (this.#phase !== "open") throw new TeamError("illegal_transition", "teammate_spawn: the session is ending; nothing was started.");
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
      ...this.#mail.of(req.name),
    });
    this.#members.set(req.name.toLowerCase(), m);
    this.#roster.touch();
    await this.#writeRoster();
    try {
      m.proc = await spawnPiChild({ piCli: this.#o.piCli, args: plan.args, cwd: this.#o.cwd, env: { ...this.#o.env, ...plan.env }, stderrLog: layout.log(req.name), label: `teammate ${req.name}` });
    } catch (error) {
      this.#dispatch(m, { type: "stop_requested" });
      this.#dispatch(m, { type: "closed", exit: { code: null, signal: null }, stderrTail: "" });
      m.markClosed();
      throw error;
    }
    const proc = m.proc;
    if (m.state.phase !== "starting") {
      // Shut down (or the session ended) while the process was being started: stop it now.
      await proc.stop({ graceMs: 500, termGraceMs: 500, abortFirst: false });
      this.#dispatch(m, { type: "closed", exit: { code: null, signal: null }, stderrTail: "" });
      m.markClosed();
      throw new TeamError("illegal_transition", `teammate_spawn: ${req.name} was shut down while it was starting; nothing is left running.`);
    }
    m.disposers.push(proc.child.onEvent((event) => this.#onRpcEvent(m, event)));
    m.disposers.push(proc.child.onUiRequest((r) => this.#note(`cancelled a ${r.request.method} dialog of the child`, m)));
    void proc.exited.then((exit) => this.#enqueue(m, async () => {
      for (const dispose of m.disposers.splice(0)) dispose();
      const records = await this.#mail.read(m.outbox); // a last report before the end still counts
      return [{ type: "outbox", records }, { type: "closed", exit: { code: exit.code, signal: exit.signal }, stderrTail: proc.stderrTail(2048).trim() }];
    }).finally(() => m.markClosed()));
    try {
      await proc.waitReady(this.#o.readyTimeoutMs);
      const sent = req.prompt ? new Promise<string | undefined>((resolve) => this.#kickoffs.set(spawnId, resolve)) : undefined;
      await this.#enqueue(m, () => [{ type: "ready", ...(req.prompt ? { kickoff: req.prompt } : {}) }]);
      if (m.status === "stopped") this.#releaseKickoff(m); // stopped before ready: no kickoff went out
      const error = await sent;
      if (error !== undefined) throw new TeamError("child_exited", `teammate_spawn: the kickoff prompt to ${req.name} failed: ${error}`);
      await this.#writeRoster(); // with its pid, before the tool returns
    } catch (error) {
      void proc.stop({ graceMs: 500, termGraceMs: 500, abortFirst: false });
      this.#dispatch(m, { type: "stop_requested" });
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
    if (req.reopen) this.#hook(() => (reopened = this.#o.onReopen?.(m)), m);
    const result = new Promise<"steered" | "queued">((resolve) => this.#leaderWaits.set(id, { m, resolve }));
    void this.#enqueue(m, () => [{ type: "leader_message", id, record, reopen: req.reopen === true }]);
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
    this.#dispatch(m, { type: "stop_requested" }); // at once, not queued: no close may pass for a crash (L22)
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
    if (this.#phase !== "open") return;
    this.#phase = "closing";
    const living = this.members().filter((m) => m.living);
    for (const m of living) if (m.state.phase !== "stopping") this.#dispatch(m, { type: "stop_requested" });
    await Promise.all(living.map(async (m) => {
      await m.proc?.stop({ graceMs: this.#o.stopGraceMs, termGraceMs: this.#o.stopGraceMs });
      await m.closed;
    }));
    this.#phase = "closed";
    this.#heartbeat.stop();
    await this.#rosterWrites; // a write still in flight would recreate the dir after the rm
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
    this.#dispatch(m, { type: "mail", records: [record] });
  }

  /**
   * Starts one leader turn with a `<harness-event>` (R30): escalations and other actionable
   * events. Nothing once the session is ending (a board summary must not start a turn then).
   */
  event(type: string, teammate: string, body: string): void {
    if (this.#phase !== "open") return;
    this.#o.deliver({ kind: "harness_event", type, teammate, text: harnessEventText({ type, teammate, body }) });
    this.#changed("delivery");
  }

  /**
   * Appends one job to the teammate's event queue: it produces events (reading a mailbox first
   * if it must), which are applied in order. A failing job is noted, never thrown (the leader's
   * session must not crash over a teammate).
   */
  #enqueue(m: Member, job: () => TeammateEvent[] | Promise<TeammateEvent[]>): Promise<void> {
    this.#inFlight += 1;
    m.queue = m.queue.then(async () => {
      if (this.#phase === "closed") return;
      for (const event of await job()) this.#dispatch(m, event);
    }).catch((error: unknown) => this.#note(`teammate step failed: ${error instanceof Error ? error.message : String(error)}`, m))
      .finally(() => {
        this.#inFlight -= 1;
        this.#changed("status");
      });
    return m.queue;
  }

  /** Applies one event to the core and carries out its effects. */
  #dispatch(m: Member, event: TeammateEvent): void {
    const before = m.state.phase;
    const step = transition(m.state, event, this.#o.now(), { facts: m.facts, heartbeat: this.#o.heartbeat });
    m.state = step.state;
    for (const effect of step.effects) this.#execute(m, effect);
    if (m.state.phase === "stopping" || m.state.phase === "stopped") this.#releaseKickoff(m);
    if (m.state.phase === "stopped" && before !== "stopped") this.#releaseWaits(m);
    if (event.type !== "output" || m.state.phase !== before) this.#changed("status");
    if (this.#phase === "open") this.#heartbeat.arm(this.#members.values());
  }

  #execute(m: Member, e: TeammateEffect): void {
    switch (e.type) {
      case "send":
        this.#send(m, e);
        break;
      case "deliver_report":
        this.#o.deliver({ kind: "report", record: e.record, text: reportText(e.record) });
        this.#changed("delivery");
        break;
      case "harness_event":
        this.event(e.event.type, m.name, e.event.body);
        break;
      case "health":
        this.event("teammate_stalled", m.name, e.body);
        break;
      case "leader_result":
        this.#resolveWait(e.id, e.result);
        break;
      case "queue_leader_message":
        void appendInboxRecord(this.#o.layout.inbox(m.name), e.record)
          .then(() => {
            this.#note(`leader → ${m.name}: queued`, m);
            if (m.living) void this.#enqueue(m, async () => [{ type: "mail", records: await this.#mail.read(m.inbox) }]);
          })
          .catch((error: unknown) => this.#note(`leader → ${m.name}: inbox write failed: ${String(error)}`, m))
          .finally(() => this.#resolveWait(e.id, "queued"));
        break;
      case "mail_delivered":
        this.#o.mailDelivered?.({ teammate: m.name, via: e.via, records: [...e.records], at: this.#o.now() });
        break;
      case "write_roster":
        this.#roster.touch();
        void this.#writeRoster();
        break;
      case "board_idle":
        this.#hook(() => this.#o.onIdle?.(m), m);
        break;
      case "board_gone":
        this.#hook(() => this.#o.onGone?.(m, e.reason), m);
        break;
      case "stop_process":
        void m.proc?.stop({ graceMs: this.#o.stopGraceMs, termGraceMs: this.#o.stopGraceMs });
        break;
      case "note":
      case "lifeline":
        this.#note(e.text, m);
        break;
      default: {
        const never: never = e;
        throw new TeamError("illegal_transition", `unknown teammate effect ${JSON.stringify(never)}`);
      }
    }
  }

  /**
   * A prompt into the child. Steers go as `prompt` with streamingBehavior "steer", not as a
   * `steer` command: when the run has just ended (its agent_settled not seen yet) a `steer` would
   * wait in Pi's queue for some later prompt, while this prompt starts a new run at once.
   */
  #send(m: Member, e: Extract<TeammateEffect, { type: "send" }>): void {
    const proc = m.proc;
    const steer = e.kind === "steer" || e.kind === "leader_steer";
    const answer = (event: TeammateEvent, error?: string): void => {
      if (e.kind === "kickoff") {
        this.#kickoffs.get(m.spawnId)?.(error);
        this.#kickoffs.delete(m.spawnId);
      }
      void this.#enqueue(m, () => [event]);
    };
    if (!proc) return answer({ type: "sent", ticket: e.ticket, ok: false, error: "no process" }, "no process");
    proc.child.prompt(e.text, { streamingBehavior: steer ? "steer" : "followUp" }).then(
      (r) => answer({ type: "sent", ticket: e.ticket, ok: true, started: steer && r.disposition === "started" }),
      (error: unknown) => {
        const text = error instanceof Error ? error.message : String(error);
        answer({ type: "sent", ticket: e.ticket, ok: false, error: text }, text);
      },
    );
  }

  #resolveWait(id: number, result: "steered" | "queued"): void {
    this.#leaderWaits.get(id)?.resolve(result);
    this.#leaderWaits.delete(id);
  }

  /** A spawn waiting for its kickoff's answer learns that the teammate is going away. */
  #releaseKickoff(m: Member): void {
    this.#kickoffs.get(m.spawnId)?.("the teammate was stopped while starting");
    this.#kickoffs.delete(m.spawnId);
  }

  /** A closed teammate's steers in flight will get no answer event: their messages go to the inbox. */
  #releaseWaits(m: Member): void {
    for (const [id, wait] of this.#leaderWaits) {
      if (wait.m === m) this.#resolveWait(id, "queued");
    }
  }

  #onFileChange(path: string): void {
    const { layout } = this.#o;
    const targets = path === layout.outboxDir || path === layout.inboxDir
      ? this.members()
      : [this.#members.get(basename(path, ".jsonl").toLowerCase())].filter((m): m is Member => m !== undefined);
    for (const m of targets.filter((x) => x.living)) {
      if (!path.startsWith(layout.inboxDir)) void this.#enqueue(m, async () => [{ type: "outbox", records: await this.#mail.read(m.outbox) }]);
      if (!path.startsWith(layout.outboxDir)) void this.#enqueue(m, async () => [{ type: "mail", records: await this.#mail.read(m.inbox) }]);
    }
  }

  #onRpcEvent(m: Member, event: RpcEvent): void {
    const events = eventsFromRpc(event);
    if (event.type !== "agent_settled") {
      void this.#enqueue(m, () => events);
      return;
    }
    // Drain first: a terminal report written in this run must be judged before a wake reopens the gate.
    void this.#enqueue(m, async () => {
      const records = await this.#mail.read(m.outbox);
      const claim = this.#o.openClaim?.(m);
      return [...events, { type: "outbox", records }, { type: "run_settled", ...(claim ? { openClaim: claim } : {}) }];
    });
  }

  /** Calls a hook (board bookkeeping); a throw is noted, never propagated into the harness. */
  #hook(call: () => void, m?: Member): void {
    try {
      call();
    } catch (error) {
      this.#note(`board hook failed: ${error instanceof Error ? error.message : String(error)}`, m);
    }
  }

  #changed(change: ActivityChange): void {
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch (error) {
        this.#note(`listener failed: ${String(error)}`);
      }
    }
  }

  #writeRoster(): Promise<void> {
    if (this.#phase === "closed" || (this.#phase === "closing" && this.members().every((m) => !m.living))) return this.#rosterWrites;
    const write = this.#roster.write(this.members()).catch((error: unknown) => {
      this.#note(`roster write failed: ${error instanceof Error ? error.message : String(error)}`);
    });
    this.#rosterWrites = Promise.all([this.#rosterWrites, write]).then(() => undefined);
    return write;
  }

  #note(text: string, m?: Member): void {
    this.#o.note?.({ at: this.#o.now(), text, ...(m ? { teammate: m.name } : {}) });
  }
}

