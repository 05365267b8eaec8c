/**
 * The one signal union of a leader session (issue 19): what the harness (the teammates), the
 * board host and the feed tell each other on the session's bus (src/team/bus.ts). Declarations
 * only; "who hears X" is answered by grepping `bus.on("X"`.
 */
import type { AcceptedSubmission, BoardEscalation, BoardSettled, Holder } from "../board/index.ts";
import type { CompactionInfo } from "./compaction.ts";
import type { HarnessNote, LeaderDelivery, MailDelivery } from "./leader-delivery.ts";
import type { Member } from "./member.ts";
import type { TeammateOutput } from "./teammate-output.ts";
import type { ActivityChange } from "./team-activity.ts";

/** One signal of the session. */
export type TeamSignal =
  // From the harness.
  /** A leader follow-up turn to start (R26, R30): a report or a `<harness-event>`. */
  | { readonly type: "delivery"; readonly delivery: LeaderDelivery }
  /** A console note (routing results, suppressed reports, child dialogs, listener failures); never a model turn. */
  | { readonly type: "note"; readonly note: HarnessNote }
  /** Mail was written into a teammate's control stream (console, benchmarks). */
  | { readonly type: "mail_delivered"; readonly delivery: MailDelivery }
  /** Every piece of a teammate's output as it arrives, translated once (activity line, context gauge, board calls). */
  | { readonly type: "output"; readonly member: Member; readonly output: TeammateOutput }
  /** The one end-of-life line of an incarnation (R55); `ok` false for a failure end. */
  | { readonly type: "lifeline"; readonly member: Member; readonly text: string; readonly ok: boolean }
  /** A teammate settled idle with nothing pending: the board may offer it work (R36). */
  | { readonly type: "idle"; readonly member: Member }
  /** A teammate is going away: before a requested stop is signalled, and after a crash (R21, R56). */
  | { readonly type: "gone"; readonly member: Member; readonly reason: "shutdown" | "crash" }
  /** A spawn ended, started or failed (it counted as team work while in flight). */
  | { readonly type: "spawn_ended" }
  /** A compaction of a teammate's context started (`running`), ended (`done`) or failed (issue 8). */
  | { readonly type: "compaction"; readonly member: Member; readonly info: CompactionInfo }
  /** After teammate steps (`status`) and leader deliveries (`delivery`): headless waits. */
  | { readonly type: "activity"; readonly change: ActivityChange }
  // From the board host.
  /** Board text (notice, findings, supersede notice) for `to`'s next turn (R36, R47). */
  | { readonly type: "tell"; readonly to: Holder; readonly text: string }
  /** A verify escalation (R45): one leader turn about `escalation.holder`. */
  | { readonly type: "escalate"; readonly escalation: BoardEscalation }
  /** The board settled: one leader turn with the summary (W22). */
  | { readonly type: "board_settled"; readonly summary: BoardSettled }
  /** The board changed (claims, releases): holdings on the roster may have too. */
  | { readonly type: "board_changed" }
  /** `holder`'s `task_submit` was accepted: an assignment boundary, and a failure the user sees (W22). */
  | { readonly type: "submitted"; readonly holder: Holder; readonly submission: AcceptedSubmission }
  /** A reviewer's usage (tokens, USD) for `taskId`, read before it stops. */
  | { readonly type: "reviewer_usage"; readonly taskId: string; readonly usage: { readonly tokens: number; readonly cost: number } };

/** The signal types. */
export type TeamSignalType = TeamSignal["type"];

/** A listener of signals of type `K`. */
export type SignalListener<K extends TeamSignalType> = (signal: Extract<TeamSignal, { type: K }>) => void;
