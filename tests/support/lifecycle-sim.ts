/**
 * A teammate's pure lifecycle driven by hand, for unit tests and feature steps: `transition`
 * (src/team/lifecycle.ts) applied event by event, every effect kept, no shell.
 */
import { makeInboxRecord, type InboxRecord, type OutboxRecord } from "../../src/mail/index.ts";
import { initialState, transition, type HeartbeatConfig, type Sending, type TeammateEffect, type TeammateEvent, type TeammateState, type TransitionContext } from "../../src/team/lifecycle.ts";

/** The simulated teammate "alice"'s spawn id. */
export const SIM_SPAWN = "11111111-1111-4111-8111-111111111111";

/** Options of {@link LifecycleSim}. */
export interface LifecycleSimOptions {
  /** Stall thresholds (ms); default 0 and 0 (off). */
  heartbeat?: HeartbeatConfig;
  /** The clock `apply` uses when not given one (ms); default 1000. */
  now?: number;
}

/** Teammate "alice" (agent worker, role "You are a worker."), spawned at 0 and driven through events. */
export class LifecycleSim {
  state: TeammateState = initialState(SIM_SPAWN, 0);
  readonly effects: TeammateEffect[] = [];
  heartbeat: HeartbeatConfig;
  now: number;

  constructor(o: LifecycleSimOptions = {}) {
    this.heartbeat = o.heartbeat ?? { stallMs: 0, silentMs: 0 };
    this.now = o.now ?? 1000;
  }

  /** Applies `e` at `at` ms (default `now`); keeps and returns the step's effects. */
  apply(e: TeammateEvent, at = this.now): TeammateEffect[] {
    const facts = { name: "alice", agent: "worker", role: "You are a worker.", startedAt: 0, log: "/tmp/alice.log" };
    const step = transition(this.state, e, at, { facts, heartbeat: this.heartbeat });
    this.state = step.state;
    this.effects.push(...step.effects);
    return step.effects;
  }

  /** The send in flight, if any. */
  get sending(): Sending | undefined {
    return "life" in this.state ? this.state.life.sending : undefined;
  }

  /** The ticket of the send in flight; throws when none is. */
  get ticket(): number {
    const sending = this.sending;
    if (!sending) throw new Error("nothing in flight");
    return sending.ticket;
  }

  /** The child accepts the send in flight (`started`: it started a run); throws when none is. */
  answer(started = false): TeammateEffect[] {
    return this.apply({ type: "sent", ticket: this.ticket, ok: true, started });
  }

  /** Ready with `kickoff`, the kickoff accepted, its run started: the teammate is working. */
  startWorking(kickoff = "Do the thing."): this {
    this.apply({ type: "ready", kickoff });
    this.answer();
    this.apply({ type: "run_started" });
    return this;
  }
}

/** Mail for alice from `from`, written at `at` ms. */
export function simMail(body: string, from = "bob", at = 5): InboxRecord {
  return makeInboxRecord({ from, to: "alice", body }, at);
}

/** A report of alice's with `status` (unsigned: the core does not check seals). */
export function simReport(status: OutboxRecord["status"], body = "r", spawnId = SIM_SPAWN): OutboxRecord {
  return { v: 2, id: `m-${body}-${status}`, at: 5, from: "alice", spawnId, status, body, sig: "-" } as OutboxRecord;
}

/**
 * Applies `events` from `state` at 1000 ms with `ctx`; returns the last state and every effect.
 * For tests that need their own facts or start from a state of their own.
 */
export function runEvents(ctx: TransitionContext, state: TeammateState, ...events: TeammateEvent[]): { state: TeammateState; effects: TeammateEffect[] } {
  const effects: TeammateEffect[] = [];
  for (const e of events) {
    const step = transition(state, e, 1000, ctx);
    state = step.state;
    effects.push(...step.effects);
  }
  return { state, effects };
}
