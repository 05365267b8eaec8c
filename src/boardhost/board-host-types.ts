/**
 * The wiring and view types of the leader's board shell (`BoardHost`, R34–R60): what it needs to
 * know about teammates (R15, R43, R49), the escalations (R45) and settled summaries it hands to
 * the leader, and its options (notice pace, intent grace L6). Declarations only.
 */
import type { Holder } from "../board/index.ts";
import type { TeamBus } from "../team/bus.ts";
import type { SpawnKeys } from "../mail/index.ts";
import type { BoardLayout } from "../store/index.ts";
import type { ModelRef } from "../team/spawn-plan.ts";
import type { IntentAnswer } from "./board-apply.ts";
import type { BoardTrailPort } from "./board-trail.ts";

/** What the board needs to know about one living teammate. */
export interface BoardMate extends Holder {
  idle: boolean;
  /** An open or closed-but-not-reopened direct assignment blocks board claims (R15, R49). */
  hasAssignment: boolean;
  /** Resources of its open direct assignment, if any. */
  assignmentResources: readonly string[] | undefined;
  /** The role's default verify criteria (R43). */
  roleVerify: string | undefined;
}


/** What the board holds for one teammate, for the teammate_spawn result. */
export interface BoardWork {
  /** Tasks named in the notice it was just sent (outstanding while it works on that notice). */
  offered: string[];
  /** Tasks it could claim now (first 50), whether or not a notice named them. */
  claimable: string[];
}

/** Wiring of a `BoardHost`. */
export interface BoardHostOptions {
  layout: BoardLayout;
  /**
   * The session's spawn keys (`LeaderHarness.keys`, src/mail/seal.ts): an intent is applied only
   * when sealed by the spawn it names.
   */
  keys: SpawnKeys;
  /**
   * Answers intent file `id` of spawn `to` with `decision` on that teammate's own stdin, as a
   * stream teammate's intent is answered (`LeaderHarness.answerIntent`); nothing when `to` no
   * longer lives. Must not throw.
   */
  answer: (to: Holder, id: string, decision: IntentAnswer) => void;
  /** The leader's cwd. */
  cwd: string;
  /** Where the reviewer of `holder`'s submission runs: its worktree, else the leader's cwd. Default: `cwd`. */
  cwdOf?: (holder: Holder) => string;
  /** The leader's trust decision, inherited by reviewers. Default: not trusted. */
  trusted?: () => boolean;
  piCli: string;
  env: NodeJS.ProcessEnv;
  /** Living teammates, read fresh for every decision. */
  mates: () => BoardMate[];
  /**
   * The session's bus (src/team/bus.ts): the host publishes `tell` (board text for a teammate's
   * next turn), `escalate` (R45), `board_settled`, `board_changed`, `submitted` and
   * `reviewer_usage` there.
   */
  bus: TeamBus;
  /**
   * Whether any teammate works, starts, is being spawned or has mail in flight; read before a
   * board-settled summary. Default: never (no teammates).
   */
  teamWorking?: () => boolean;
  /**
   * Names of teammates being spawned or still starting, so task_create does not say "no teammate
   * is alive" while one is on its way (R35). Default: none.
   */
  spawning?: () => string[];
  teamModel: () => ModelRef | undefined;
  note: (text: string) => void;
  /**
   * The leader's record of its board.json writes in its Pi session (src/boardhost/board-trail.ts):
   * read at start to check board.json, appended before every write. Without it nothing is
   * recorded, and a board found with tasks is treated as unchecked.
   */
  trail?: BoardTrailPort;
  /** Minimum gap between notices to one teammate, ms (PI_TEAMMATE_NOTICE_PACE_MS). */
  paceMs: number;
  /** A marker that cannot be parsed is retried until it is this old, ms (L6). Default 2000. */
  intentGraceMs?: number;
  now?: () => number;
}
