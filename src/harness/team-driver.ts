import { basename } from "node:path";
import { SpawnKeys, type RosterFile } from "../mail/index.ts";
import type { RpcEvent } from "../process/index.ts";
import { isBusy, occupies, transition, type TeammateEvent } from "../team/lifecycle.ts";
import type { Member } from "../team/member.ts";
import type { HeldClaim } from "../team/prompts.ts";
import { LOOP_EVENT, loopEventText, ModelCallRate } from "../team/model-call-rate.ts";
import { harnessEventText } from "../team/prompts.ts";
import { eventsFromOutput } from "../team/output-events.ts";
import { outputOfRpc } from "../team/teammate-output.ts";
import type { ResolvedHarnessOptions } from "./harness-types.ts";
import type { ActivityChange, TeamActivity } from "../team/team-activity.ts";
import type { TeamBus } from "../team/bus.ts";
import { HeartbeatTimer } from "./heartbeat-timer.ts";
import { sentMailPaths } from "./mail-hints.ts";
import { Mailboxes } from "./mailboxes.ts";
import { PeerCap } from "./peer-cap.ts";
import { RosterWriter } from "./roster-writer.ts";
import { SendWaits } from "./send-waits.ts";
import { StreamRecords } from "./stream-records.ts";
import { TeamEffects } from "./team-effects.ts";

/**
 * The event queue of one session's team, in the style of `BoardHost#apply`:
 * every input of a teammate (RPC events, outbox and inbox records, the leader's messages, clock
 * ticks) becomes an event on that teammate's queue, is applied to the pure lifecycle
 * (src/team/lifecycle.ts), and the effects are carried out by its `TeamEffects`
 * (src/harness/team-effects.ts). It also keeps what those effects need: the mailbox cursors, the
 * roster, the waits of leader sends and kickoffs, the one heartbeat timer (R52) and the activity
 * listeners (headless runs). `LeaderHarness` owns it and adds spawning and stopping. Once `phase`
 * is `closed` every late callback is ignored (L29).
 */
export class TeamDriver implements TeamActivity {
  readonly #o: ResolvedHarnessOptions;
  /** Key: lower-case name; the latest incarnation. */
  readonly members = new Map<string, Member>();
  readonly mail: Mailboxes;
  /** `open`, then `closing` while the teammates stop, then `closed`. */
  phase: "open" | "closing" | "closed" = "open";
  readonly #roster: RosterWriter;
  /** Every roster write started so far; close waits for them. */
  #rosterWrites: Promise<void> = Promise.resolve();
  /** The leader sends and kickoffs waiting for an effect's answer. */
  readonly waits = new SendWaits();
  readonly #effects: TeamEffects;
  /** The session's bus (src/team/bus.ts): what the harness tells the outside. */
  readonly bus: TeamBus;
  /** Queue jobs not yet done (a settle draining its outbox, a crash being handled). */
  #inFlight = 0;
  readonly #heartbeat: HeartbeatTimer;
  /** Every spawn's key, issued at spawn; only this process holds them (src/mail/seal.ts). */
  readonly keys = new SpawnKeys();
  /** Every teammate's pipe: board decisions for all, records of stream teammates (their pipe is their identity). */
  readonly stream: StreamRecords;
  /** The peer-pair cap (W19): every peer record is judged here before delivery. */
  readonly peers: PeerCap;
  /** Per incarnation, the tail of its event queue: every event of it is applied in order. */
  readonly #queues = new WeakMap<Member, Promise<void>>();
  /** Per incarnation, its model calls since its last report or board step (issue 18); none when `loopCalls` is 0. */
  readonly #calls = new WeakMap<Member, ModelCallRate>();

  constructor(options: ResolvedHarnessOptions) {
    this.#o = options;
    this.bus = options.bus;
    this.#heartbeat = new HeartbeatTimer(options.heartbeat, options.clock, () => {
      for (const m of this.members.values()) void this.enqueue(m, () => [{ type: "tick" }]);
    });
    this.#roster = new RosterWriter(options.layout.roster, () => options.clock.now());
    this.mail = new Mailboxes(options.layout, this.keys, (text) => this.note(text));
    this.#effects = new TeamEffects(options, this, (change) => this.#changed(change));
    this.peers = new PeerCap({ now: () => options.clock.now(), note: (text) => this.note(text), event: (type, who, body) => this.event(type, who, body), writeRoster: () => this.writeRoster() }, options.peerPairCap);
    this.stream = new StreamRecords({
      keys: this.keys,
      now: () => options.clock.now(),
      living: (name) => this.living(name),
      livingNames: () => [...this.members.values()].filter((m) => m.living).map((m) => m.name),
      enqueue: (m, job) => void this.enqueue(m, job),
      note: (text, m) => this.note(text, m),
      board: () => options.board.streamBoard,
      peerMail: (from, to, id) => this.peers.judge(from.name, to.name, id),
    });
  }

  /**
   * True while the team owes the leader something (headless runs wait for it to turn false): a
   * teammate is starting or working, a prompt to one is in flight, a compaction (or the check
   * whether to compact, after a submission) runs, or a queued step (a settle draining its outbox, a
   * close) is not done. A compaction ends (done, failed or timed out) and then the board may
   * offer work or settle, so a run must not end before it. Mail left on an idle teammate after a
   * failed wake does not count: nothing would ever end the wait.
   */
  busy(): boolean {
    return this.#inFlight > 0 || [...this.members.values()].some((m) => isBusy(m.state));
  }

  /** Calls `listener` after teammate steps (`status`) and leader deliveries (`delivery`). Returns the unsubscribe. */
  subscribe(listener: (change: ActivityChange) => void): () => void {
    return this.bus.on("activity", ({ change }) => listener(change));
  }

  /** The living teammate of that name (case-insensitive), if any. */
  living(name: string): Member | undefined {
    const m = this.members.get(name.toLowerCase());
    return m?.living ? m : undefined;
  }

  /** Ends the heartbeat and waits for roster writes in flight (one would recreate a removed dir). */
  async quiesce(): Promise<void> {
    this.#heartbeat.stop();
    await this.#rosterWrites;
  }

  /**
   * Starts one leader turn with a `<harness-event>` (R30): escalations and other actionable
   * events. Nothing once the session is ending (a board summary must not start a turn then).
   */
  event(type: string, teammate: string, body: string): void {
    if (this.phase !== "open") return;
    this.bus.emit({ type: "delivery", delivery: { kind: "harness_event", type, teammate, text: harnessEventText({ type, teammate, body }) } });
    this.#changed("delivery");
  }

  /**
   * Appends one job to the teammate's event queue: it produces events (reading a mailbox first
   * if it must), which are applied in order. A failing job is noted, never thrown (the leader's
   * session must not crash over a teammate).
   */
  enqueue(m: Member, job: () => TeammateEvent[] | Promise<TeammateEvent[]>): Promise<void> {
    this.#inFlight += 1;
    const tail = (this.#queues.get(m) ?? Promise.resolve()).then(async () => {
      if (this.phase === "closed") return;
      for (const event of await job()) this.dispatch(m, event);
    }).catch((error: unknown) => this.note(`teammate step failed: ${error instanceof Error ? error.message : String(error)}`, m))
      .finally(() => {
        this.#inFlight -= 1;
        this.#changed("status");
      });
    this.#queues.set(m, tail);
    return tail;
  }

  /** Resolves once every event queued for `m` so far has been applied (tests, the spawn). */
  drained(m: Member): Promise<void> {
    return this.#queues.get(m) ?? Promise.resolve();
  }

  /** The board tasks `m` holds now, for a successor (R16); none when the board says nothing. */
  heldClaims(m: Member): HeldClaim[] {
    try {
      return this.#o.board.heldClaims?.(m) ?? [];
    } catch {
      return []; // a board hook must not stop a stop
    }
  }

  /** Asks `m` to stop (R21, L22), at once, with the board tasks it holds now. */
  stop(m: Member): void {
    this.dispatch(m, { type: "stop_requested", claims: this.heldClaims(m) });
  }

  /**
   * `m`'s spawn gave up before its child was watched: the lifecycle releases exactly what it
   * acquired (`spawn_failed`). Resolves once that is done (`m.closed`).
   */
  async giveUp(m: Member): Promise<void> {
    this.dispatch(m, { type: "spawn_failed" });
    await m.closed;
  }

  /** Applies one event to the core and carries out its effects. */
  dispatch(m: Member, event: TeammateEvent): void {
    const before = m.state.phase;
    const step = transition(m.state, event, this.#o.clock.now(), { facts: m.facts, heartbeat: this.#o.heartbeat });
    m.state = step.state;
    for (const effect of step.effects) this.#effects.execute(m, effect);
    if (m.state.phase === "stopping" || !occupies(m.state)) this.waits.releaseKickoff(m);
    if (!occupies(m.state) && before !== "stopped" && before !== "capturing") this.waits.releaseLeader(m);
    if (event.type !== "output" || m.state.phase !== before) this.#changed("status");
    if (this.phase === "open") this.#heartbeat.arm(this.members.values());
  }

  /**
   * A mail file (or a whole mail dir) changed: the living teammates it concerns read their
   * outbox and inbox on their queues, in order with their other events.
   */
  onFileChange(path: string): void {
    const { layout } = this.#o;
    const targets = path === layout.outboxDir || path === layout.inboxDir
      ? [...this.members.values()]
      : [this.members.get(basename(path, ".jsonl").toLowerCase())].filter((m): m is Member => m !== undefined);
    for (const m of targets.filter((x) => x.living)) {
      if (!path.startsWith(layout.inboxDir)) void this.enqueue(m, async () => [{ type: "outbox", records: await this.mail.read(m.outbox) }]);
      if (!path.startsWith(layout.outboxDir)) void this.enqueue(m, async () => [{ type: "mail", records: await this.peers.judgeAll(await this.mail.read(m.inbox)) }]);
    }
  }

  /**
   * One RPC event of `m`'s child, translated once (src/team/teammate-output.ts), becomes events on
   * its queue; when it settles its outbox is drained first, with the board task it still owes a
   * submission for (L31).
   */
  onRpcEvent(m: Member, event: RpcEvent): void {
    const output = outputOfRpc(event);
    this.bus.emit({ type: "output", member: m, output });
    if (output.kind === "assistant_message") this.#modelCall(m);
    for (const path of sentMailPaths(m, output, this.#o.layout)) this.onFileChange(path); // the mail watch's safety net
    const events = eventsFromOutput(output);
    if (output.kind !== "settled") {
      void this.enqueue(m, () => events);
      if (output.kind === "entry_appended" && m.transport === "stream") this.stream.onEntry(m, output.entry);
      return;
    }
    // Drain first: a terminal report written in this run must be judged before a wake reopens the gate.
    void this.enqueue(m, async () => {
      const records = await this.mail.read(m.outbox);
      const claim = this.hook(() => this.#o.board.openClaim?.(m), m);
      return [...events, { type: "outbox", records }, { type: "run_settled", ...(claim ? { openClaim: claim } : {}) }];
    });
  }

  /**
   * One model call of `m` (an assistant message ended): at a loop's rate with no report or board
   * step since (src/team/model-call-rate.ts), a note and one harness event; nothing is stopped.
   */
  #modelCall(m: Member): void {
    if (this.#o.loopCalls === 0) return;
    let rate = this.#calls.get(m);
    if (!rate) this.#calls.set(m, (rate = new ModelCallRate({ calls: this.#o.loopCalls })));
    const streak = rate.call(this.#o.clock.now());
    if (!streak) return;
    this.note(`model-call rate: ${streak.calls} calls in ${streak.spanMs} ms with no report or board step (${streak.total} in the streak); the leader is told (${LOOP_EVENT})`, m);
    this.event(LOOP_EVENT, m.name, loopEventText(m.name, streak));
  }

  /** `m` reported to the leader, took a board step or got a leader message: a new streak of model calls. */
  newStreak(m: Member): void {
    this.#calls.get(m)?.reset();
  }

  /** Asks the board port; a throw is noted, never propagated into the harness, and answers undefined. */
  hook<T>(call: () => T, m?: Member): T | undefined {
    try {
      return call();
    } catch (error) {
      this.note(`board hook failed: ${error instanceof Error ? error.message : String(error)}`, m);
      return undefined;
    }
  }

  #changed(change: ActivityChange): void {
    this.bus.emit({ type: "activity", change });
  }

  /**
   * Writes the roster (with the board holdings the edit guards read) if what it shows changed;
   * nothing once closed, or while closing with no teammate left. Never rejects: a failure is noted.
   */
  writeRoster(): Promise<void> {
    if (this.phase === "closed" || (this.phase === "closing" && [...this.members.values()].every((m) => !m.living))) return this.#rosterWrites;
    const holdings = (m: Member) => {
      try {
        return this.#o.board.holdings?.(m) ?? [];
      } catch {
        return []; // a board hook must not stop the roster
      }
    };
    const toStream = (roster: RosterFile) => {
      for (const m of this.members.values()) if (m.living && m.transport === "stream") this.stream.sendRoster(m, roster);
    };
    const write = this.#roster.write([...this.members.values()], holdings, toStream, this.peers.rosterCuts()).catch((error: unknown) => {
      this.note(`roster write failed: ${error instanceof Error ? error.message : String(error)}`);
    });
    this.#rosterWrites = Promise.all([this.#rosterWrites, write]).then(() => undefined);
    return write;
  }

  /** Records a console note, for `m` when given. */
  note(text: string, m?: Member): void {
    this.bus.emit({ type: "note", note: { at: this.#o.clock.now(), text, ...(m ? { teammate: m.name } : {}) } });
  }
}
