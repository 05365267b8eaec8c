import type { AgentDefinition } from "../agents/index.ts";
import type { InboxRecord, inboxCursor, outboxCursor } from "../mail/index.ts";
import type { PiChild } from "../process/index.ts";
import type { ReportGate, TeammateStatus } from "./routing.ts";
import type { ModelRef } from "./spawn-plan.ts";

/**
 * One incarnation of a teammate as the leader's harness tracks it. Created at spawn, never
 * reused: a respawn under the same name is a new Member with a new spawn id (R47).
 */
export class Member {
  readonly name: string;
  readonly agent: AgentDefinition;
  readonly spawnId: string;
  readonly tools: string[];
  readonly resources: string[];
  readonly model: ModelRef | undefined;
  readonly startedAt: number;
  /** Cursors live per name, not per incarnation: a respawn must not re-read delivered mail. */
  readonly outbox: ReturnType<typeof outboxCursor>;
  readonly inbox: ReturnType<typeof inboxCursor>;
  status: TeammateStatus = "starting";
  proc: PiChild | undefined;
  gate: ReportGate;
  /** Mail read from the inbox file and not yet delivered into the child. */
  pendingMail: InboxRecord[] = [];
  /**
   * The direct assignment (R15, R49): `open` from a kickoff until its terminal report, then
   * `closed` until the leader sends `reopen`, which makes it `none` again; `none` for a
   * teammate spawned idle. Any value but `none` keeps the teammate off the board.
   */
  direct: "none" | "open" | "closed" = "none";
  /** The error message of the current run's failed model call, if any (reset at agent_start). */
  runError: string | undefined = undefined;
  /** The role prompt still has to go out with the first prompt. */
  rolePending = true;
  /** A wake or steer is in flight; another delivery waits for it. */
  delivering = false;
  /** Set before any stop the leader asked for, so the close is not reported as a crash (L22). */
  requestedShutdown = false;
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
    this.gate = { spawnId: input.spawnId, closed: false };
    this.outbox = input.outbox;
    this.inbox = input.inbox;
    this.closed = new Promise((resolve) => (this.markClosed = resolve));
  }

  get living(): boolean {
    return this.status !== "stopped";
  }
}
