import type { AgentDefinition } from "../agents/index.ts";
import type { InboxRecord, inboxCursor, outboxCursor } from "../mail/index.ts";
import type { PiChild } from "../process/index.ts";
import { initialState, isQuiet, occupies, statusOf } from "./lifecycle.ts";
import type { DirectAssignment, TeammateFacts, TeammateState } from "./lifecycle-types.ts";
import type { TeammateStatus } from "./routing.ts";
import type { ModelRef } from "./spawn-plan.ts";

/**
 * One incarnation of a teammate as the leader's harness tracks it: fixed facts, the process, and
 * `state`, which only the harness's event queue changes, through the pure `transition`. Created
 * at spawn, never reused: a respawn under the same name is a new Member with a new spawn id (R47).
 */
export class Member {
  readonly name: string;
  readonly agent: AgentDefinition;
  readonly spawnId: string;
  readonly tools: string[];
  readonly resources: string[];
  readonly model: ModelRef | undefined;
  readonly startedAt: number;
  readonly facts: TeammateFacts;
  /** Cursors live per name, not per incarnation: a respawn must not re-read delivered mail. */
  readonly outbox: ReturnType<typeof outboxCursor>;
  readonly inbox: ReturnType<typeof inboxCursor>;
  state: TeammateState;
  proc: PiChild | undefined;
  /** The tail of the event queue: every event of this incarnation is applied in order. */
  queue: Promise<void> = Promise.resolve();
  /** Listeners to release when the child closes. */
  readonly disposers: (() => void)[] = [];
  /** Resolves once the harness has finished handling the child's close. */
  readonly closed: Promise<void>;
  markClosed!: () => void;

  constructor(input: {
    name: string;
    agent: AgentDefinition;
    spawnId: string;
    tools: string[];
    resources: string[];
    model: ModelRef | undefined;
    startedAt: number;
    log: string;
    outbox: ReturnType<typeof outboxCursor>;
    inbox: ReturnType<typeof inboxCursor>;
  }) {
    this.name = input.name;
    this.agent = input.agent;
    this.spawnId = input.spawnId;
    this.tools = input.tools;
    this.resources = input.resources;
    this.model = input.model;
    this.startedAt = input.startedAt;
    this.facts = { name: input.name, agent: input.agent.name, role: input.agent.prompt, startedAt: input.startedAt, log: input.log };
    this.state = initialState(input.spawnId, input.startedAt);
    this.outbox = input.outbox;
    this.inbox = input.inbox;
    this.closed = new Promise((resolve) => (this.markClosed = resolve));
  }

  /** Status as routing, the roster and the board see it. */
  get status(): TeammateStatus {
    return statusOf(this.state);
  }

  /** True until the child closed. */
  get living(): boolean {
    return occupies(this.state);
  }

  /** Idle with no mail waiting and no prompt in flight: free for board work (R36). */
  get quiet(): boolean {
    return isQuiet(this.state);
  }

  /** The direct assignment; `none` once stopping or stopped. */
  get direct(): DirectAssignment {
    return this.state.phase === "stopped" ? "none" : this.state.life.direct;
  }

  /** A prompt or steer is in flight. */
  get sending(): boolean {
    return this.state.phase !== "stopped" && this.state.life.sending !== undefined;
  }

  /** Mail read and not yet written into the child. */
  get pendingMail(): readonly InboxRecord[] {
    return this.state.phase === "stopped" ? [] : this.state.life.mail;
  }
}
