/**
 * Plain data of the teammate lifecycle (style practice 3): the state of one incarnation as a
 * discriminated union, the events the shell feeds it, and the effects the shell carries out.
 * Times are epoch milliseconds from the caller's clock; the core never reads a clock itself.
 */
import type { Worktree } from "../isolation/index.ts";
import type { InboxRecord, OutboxRecord } from "../mail/index.ts";
import type { PiChild } from "../process/index.ts";
import type { Transport } from "../mail/identity.ts";
import type { HeldClaim } from "./prompts.ts";
import type { ReportGate } from "./routing.ts";

/**
 * The direct assignment (R15, R49): `open` from a kickoff until its terminal report, then
 * `closed` until the leader sends `reopen`, which makes it `none` again. Anything but `none`
 * keeps the teammate off the board.
 */
export type DirectAssignment = "none" | "open" | "closed";

/**
 * L31 per assignment: `none` until the teammate first idles with its work unreported, `reminded`
 * after the one reminder, `escalated` after the one leader event. `claim` is the board task it
 * was for (undefined: the direct assignment); another claim, a kickoff or a reopen starts over.
 */
export interface Reminder {
  readonly step: "none" | "reminded" | "escalated";
  readonly claim?: string;
  /**
   * A wake (mail into an idle teammate) came after the reminder. Only then does another claim
   * start over: a reminder run that swaps one claim for another is not a new assignment, so a
   * model that releases and re-claims on every reminder cannot loop (L31).
   */
  readonly wokenSince?: boolean;
}

/** Heartbeat bookkeeping (R52, R53, L4). Lifetime totals survive every phase. */
export interface Activity {
  /** Last RPC output of the child or prompt delivered to it (ms): the silence starts here. */
  readonly lastOutputAt: number;
  /** True once the model produced anything (text, thinking, a tool call, usage) in this lifetime. */
  readonly modelOutput: boolean;
  /** Tool executions started and not yet ended. */
  readonly toolsRunning: number;
  /** Lifetime tokens and cost (USD) from assistant `message_end` usage. */
  readonly tokens: number;
  readonly cost: number;
  /** Set once this silence episode was noticed; cleared by output or a prompt delivery. */
  readonly noticed: boolean;
}

/** A prompt or steer in flight: its RPC answer comes back as a `sent` event with this ticket. */
export interface Sending {
  readonly ticket: number;
  readonly kind: SendKind;
  /** Mail it carries; put back in front of the pending mail when the send fails. */
  readonly mail: readonly InboxRecord[];
  /** The leader's `send_message` waiting for this steer, if any. */
  readonly leaderMessageId?: number;
  /**
   * A run started while this send was in flight: the run it asked for is under way or already
   * over (pi may answer a prompt after a fast run has settled), so its answer must not make an
   * idle teammate `working` again.
   */
  readonly runStarted?: boolean;
}

/** What a prompt to the child is for. */
export type SendKind = "kickoff" | "wake" | "steer" | "leader_steer" | "reminder";

/** What every living variant has. */
export interface Life {
  /** The report latch (R27, R47). */
  readonly gate: ReportGate;
  readonly direct: DirectAssignment;
  readonly reminder: Reminder;
  /** The role prompt still has to go out with the first prompt. */
  readonly rolePending: boolean;
  /** Mail read and not yet written into the child. */
  readonly mail: readonly InboxRecord[];
  readonly sending: Sending | undefined;
  readonly activity: Activity;
  /** Text of the last assistant message, for the L31 event. */
  readonly lastText: string;
  /** The user interrupted the current run: its settle sends no reminder and tells the leader nothing. */
  readonly interrupted?: true;
  /** Sends issued so far; the next send's ticket. */
  readonly tickets: number;
  /** The end-of-life line of this incarnation was written (R55): its first terminal report. */
  readonly finished: boolean;
  /** Sends the child refused in a row; the leader hears about the first of a streak only. */
  readonly failedSends: number;
  /**
   * A compaction of its context is running (issue 8): Pi rejects every prompt meanwhile, so no
   * send goes out; mail waits in `mail` until `compaction_done` releases it.
   */
  readonly compacting: boolean;
}

/** A leader report kept for a successor's handoff (R16). */
export interface KeptReport {
  readonly status: string;
  readonly body: string;
}

/**
 * What one incarnation holds and learns over its whole life, in every phase: each resource is
 * recorded the moment it exists (acquire-then-register), so an end releases exactly what is
 * recorded here (R20), and what a successor is told (R16) survives the stop.
 */
export interface Holdings {
  /** Its own git worktree (R20), once made; kept after the stop (its dir is gone then). */
  readonly worktree: Worktree | undefined;
  /** Dirs its launch made (a bwrap teammate's private dir), removed once its child has closed. */
  readonly launchDirs: readonly string[];
  /** Its child, once started: a handle the shell stops and talks to; the core only carries it. */
  readonly proc: PiChild | undefined;
  /**
   * How its records travel: `files` (outbox, inbox and intent files, sealed with its spawn key)
   * or `stream` (on its own RPC pipe, which is its identity: a launcher that shares no files).
   */
  readonly transport: Transport;
  /**
   * Its session dir (issue 20), where Pi keeps its transcript: `undefined` when it runs without
   * one (a launcher that runs pi elsewhere). Kept after the stop, with the board; never removed.
   */
  readonly session: string | undefined;
  /** An inline role written to a file for it (`persist`): the file and its scope. */
  readonly persisted: { readonly scope: "project" | "project-local"; readonly source: string } | undefined;
  /** The branch its worktree work was kept on after it stopped (R20, L23), for a successor. */
  readonly kept: { readonly name: string; readonly base: string } | undefined;
  /** Its worktree dir when the exit capture had to leave it in place (nested repos, a failed commit). */
  readonly leftAt: string | undefined;
  /**
   * Its latest direct assignment, the kickoff or the last `reopen` message (R16), `open` until a
   * `completed` or `failed` report reached the leader. Unlike `Life.direct`, a reopen leaves it
   * open: a successor is handed the reopened work as its kickoff.
   */
  readonly assignment: { readonly text: string; readonly open: boolean } | undefined;
  /** Its latest leader reports, oldest first, at most `HANDOFF_REPORTS` (R16). */
  readonly reports: readonly KeptReport[];
  /** Board tasks it held when it went away, named for a successor (never transferred). */
  readonly claimsAtStop: readonly HeldClaim[];
}

/** What a resource event registers (see `acquired`). */
export type Acquired = Partial<Pick<Holdings, "worktree" | "launchDirs" | "proc" | "transport" | "session" | "persisted">>;

/** How a child's process ended. */
export interface ExitInfo {
  readonly code: number | null;
  readonly signal: string | null;
}

/** How an incarnation ended: its exit, whether it was asked to stop (L22), mail it never got. */
export interface Ending {
  readonly exit: ExitInfo;
  readonly requested: boolean;
  readonly undelivered: number;
}

/**
 * One incarnation's lifecycle. `starting` while its launcher, worktree and child are made and
 * until its child answers; `idle` (no run) and `working` (a run is active; `runError` is its
 * failed model call, if any); `stopping` once a stop was requested (L22: its close is no crash);
 * `capturing` once its child closed (or its spawn failed) while what it held is released (the
 * reaper, its worktree, its launch dirs); `stopped` for good. `holdings` in every phase.
 */
export type TeammateState =
  | { readonly phase: "starting"; readonly life: Life; readonly holdings: Holdings }
  | { readonly phase: "idle"; readonly life: Life; readonly holdings: Holdings }
  | { readonly phase: "working"; readonly life: Life; readonly runError: string | undefined; readonly holdings: Holdings }
  | { readonly phase: "stopping"; readonly life: Life; readonly holdings: Holdings }
  | ({ readonly phase: "capturing"; readonly holdings: Holdings } & Ending)
  | ({ readonly phase: "stopped"; readonly holdings: Holdings } & Ending);

/** The phase names. */
export type TeammatePhase = TeammateState["phase"];

/** What the child's RPC output means for the heartbeat (see `classifyOutput`). */
export type OutputKind = "model" | "tool_start" | "tool_end" | "other";

/** What the core is told. Every event is for one incarnation; the shell routes by spawn id. */
export type TeammateEvent =
  /** The child answered `get_state`; `kickoff` is the first assignment, if any. */
  | { readonly type: "ready"; readonly kickoff?: string }
  | { readonly type: "run_started" }
  /** Any RPC output: re-arms the heartbeat (R52). */
  | { readonly type: "output"; readonly kind: OutputKind }
  /** An assistant `message_end`: its text, usage and model error, if any. */
  | { readonly type: "assistant_message"; readonly text: string; readonly tokens: number; readonly cost: number; readonly error?: string }
  /**
   * The run settled (the outbox was drained first). `openClaim` is a board task this teammate
   * holds as `claimed` (not in review or parked), i.e. work it still owes a submission for.
   */
  | { readonly type: "run_settled"; readonly openClaim?: string }
  | { readonly type: "outbox"; readonly records: readonly OutboxRecord[] }
  | { readonly type: "mail"; readonly records: readonly InboxRecord[] }
  /** The leader's `send_message` to this teammate; `reopen` starts a new assignment (R15). */
  | { readonly type: "leader_message"; readonly id: number; readonly record: InboxRecord; readonly reopen: boolean }
  /** The answer to a prompt or steer; `started` means a steer began a new run (a wake). */
  | { readonly type: "sent"; readonly ticket: number; readonly ok: true; readonly started: boolean }
  | { readonly type: "sent"; readonly ticket: number; readonly ok: false; readonly error: string }
  /** The leader (or the session's end) asks it to stop; `claims` are the board tasks it holds now. */
  | { readonly type: "stop_requested"; readonly claims?: readonly HeldClaim[] }
  /** A resource of its spawn now exists (acquire-then-register): recorded before anything else can fail. */
  | { readonly type: "acquired"; readonly holdings: Acquired }
  /** Its spawn gave up before its child was watched: release what it holds, as a requested stop. */
  | { readonly type: "spawn_failed" }
  /** What it held is released: `kept` its worktree branch, `leftAt` a worktree dir left in place. */
  | { readonly type: "captured"; readonly kept?: { name: string; base: string }; readonly leftAt?: string }
  /** The shell starts compacting an idle teammate with nothing in flight (see team/compaction.ts): sends are held. */
  | { readonly type: "compaction_started" }
  /** That compaction ended (done, failed or never sent): held mail goes out, or the board hears it is free. */
  | { readonly type: "compaction_done" }
  /** The user interrupts its run from the console (issue 21); the shell then sends RPC `abort`. */
  | { readonly type: "user_interrupt" }
  /** The child closed (L21), its outbox drained; `stderrTail` quotes its last stderr lines; `claims` as `stop_requested`. */
  | { readonly type: "closed"; readonly exit: ExitInfo; readonly stderrTail: string; readonly claims?: readonly HeldClaim[] }
  | { readonly type: "tick" };

/** A harness event for the leader's model (R30): its own follow-up turn. */
export interface HarnessEventOut {
  readonly type: string;
  readonly body: string;
}

/** Plain-data instructions for the shell, carried out in order. */
export type TeammateEffect =
  /** A prompt (`streamingBehavior` followUp) or steer into the child; answer with `sent`. */
  | { readonly type: "send"; readonly ticket: number; readonly kind: SendKind; readonly text: string; readonly mail: readonly InboxRecord[] }
  /** One accepted report: its own leader turn (R26). */
  | { readonly type: "deliver_report"; readonly record: OutboxRecord }
  | { readonly type: "harness_event"; readonly event: HarnessEventOut }
  /**
   * It stopped unasked (R56): the leader's `teammate_crashed` event. The shell words it
   * (`crashText`), naming the board tasks the preceding `board_gone` released, which only the
   * shell knows.
   */
  | { readonly type: "crash_event"; readonly how: string; readonly undelivered: number; readonly stderrTail: string; readonly claims: readonly HeldClaim[] }
  /** A health notice (R31, R52, R53): a leader turn, never a routing suffix. */
  | { readonly type: "health"; readonly title: string; readonly body: string }
  /** The leader's `send_message` result, or: append it to the inbox (queued) and answer then. */
  | { readonly type: "leader_result"; readonly id: number; readonly result: "steered" }
  | { readonly type: "queue_leader_message"; readonly id: number; readonly record: InboxRecord }
  | { readonly type: "mail_delivered"; readonly via: "steer" | "wake"; readonly records: readonly InboxRecord[] }
  | { readonly type: "write_roster" }
  /** The teammate is idle with nothing pending: offer it board work (R36). */
  | { readonly type: "board_idle" }
  /** It is going away: release its claims (R21, R56). */
  | { readonly type: "board_gone"; readonly reason: "shutdown" | "crash" }
  | { readonly type: "stop_process" }
  /**
   * Release what an ended incarnation holds, in this order: stop its child (`stop`, a spawn given
   * up with its child started), end what it left running (`reap`), keep (`capture`) or remove
   * (`discard`, a failed spawn) its worktree, remove its launch dirs; then answer `captured`.
   */
  | {
    readonly type: "release";
    readonly stop: boolean;
    readonly reap: boolean;
    readonly worktree: { readonly wt: Worktree; readonly how: "capture" | "discard" } | undefined;
    readonly launchDirs: readonly string[];
  }
  | { readonly type: "note"; readonly text: string }
  /**
   * The one end-of-life line of an incarnation (R55): finished, shut down or crashed. `ok` is
   * false for a failure end (a crash, a `failed` terminal report): the transcript marks it `✗`.
   */
  | { readonly type: "lifeline"; readonly text: string; readonly ok: boolean };

/** Outcome of one transition. */
export interface Step {
  readonly state: TeammateState;
  readonly effects: TeammateEffect[];
}

/** What the core needs to know about the incarnation besides its state. */
export interface TeammateFacts {
  readonly name: string;
  readonly agent: string;
  /** The role prompt, sent with the first prompt. */
  readonly role: string;
  readonly startedAt: number;
  /** Where its stderr goes, for crash and failure texts. */
  readonly log: string;
}

/** Heartbeat thresholds (R52, R53), ms; 0 disables. `stallMs` 0 disables both tiers. */
export interface HeartbeatConfig {
  readonly stallMs: number;
  readonly silentMs: number;
}
