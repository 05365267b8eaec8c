/**
 * One teammate, the real pure lifecycle and the real `Compactor`, with the team's queue and the
 * child's RPC faked (no process, no clock): for unit tests and Gherkin steps about compaction.
 * The fake driver wires the compactor like the harness does: a terminal report marks a boundary,
 * `board_idle` calls `idle` first.
 */
import { Compactor, type CompactCommand } from "../../src/harness/compactor.ts";
import { makeInboxRecord, type OutboxRecord } from "../../src/mail/index.ts";
import { initialState, isQuiet, transition, type TeammateEffect, type TeammateEvent, type TeammateState } from "../../src/team/lifecycle.ts";
import type { CompactionInfo } from "../../src/team/compaction.ts";

export const WORLD_SPAWN = "11111111-1111-4111-8111-111111111111";

/** The teammate as the compactor sees it. */
export interface FakeMate {
  readonly name: string;
  readonly spawnId: string;
  state: TeammateState;
}

/** What the child answers; change it between steps. */
export interface FakeChild {
  /** `contextUsage.percent` of `get_session_stats` (window 100 000 tokens); null right after a compaction. */
  percent: number | null;
  /** Pi's answer to `compact`: data, or an Error to reject with. Default a 150K → 32K result. */
  compact: () => unknown;
  /** Set: `compact` answers only once `release()` is called (mail can arrive meanwhile). */
  hold: boolean;
}

export class CompactionWorld {
  readonly mate: FakeMate = { name: "ada", spawnId: WORLD_SPAWN, state: initialState(WORLD_SPAWN, 0) };
  readonly effects: TeammateEffect[] = [];
  /** RPC commands sent to the child, in order. */
  readonly commands: CompactCommand["type"][] = [];
  readonly infos: CompactionInfo[] = [];
  readonly notes: string[] = [];
  /** `board_idle`s after which the teammate was still quiet: the board would offer it work. */
  boardOffers = 0;
  readonly child: FakeChild = { percent: 50, compact: () => ({ tokensBefore: 150_000, estimatedTokensAfter: 32_000 }), hold: false };
  readonly compactor: Compactor<FakeMate>;
  #queue: Promise<void> = Promise.resolve();
  #held: (() => void)[] = [];
  #tickets = 0;

  constructor(at: number, timeoutMs?: number) {
    this.compactor = new Compactor<FakeMate>({
      at,
      now: () => 1000,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      rpc: (_m, command) => this.#rpc(command),
      dispatch: (_m, event) => this.apply(event),
      enqueue: (_m, events) => (this.#queue = this.#queue.then(() => events.forEach((e) => this.apply(e)))),
      note: (text) => this.notes.push(text),
      onCompaction: (_m, info) => this.infos.push(info),
    });
  }

  /** Applies one event and carries out the effects the compactor cares about. */
  apply(event: TeammateEvent): void {
    const step = transition(this.mate.state, event, 1000, { facts: { name: "ada", agent: "worker", role: "Role.", startedAt: 0, log: "/tmp/ada.log" }, heartbeat: { stallMs: 0, silentMs: 0 } });
    this.mate.state = step.state;
    for (const e of step.effects) {
      this.effects.push(e);
      if (e.type === "deliver_report" && e.record.status !== "in_progress") this.compactor.boundary(this.mate);
      if (e.type === "board_idle") {
        this.compactor.idle(this.mate);
        if (isQuiet(this.mate.state)) this.boardOffers += 1; // what the board would see next (R36)
      }
    }
  }

  /** Idle, spawned without a kickoff. */
  idle(): void {
    this.apply({ type: "ready" });
  }

  /** Working on a kickoff. */
  working(): void {
    this.apply({ type: "ready", kickoff: "Do it." });
    this.accept();
    this.apply({ type: "run_started" });
  }

  /** The child accepts the send in flight. */
  accept(): void {
    const s = this.mate.state;
    if (!("life" in s) || !s.life.sending) throw new Error("no send in flight");
    this.apply({ type: "sent", ticket: s.life.sending.ticket, ok: true, started: false });
  }

  report(status: OutboxRecord["status"]): void {
    const record = { v: 2, id: `r-${++this.#tickets}`, at: 5, from: "ada", spawnId: WORLD_SPAWN, status, body: `report ${status}`, sig: "-" } as OutboxRecord;
    this.apply({ type: "outbox", records: [record] });
  }

  mail(body: string, from = "bob"): void {
    this.apply({ type: "mail", records: [makeInboxRecord({ from, to: "ada", body }, 5)] });
  }

  /** The run settled (its outbox already drained). */
  settle(): void {
    this.apply({ type: "run_settled" });
  }

  /** Lets a held `compact` answer. */
  release(): void {
    for (const answer of this.#held.splice(0)) answer();
  }

  /** Waits until every pending fake answer and queued event was applied. */
  async flush(): Promise<void> {
    for (let i = 0; i < 20; i++) {
      await this.#queue;
      await new Promise((r) => setImmediate(r));
    }
  }

  /** Sends (`send` effects) of one kind so far. */
  sends(kind?: string): Extract<TeammateEffect, { type: "send" }>[] {
    return this.effects.filter((e): e is Extract<TeammateEffect, { type: "send" }> => e.type === "send" && (kind === undefined || e.kind === kind));
  }

  /** Effects that would start a leader turn. */
  leaderTurns(): TeammateEffect[] {
    return this.effects.filter((e) => e.type === "deliver_report" || e.type === "harness_event" || e.type === "health");
  }

  async #rpc(command: CompactCommand): Promise<unknown> {
    this.commands.push(command.type);
    if (command.type === "get_session_stats") {
      const p = this.child.percent;
      return { contextUsage: { tokens: p === null ? null : p * 1000, contextWindow: 100_000, percent: p } };
    }
    if (command.type === "abort") return undefined;
    if (this.child.hold) await new Promise<void>((resolve) => this.#held.push(resolve));
    const answer = this.child.compact();
    if (answer instanceof Error) throw answer;
    return answer;
  }
}
