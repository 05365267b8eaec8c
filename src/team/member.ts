import type { AgentDefinition } from "../agents/index.ts";
import type { InboxRecord, inboxCursor, outboxCursor } from "../mail/index.ts";
import type { Worktree } from "../isolation/index.ts";
import type { PiChild } from "../process/index.ts";
import { HANDOFF_REPORTS, type HandoffFacts } from "./handoff.ts";
import { initialState, isQuiet, occupies, statusOf } from "./lifecycle.ts";
import type { DirectAssignment, TeammateFacts, TeammateState } from "./lifecycle-types.ts";
import type { TeammateStatus } from "./routing.ts";
import type { ModelRef } from "./spawn-plan.ts";
import type { Transport } from "../mail/identity.ts";
import type { HeldClaim } from "./prompts.ts";

/**
 * One incarnation of a teammate as the leader's harness tracks it: fixed facts, the process, and
 * `state`, which only the harness's event queue changes, through the pure `transition`. Created
 * at spawn, never reused: a respawn under the same name is a new Member with a new spawn id (R47).
 */
export class Member {
  readonly name: string;
  /** The role; set once more when an inline definition was written to a file (`persist`). */
  agent: AgentDefinition;
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
  proc: PiChild | undefined;
  /** The tail of the event queue: every event of this incarnation is applied in order. */
  queue: Promise<void> = Promise.resolve();
  /** Its own git worktree (R20), when its role asks for one. */
  worktree: Worktree | undefined;
  /**
   * How its records travel: `files` (outbox, inbox and intent files, sealed with its spawn key)
   * or `stream` (on its own RPC pipe, which is its identity: a launcher that shares no files).
   */
  transport: Transport = "files";
  /** Dirs its launch made (a bwrap teammate's private dir), removed once its child has closed. */
  launchDirs: string[] = [];
  /** The branch its worktree work was kept on after it stopped (R20, L23), for a successor. */
  kept: { name: string; base: string } | undefined;
  /** Its worktree dir when a capture had to leave it in place (nested repos, a failed commit). */
  leftAt: string | undefined;
  /** Its latest direct assignment: the kickoff or the last `reopen` message (R16). */
  assignment: string | undefined;
  /** That assignment has had no terminal report yet. */
  assignmentOpen = false;
  /** Its latest leader reports, oldest first, at most `HANDOFF_REPORTS` (R16). */
  readonly reports: Array<{ status: string; body: string }> = [];
  /** Board tasks it held when it went away, named for a successor (never transferred). */
  claimsAtStop: HeldClaim[] = [];
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
    modelLabel?: string;
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
    this.modelLabel = input.modelLabel ?? (input.model ? `${input.model.provider}/${input.model.id}` : "Pi default");
    this.startedAt = input.startedAt;
    this.facts = { name: input.name, agent: input.agent.name, role: input.agent.prompt, startedAt: input.startedAt, log: input.log };
    this.state = initialState(input.spawnId, input.startedAt);
    this.outbox = input.outbox;
    this.inbox = input.inbox;
    this.worktree = undefined;
    this.kept = undefined;
    this.leftAt = undefined;
    this.assignment = undefined;
    this.closed = new Promise((resolve) => (this.markClosed = resolve));
  }

  /** Where its pi runs: its worktree, or the leader's cwd. */
  cwd(leaderCwd: string): string {
    return this.worktree?.cwd ?? leaderCwd;
  }

  /** Records a new direct assignment (a kickoff or a `reopen` message), open until its terminal report. */
  assign(text: string): void {
    this.assignment = text;
    this.assignmentOpen = true;
  }

  /** Keeps one leader report for a successor's handoff (the latest few only); a terminal one closes the assignment. */
  noteReport(status: string, body: string): void {
    if (status === "completed" || status === "failed") this.assignmentOpen = false;
    this.reports.push({ status, body });
    if (this.reports.length > HANDOFF_REPORTS) this.reports.splice(0, this.reports.length - HANDOFF_REPORTS);
  }

  /** What a successor spawned with `handoffFrom` is told about this incarnation (R16). */
  handoffFacts(): HandoffFacts {
    return {
      name: this.name,
      agent: this.agent.name,
      ...(this.assignment !== undefined ? { assignment: this.assignment } : {}),
      assignmentOpen: this.assignmentOpen,
      claims: this.claimsAtStop,
      reports: [...this.reports],
      ...(this.kept ? { branch: this.kept } : {}),
      ...(this.leftAt ? { leftAt: this.leftAt } : {}),
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

  /** The direct assignment; `none` once stopping or stopped. */
  get direct(): DirectAssignment {
    return this.state.phase === "stopped" ? "none" : this.state.life.direct;
  }

  /** A prompt or steer is in flight. */
  get sending(): boolean {
    return this.state.phase !== "stopped" && this.state.life.sending !== undefined;
  }

  /** A compaction of its context is running: its sends are held (issue 8). */
  get compacting(): boolean {
    return this.state.phase !== "stopped" && this.state.life.compacting;
  }

  /** Mail read and not yet written into the child. */
  get pendingMail(): readonly InboxRecord[] {
    return this.state.phase === "stopped" ? [] : this.state.life.mail;
  }
}
