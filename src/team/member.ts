import type { AgentDefinition } from "../agents/index.ts";
import type { InboxRecord, inboxCursor, outboxCursor } from "../mail/index.ts";
import type { Worktree } from "../isolation/index.ts";
import type { PiChild } from "../process/index.ts";
import type { HandoffFacts } from "./handoff.ts";
import { initialState, isQuiet, lifeOf, occupies, statusOf } from "./lifecycle.ts";
import type { DirectAssignment, Holdings, TeammateFacts, TeammateState } from "./lifecycle-types.ts";
import type { TeammateStatus } from "./routing.ts";
import type { ModelRef } from "./spawn-plan.ts";
import type { Transport } from "../mail/identity.ts";

/**
 * One incarnation of a teammate as the leader's harness tracks it: the facts fixed at its spawn,
 * and `state`, the only thing that changes, which only the harness's event queue sets, through
 * the pure `transition`. What it acquires and learns over its life (its worktree, child, launch
 * dirs, kept branch, assignment, reports, claims at stop) is in `state.holdings`; the getters
 * below read it. Created at spawn, never reused: a respawn under the same name is a new Member
 * with a new spawn id (R47).
 */
export class Member {
  readonly name: string;
  readonly spawnId: string;
  readonly tools: string[];
  readonly resources: string[];
  readonly model: ModelRef | undefined;
  /** The model as the roster and task_list show it, with where it came from (R6). */
  readonly modelLabel: string;
  readonly startedAt: number;
  readonly facts: TeammateFacts;
  /** Cursors live per name, not per incarnation: a respawn must not re-read delivered mail. */
  readonly outbox: ReturnType<typeof outboxCursor>;
  readonly inbox: ReturnType<typeof inboxCursor>;
  state: TeammateState;
  /** Resolves once the harness has released everything it held (the state is `stopped`). */
  readonly closed: Promise<void>;
  /** The role as resolved at spawn; `agent` adds where an inline definition was written. */
  readonly #role: AgentDefinition;
  readonly #markClosed: () => void;

  constructor(input: {
    name: string;
    agent: AgentDefinition;
    spawnId: string;
    tools: string[];
    resources: string[];
    model: ModelRef | undefined;
    modelLabel?: string;
    startedAt: number;
    log: string;
    outbox: ReturnType<typeof outboxCursor>;
    inbox: ReturnType<typeof inboxCursor>;
    /** Its kickoff, when it has one: its first direct assignment (R16). */
    assignment?: string;
  }) {
    this.name = input.name;
    this.#role = input.agent;
    this.spawnId = input.spawnId;
    this.tools = input.tools;
    this.resources = input.resources;
    this.model = input.model;
    this.modelLabel = input.modelLabel ?? (input.model ? `${input.model.provider}/${input.model.id}` : "Pi default");
    this.startedAt = input.startedAt;
    this.facts = { name: input.name, agent: input.agent.name, role: input.agent.prompt, startedAt: input.startedAt, log: input.log };
    this.state = initialState(input.spawnId, input.startedAt, input.assignment);
    this.outbox = input.outbox;
    this.inbox = input.inbox;
    let mark!: () => void;
    this.closed = new Promise((resolve) => (mark = resolve));
    this.#markClosed = mark;
  }

  /** Resolves `closed` (the harness, once the state reached `stopped`). Idempotent. */
  markClosed(): void {
    this.#markClosed();
  }

  /** What it holds and learned so far (see `Holdings`). */
  get holdings(): Holdings {
    return this.state.holdings;
  }

  /** The role; with the file and scope an inline definition was written to (`persist`). */
  get agent(): AgentDefinition {
    const p = this.state.holdings.persisted;
    return p ? { ...this.#role, scope: p.scope, gitManaged: p.scope === "project", source: p.source } : this.#role;
  }

  /** Its child, once started. */
  get proc(): PiChild | undefined {
    return this.state.holdings.proc;
  }

  /** Its own git worktree (R20), when its role asks for one. */
  get worktree(): Worktree | undefined {
    return this.state.holdings.worktree;
  }

  /** How its records travel (`files` or `stream`). */
  get transport(): Transport {
    return this.state.holdings.transport;
  }

  /** The branch its worktree work was kept on after it stopped (R20, L23). */
  get kept(): { name: string; base: string } | undefined {
    return this.state.holdings.kept;
  }

  /** Its latest direct assignment, while no terminal report closed it. */
  get openAssignment(): string | undefined {
    const a = this.state.holdings.assignment;
    return a?.open ? a.text : undefined;
  }

  /** Where its pi runs: its worktree, or the leader's cwd. */
  cwd(leaderCwd: string): string {
    return this.worktree?.cwd ?? leaderCwd;
  }

  /** What a successor spawned with `handoffFrom` is told about this incarnation (R16). */
  handoffFacts(): HandoffFacts {
    const h = this.state.holdings;
    return {
      name: this.name,
      agent: this.agent.name,
      ...(h.assignment !== undefined ? { assignment: h.assignment.text } : {}),
      assignmentOpen: h.assignment?.open ?? false,
      claims: [...h.claimsAtStop],
      reports: h.reports.map((r) => ({ ...r })),
      ...(h.kept ? { branch: h.kept } : {}),
      ...(h.leftAt ? { leftAt: h.leftAt } : {}),
    };
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

  /** The direct assignment; `none` once its child closed. */
  get direct(): DirectAssignment {
    return lifeOf(this.state)?.direct ?? "none";
  }

  /** A prompt or steer is in flight. */
  get sending(): boolean {
    return lifeOf(this.state)?.sending !== undefined;
  }

  /** A compaction of its context is running: its sends are held (issue 8). */
  get compacting(): boolean {
    return lifeOf(this.state)?.compacting ?? false;
  }

  /** Mail read and not yet written into the child. */
  get pendingMail(): readonly InboxRecord[] {
    return lifeOf(this.state)?.mail ?? [];
  }
}
