import type { StreamBoard } from "./stream-records.ts";
import type { WorktreeLocks } from "../isolation/index.ts";
import type { RpcUiDialogRequest, UiAnswer } from "../process/index.ts";
import type { RuntimeLayout } from "../store/index.ts";
import type { HeartbeatConfig } from "../team/lifecycle-types.ts";
import type { Member } from "../team/member.ts";
import type { HandoffContext } from "../team/handoff.ts";
import type { HeldClaim } from "../team/prompts.ts";
import type { TeammateStatus } from "../team/routing.ts";
import type { ModelRef } from "../team/spawn-plan.ts";
import type { CompactionOptions } from "./compactor.ts";
import type { Spawner } from "../process/index.ts";
import type { Clock, TeammateFiles } from "./harness-ports.ts";
import type { TeamBus } from "../team/bus.ts";

/** At most this many living teammates per session (R19). */
export const MAX_LIVING_TEAMMATES = 8;


/** The resolved config and ports of a `LeaderHarness`. Production values are set in src/leader/team-session.ts. */
export interface LeaderHarnessOptions {
  cwd: string;
  layout: RuntimeLayout;
  boardDir: string;
  agentDir: string;
  piCli: string;
  /** Directory of this package, loaded into every child with `-e`. */
  packageDir: string;
  /** Environment of the leader; children get it plus their identity variables. */
  env: NodeJS.ProcessEnv;
  /** Whether project agent definitions may be used (`ctx.isProjectTrusted()`). */
  trusted: () => boolean;
  /** The leader's current model, re-read at every spawn. */
  leaderModel: () => ModelRef | undefined;
  /** The leader's current thinking level, carried by `model: inherit` (R6). Default: none. */
  leaderThinking?: () => string | undefined;
  /** The session's team default model (R6), for roles without a `model` field. Default: none. */
  teamModel?: () => ModelRef | undefined;
  /** Every model Pi's registry knows, to refuse an unknown pin before spawning; undefined skips the check. */
  knownModels?: () => ModelRef[] | undefined;
  /** Where teammate worktrees are made (R20). Default `<agent dir>/worktrees/<session key>`. */
  worktreesRoot?: string;
  /**
   * Serialises captures of one worktree dir (R20): the exit capture, a respawn's prepare (its
   * reclaim of same-name leftovers), a failed spawn's discard and the start-up reclaim must all
   * pass this one instance as `locks`. `TeamSession` makes it; default: no locking.
   */
  worktreeLocks?: WorktreeLocks;
  /** What the harness asks of the session (the board, the dialog relay). Default: nothing held, dialogs cancelled. */
  board?: HarnessBoard;
  /** Stall heartbeat thresholds (R52, R53). Default: both tiers off. */
  heartbeat?: HeartbeatConfig;
  /** Peer messages per pair between the leader's involvements (W19); 0 turns the cap off. Default PEER_PAIR_CAP. */
  peerPairCap?: number;
  /** Model calls within 60 s with no report or board step that make one `teammate_looping` event (issue 18); 0 turns it off. Default LOOP_CALLS. */
  loopCalls?: number;
  /** Compaction of teammates' contexts (issue 8): the threshold and the feed hook. Default: automatic compaction off. */
  compaction?: CompactionOptions;
  /** The clock of every time the harness records and of its heartbeat timer. Default: the system clock. */
  clock?: Clock;
  /** The session's bus (src/team/bus.ts): the harness emits its signals there and hears the board's. Default: a bus of its own. */
  bus?: TeamBus;
  /** Starts a teammate's pi. Default `spawnPiChild`. */
  spawner?: Spawner;
  /** Worktrees, launch dirs, inline role files, the worker bundle and the reaper. Default `TEAMMATE_FILES`. */
  files?: TeammateFiles;
  /**
   * A periodic rescan of the mail dirs, in ms. Default 0 (none): a teammate's finished
   * send_message rescans the file it wrote (src/harness/mail-hints.ts), which catches a missed
   * watch event without waking an idle leader.
   */
  safetyPollMs?: number;
  /** Budget for a child's first `get_state` answer, in ms. Default 30000. */
  readyTimeoutMs?: number;
  /** Grace before SIGTERM and before SIGKILL when stopping a child, in ms. Default 3000 each. */
  stopGraceMs?: number;
}

/**
 * The questions the harness asks of its session while it runs, each answered at once: the
 * board's view of a teammate, the stream transport's board side, the dialog relay, and the
 * start-up worktree reclaim. Each may be left out (nothing held, nothing owed, dialogs
 * cancelled); a throw counts as no answer. What the harness tells the session goes through
 * its signals (src/team/signals.ts).
 */
export interface HarnessBoard {
  /** The board task `m` holds as `claimed` (owes a submission for), read when its run settles (L31). */
  openClaim?: (m: Member) => string | undefined;
  /** The board tasks `m` holds, read when it goes away, named for a successor (R16). */
  heldClaims?: (m: Member) => HeldClaim[];
  /** The resource tags `m` holds now (direct assignment and board tasks), written to the roster for the edit guards. */
  holdings?: (m: Member) => Array<{ tag: string; taskId?: string }>;
  /** The leader reopened `m` (R15): returns a note for the send result (one more attempt of its parked tasks). */
  reopen?: (m: Member) => string | undefined;
  /** The board's side of the stream transport: intents and views of teammates that share no files. */
  streamBoard?: StreamBoard;
  /**
   * Answers a dialog of `m`'s child (the child's `answerUi`, src/process/ui-dialogs.ts): the
   * session's dialog relay shows it to the user. Default: every dialog is cancelled at once.
   */
  answerUi?: (m: Member, request: RpcUiDialogRequest, signal: AbortSignal) => Promise<UiAnswer | undefined> | undefined;
  /** Resolves once the session-start reclaim of leftover worktrees is done; a worktree spawn waits for it. */
  worktreesReady?: () => Promise<void>;
}

/** Arguments of `spawn` (the `teammate_spawn` tool). */
export interface SpawnRequest {
  name: string;
  agent: string;
  prompt?: string;
  resources?: string[];
  /** A stopped teammate whose assignment, claims, reports and branch the successor is told (R16). */
  handoffFrom?: string;
  /** An inline role (R8, R9): an object or its JSON string; see src/agents/session-roles.ts. */
  definition?: unknown;
  /**
   * Brings back a teammate of a resumed session (issue 20): it starts idle from a copy of the
   * session file in `session` (its context), a worktree teammate on `branch` when it still exists.
   * `boxed`: it ran in a bwrap box, so only a bwrap role starts from that file.
   */
  restore?: { session?: string; branch?: { name: string; base: string }; boxed?: boolean };
}

/** Result of a successful spawn. */
export interface SpawnResult {
  name: string;
  agent: string;
  /** Where the role came from: a file scope or `session`. */
  scope: string;
  spawnId: string;
  pid: number;
  status: TeammateStatus;
  tools: string[];
  model: string;
  kickoff: boolean;
  log: string;
  /** Its own worktree (R20). */
  worktree?: { dir: string; branch: string; base: string };
  handoffFrom?: string;
  /** `mail`: the handoff went to its inbox (the board is open to it), not as a kickoff. */
  handoffAs?: "mail";
  /** With `handoffFrom`: started from a fork of the predecessor's session file, or from the summary alone and why (issue 20). */
  handoffContext?: HandoffContext;
  /** Its session dir, where Pi keeps its transcript (issue 20); absent for a launcher that runs pi elsewhere. */
  session?: string;
  /** With `restore`: `context` when it started from its session file, `fresh` when it had none. */
  restored?: "context" | "fresh";
  /** The file an inline definition was written to (`persist`). */
  persisted?: string;
}

/** Result of the leader's `send_message`. */
export interface LeaderSendResult {
  to: string;
  result: "steered" | "queued";
  note?: string;
}

/** `LeaderHarnessOptions` with every default filled in. */
export type ResolvedHarnessOptions = Required<LeaderHarnessOptions>;
