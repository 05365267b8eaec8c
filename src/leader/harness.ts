import { randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import { basename, join } from "node:path";
import { discoverAgents, resolveAgent, type AgentDiscovery } from "../agents/index.ts";
import { TeamError } from "../errors.ts";
import {
  appendInboxRecord,
  inboxCursor,
  LEADER_NAME,
  makeInboxRecord,
  outboxCursor,
  ROSTER_FORMAT_VERSION,
  type RosterFile,
} from "../mail/index.ts";
import { spawnPiChild, type RpcEvent } from "../process/index.ts";
import { ensurePrivateDir, SnapshotWriter, watchDirs, type DirWatch } from "../store/index.ts";
import { Member } from "../team/member.ts";
import { crashText, harnessEventText, runFailedText, kickoffText, mailText, reportText, wakeText } from "../team/prompts.ts";
import { admitReport, reopenGate, routeFromLeader, type SendRequest, type TeammateStatus } from "../team/routing.ts";
import { planSpawn } from "../team/spawn-plan.ts";
import { validateTeammateName } from "../team/names.ts";
import {
  MAX_LIVING_TEAMMATES,
  type HarnessHook,
  type LeaderHarnessOptions,
  type LeaderSendResult,
  type SpawnRequest,
  type SpawnResult,
} from "./harness-types.ts";
import { acquireSessionLock, type SessionLock } from "./session-lock.ts";

export * from "./harness-types.ts";

/**
 * The leader's side of the team (R3): starts and stops teammates, drains their outboxes into
 * leader turns, delivers inbox mail into teammates' turns, and reports crashes. Driven by
 * chokidar events and RPC events, with a slow safety poll (W6). All state lives in this object.
 */
export class LeaderHarness {
  readonly #o: Required<Omit<LeaderHarnessOptions, HarnessHook>> & Pick<LeaderHarnessOptions, HarnessHook>;
  readonly #members = new Map<string, Member>(); // key: lower-case name; the latest incarnation
  readonly #cursors = new Map<string, { outbox: Member["outbox"]; inbox: Member["inbox"] }>();
  readonly #roster = new SnapshotWriter();
  #rosterChangedAt = 0;
  #watch: DirWatch | undefined;
  #closing = false;
  #lock: SessionLock | undefined;
  /** Names of spawns still discovering agents, before their Member exists (one entry per call). */
  readonly #spawning: string[] = [];

  constructor(options: LeaderHarnessOptions) {
    this.#o = { now: Date.now, safetyPollMs: 5000, readyTimeoutMs: 30_000, stopGraceMs: 3000, ...options };
  }

  /**
   * Takes the session lock, creates the runtime dirs and starts watching outboxes and inboxes.
   * Call once. @throws TeamError `locked` when another living leader runs this session's team.
   */
  async start(): Promise<void> {
    const { layout } = this.#o;
    await ensurePrivateDir(layout.root);
    this.#lock = await acquireSessionLock(join(layout.root, "leader.lock"), layout.root);
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

  /**
   * Names of teammates whose `spawn` has not registered them yet (a parallel task_create must not
   * say "no teammate is alive"). Once registered they are members with status `starting`.
   */
  spawning(): string[] {
    return [...this.#spawning];
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
    const plan = planSpawn({
      name: req.name,
      spawnId,
      agent: resolved.agent,
      leaderModel: this.#o.leaderModel(),
      packageDir: this.#o.packageDir,
      runtimeDir: this.#o.layout.root,
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
      ...this.#cursorsFor(req.name),
    });
    this.#members.set(req.name.toLowerCase(), m);
    this.#rosterChangedAt = this.#o.now();
    await this.#writeRoster();
    try {
      m.proc = await spawnPiChild({
        piCli: this.#o.piCli,
        args: plan.args,
        cwd: this.#o.cwd,
        env: { ...this.#o.env, ...plan.env },
        stderrLog: this.#o.layout.log(req.name),
        label: `teammate ${req.name}`,
      });
    } catch (error) {
      await this.#setStatus(m, "stopped");
      m.markClosed();
      throw error;
    }
    const proc = m.proc;
    m.disposers.push(proc.child.onEvent((event) => this.#onEvent(m, event)));
    m.disposers.push(proc.child.onUiRequest((r) => this.#note(`cancelled a ${r.request.method} dialog of the child`, m)));
    this.#background(proc.exited.then(() => this.#onClose(m)), "handling the child's exit", m);
    try {
      await proc.waitReady(this.#o.readyTimeoutMs);
      if (req.prompt) {
        m.rolePending = false;
        m.direct = "open";
        await proc.child.prompt(kickoffText(m.agent.prompt, req.prompt), { streamingBehavior: "followUp" });
      } else if (m.status === "starting") {
        await this.#setStatus(m, "idle");
        await this.#deliverMail(m);
        if ((m.status as TeammateStatus) === "idle") this.#hook(() => this.#o.onIdle?.(m), m);
      }
    } catch (error) {
      m.requestedShutdown = true;
      await proc.stop({ graceMs: 500, termGraceMs: 500, abortFirst: false });
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
   * `onReopen` may add a line to the result (board: one more attempt of its parked tasks, R45).
   * @throws TeamError `invalid_input` when the recipient is not a living teammate.
   */
  async sendFromLeader(req: SendRequest): Promise<LeaderSendResult> {
    const statuses = new Map(this.members().map((m) => [m.name, { name: m.name, status: m.status }]));
    const route = routeFromLeader(req, statuses);
    if (route.kind === "error") throw new TeamError("invalid_input", route.message);
    const m = this.living(route.to)!;
    let reopened: string | undefined;
    if (req.reopen) {
      m.gate = reopenGate(m.gate);
      m.direct = "none";
      this.#hook(() => {
        reopened = this.#o.onReopen?.(m);
      }, m);
    }
    const notes = [route.note, reopened].filter((n): n is string => n !== undefined && n !== "");
    const note = notes.length > 0 ? { note: notes.join(" ") } : {};
    if (route.kind === "steer" && m.proc && !m.delivering) {
      try {
        const via = await this.#steer(m, mailText({ from: LEADER_NAME, body: req.message }));
        this.#note(`leader → ${m.name}: ${via === "steer" ? "steered" : "steered into a new run (the last one had just ended)"}`, m);
        return { to: m.name, result: "steered", ...note };
      } catch {
        // The run ended between the status check and the steer: queue it for the next wake.
      }
    }
    await appendInboxRecord(this.#o.layout.inbox(m.name), makeInboxRecord({ from: LEADER_NAME, to: m.name, body: req.message }, this.#o.now()));
    this.#note(`leader → ${m.name}: queued`, m);
    this.#background(this.#readInbox(m), "reading the inbox", m);
    return { to: m.name, result: "queued", ...note };
  }

  /**
   * Stops one teammate on request (R21): stdin EOF, then SIGTERM, then SIGKILL, each after a
   * bounded wait. The teammate ends `stopped` and no leader turn is started (R30).
   * @throws TeamError `not_found` when no living teammate has that name.
   */
  async shutdown(name: string): Promise<{ name: string; exit: string }> {
    const m = this.living(name);
    if (!m) {
      const living = this.members().filter((x) => x.living).map((x) => x.name);
      throw new TeamError("not_found", `teammate_shutdown: "${name}" is not a living teammate. Living: ${living.join(", ") || "(none)"}.`);
    }
    m.requestedShutdown = true;
    this.#hook(() => this.#o.onGone?.(m, "shutdown"), m);
    const exit = await m.proc?.stop({ graceMs: this.#o.stopGraceMs, termGraceMs: this.#o.stopGraceMs });
    await m.closed;
    return { name: m.name, exit: exit ? `${exit.reason}${exit.signal ? ` (${exit.signal})` : ` (code ${exit.code})`}` : "never started" };
  }

  /**
   * Session end (L22): every teammate is marked as a requested shutdown first, then all are
   * stopped together; watchers close and the runtime dir is removed (R57). Idempotent.
   */
  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    const living = this.members().filter((m) => m.living);
    for (const m of living) {
      m.requestedShutdown = true;
      this.#hook(() => this.#o.onGone?.(m, "shutdown"), m);
    }
    await Promise.all(living.map(async (m) => {
      await m.proc?.stop({ graceMs: this.#o.stopGraceMs, termGraceMs: this.#o.stopGraceMs });
      await m.closed;
    }));
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
    if (!m || m.spawnId !== to.spawnId || m.requestedShutdown) return;
    m.pendingMail.push(makeInboxRecord({ from: "task-board", to: m.name, body: text }, this.#o.now()));
    this.#background(this.#deliverMail(m), "delivering board mail", m);
  }

  /**
   * Starts one leader turn with a `<harness-event>` (R30): escalations and other actionable events.
   * A closing harness starts none (a board_settled summary must not wake a session that is ending).
   */
  event(type: string, teammate: string, body: string): void {
    if (this.#closing) return;
    this.#o.deliver({ kind: "harness_event", type, teammate, text: harnessEventText({ type, teammate, body }) });
  }

  /** Cursors per exact name, i.e. per mailbox file: `Bob` and `bob` are different files. */
  #cursorsFor(name: string): { outbox: Member["outbox"]; inbox: Member["inbox"] } {
    let c = this.#cursors.get(name);
    if (!c) {
      c = { outbox: outboxCursor(this.#o.layout.outbox(name)), inbox: inboxCursor(this.#o.layout.inbox(name)) };
      this.#cursors.set(name, c);
    }
    return c;
  }

  /** Runs a background step; a failure is noted, never thrown into the leader's session. */
  #background(step: Promise<unknown>, what: string, m?: Member): void {
    step.catch((error: unknown) => this.#note(`${what} failed: ${error instanceof Error ? error.message : String(error)}`, m));
  }

  #onFileChange(path: string): void {
    const { layout } = this.#o;
    const targets = path === layout.outboxDir || path === layout.inboxDir
      ? this.members()
      : [this.#members.get(basename(path, ".jsonl").toLowerCase())].filter((m): m is Member => m !== undefined);
    for (const m of targets) {
      if (!path.startsWith(layout.inboxDir)) this.#background(this.#drainOutbox(m), "reading the outbox", m);
      if (!path.startsWith(layout.outboxDir)) this.#background(this.#readInbox(m), "reading the inbox", m);
    }
  }

  #onEvent(m: Member, event: RpcEvent): void {
    if (!m.living) return;
    if (event.type === "agent_start") {
      m.runError = undefined;
      this.#background(this.#setStatus(m, "working").then(() => this.#deliverMail(m)), "starting delivery", m);
    }
    if (event.type === "message_end" && event.message.role === "assistant" && event.message.stopReason === "error") {
      m.runError = typeof event.message.errorMessage === "string" ? event.message.errorMessage : "the model call failed";
    }
    if (event.type === "agent_settled") this.#background(this.#settled(m), "settling", m);
  }

  async #settled(m: Member): Promise<void> {
    // Drain first: a terminal report written in this run must be judged before a wake reopens the gate.
    await this.#drainOutbox(m);
    if (!m.living) return;
    if (m.runError !== undefined && m.direct === "open") {
      // The assignment's run died on an error and no terminal report came: the leader would wait forever.
      this.event("teammate_run_failed", m.name, runFailedText(m.name, m.runError, this.#o.layout.log(m.name)));
    }
    m.runError = undefined;
    await this.#setStatus(m, "idle");
    await this.#deliverMail(m);
    if (m.status === "idle") this.#hook(() => this.#o.onIdle?.(m), m);
  }

  /** Reads new outbox records of `m` and delivers each admitted one as its own leader turn (R26, R27, R47). */
  async #drainOutbox(m: Member): Promise<void> {
    for (const record of await this.#readMailbox(m.outbox, m)) {
      // The file name is the authority on the sender; a record naming someone else is forged.
      if (record.from.toLowerCase() !== m.name.toLowerCase()) {
        this.#note(`outbox of ${m.name} holds a record from "${record.from}"; dropped`, m);
        continue;
      }
      const decision = admitReport(m.gate, record);
      m.gate = decision.gate;
      if (!decision.deliver) {
        this.#note(`report from ${record.from} dropped: ${decision.reason}`, m);
        continue;
      }
      if (decision.terminal && m.direct === "open") m.direct = "closed";
      this.#o.deliver({ kind: "report", record, text: reportText(record) });
    }
  }

  async #readInbox(m: Member): Promise<void> {
    const records = await this.#readMailbox(m.inbox, m);
    if (records.length === 0) return;
    m.pendingMail.push(...records);
    await this.#deliverMail(m);
  }

  /**
   * Delivers pending mail into the child (R24): a working teammate is steered; an idle one is
   * woken with one prompt carrying all pending mail (with the role prompt if it never had one).
   * A starting teammate gets it once it settles. A wake reopens the report gate (R27).
   */
  async #deliverMail(m: Member): Promise<void> {
    if (m.delivering || !m.living || !m.proc || m.pendingMail.length === 0) return;
    if (m.status !== "idle" && m.status !== "working") return;
    m.delivering = true;
    const mail = m.pendingMail.splice(0);
    let sent = false;
    try {
      if (m.status === "working") {
        const via = await this.#steer(m, mail.map(mailText).join("\n\n"));
        this.#o.mailDelivered?.({ teammate: m.name, via, records: mail, at: this.#o.now() });
        sent = true;
      } else {
        const role = m.rolePending ? m.agent.prompt : undefined;
        await m.proc.child.prompt(wakeText(mail, role), { streamingBehavior: "followUp" });
        m.rolePending = false;
        m.gate = reopenGate(m.gate);
        this.#o.mailDelivered?.({ teammate: m.name, via: "wake", records: mail, at: this.#o.now() });
        await this.#setStatus(m, "working");
        sent = true;
      }
    } catch (error) {
      m.pendingMail.unshift(...mail); // nothing is lost: the next settle retries
      this.#note(`delivery to ${m.name} deferred: ${error instanceof Error ? error.message : String(error)}`, m);
    } finally {
      m.delivering = false;
    }
    // Mail read while this delivery was in flight found `delivering` set and only queued itself:
    // send it now, to a working teammate too, or it waits for the end of the run (bench/route-latency.ts).
    if (m.pendingMail.length > 0 && (sent || m.status === "idle")) await this.#deliverMail(m);
  }

  /**
   * Puts text into a working child's run as a steering message. Sent as a `prompt` with
   * streamingBehavior "steer", not as a `steer` command: when the run has just ended (the harness
   * has not seen its agent_settled yet) a `steer` would wait in Pi's queue for some later prompt,
   * while this prompt starts a new run at once (disposition `started`: a wake, which reopens the
   * report gate, R27).
   */
  async #steer(m: Member, text: string): Promise<"steer" | "wake"> {
    const r = await m.proc!.child.prompt(text, { streamingBehavior: "steer" });
    if (r.disposition !== "started") return "steer";
    m.gate = reopenGate(m.gate);
    return "wake";
  }

  /** New records of one mailbox; problems become notes, never throws (a bad file is skipped). */
  async #readMailbox<T>(cursor: { path: string; readNew(): Promise<{ records: T[]; diagnostics: string[] }> }, m: Member): Promise<T[]> {
    try {
      const batch = await cursor.readNew();
      for (const d of batch.diagnostics) this.#note(d, m);
      return batch.records;
    } catch (error) {
      this.#note(`${cursor.path} unreadable, skipped: ${error instanceof Error ? error.message : String(error)}`, m);
      return [];
    }
  }

  /** The child closed (L21): drain its outbox, mark it stopped, and report a crash (R56). */
  async #onClose(m: Member): Promise<void> {
    try {
      await this.#closeMember(m);
    } finally {
      m.markClosed(); // shutdown() and close() wait on this: it must resolve whatever failed
    }
  }

  async #closeMember(m: Member): Promise<void> {
    for (const dispose of m.disposers.splice(0)) dispose();
    await this.#drainOutbox(m);
    await this.#setStatus(m, "stopped");
    const proc = m.proc;
    if (!m.requestedShutdown && proc) {
      this.#hook(() => this.#o.onGone?.(m, "crash"), m);
      const exit = await proc.exited;
      const body = crashText({
        name: m.name,
        agent: m.agent.name,
        how: exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`,
        undelivered: m.pendingMail.length,
        log: proc.stderrLogPath,
        stderrTail: proc.stderrTail(2048).trim(),
      });
      this.event("teammate_crashed", m.name, body);
    }
  }

  /** Calls a hook (board bookkeeping); a throw is noted, never propagated into the harness. */
  #hook(call: () => void, m: Member): void {
    try {
      call();
    } catch (error) {
      this.#note(`board hook failed: ${error instanceof Error ? error.message : String(error)}`, m);
    }
  }

  async #setStatus(m: Member, status: TeammateStatus): Promise<void> {
    if (m.status === status || m.status === "stopped") return;
    m.status = status;
    this.#rosterChangedAt = this.#o.now();
    await this.#writeRoster();
  }

  async #writeRoster(): Promise<void> {
    if (this.#closing && this.members().every((m) => !m.living)) return;
    const roster: RosterFile = {
      v: ROSTER_FORMAT_VERSION,
      updatedAt: this.#rosterChangedAt,
      teammates: this.members().map((m) => ({
        name: m.name,
        agent: m.agent.name,
        spawnId: m.spawnId,
        status: m.status,
        ...(m.proc && m.living ? { pid: m.proc.pid } : {}),
        tools: m.tools,
      })),
    };
    try {
      await this.#roster.write(this.#o.layout.roster, roster);
    } catch (error) {
      this.#note(`roster write failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  #note(text: string, m?: Member): void {
    this.#o.note?.({ at: this.#o.now(), text, ...(m ? { teammate: m.name } : {}) });
  }
}
