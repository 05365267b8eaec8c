/**
 * The task board's pure core (issue 3): plain data in, plain data out, the clock passed in as
 * `now` (ms). No I/O and no module state; the shell (files, intents, watchers, reviewer
 * processes) carries out the returned `Effect`s. See references/board-format.md.
 */
export type {
  Accepted,
  AbortReason,
  Assignment,
  BoardEscalation,
  Effect,
  GateRun,
  Holder,
  Holding,
  Rejected,
  ResubmitAllowance,
  Task,
  TaskState,
  TaskStatus,
} from "./types.ts";
export { RESULT_LIMIT, TASK_STATUSES } from "./types.ts";

export type { Board, BoardIndex } from "./board.ts";
export { createBoard, heldBy, holderOf, sameHolder, unmetDependencies } from "./board.ts";
export { TRANSITIONS, canMove } from "./transition.ts";

export { MAX_ID_LENGTH, allocateTaskId, slugify, uniqueTaskId, type AllocatedId } from "./slug.ts";
export { normalizeResource, resourcesOverlap, anyOverlap, type NormalizedResource } from "./resources.ts";

export { createTask, type CreateInput, type CreateRejection, type CreateResult, type Repointed } from "./create.ts";
export { claimTask, type Claimant, type ClaimInput, type ClaimResult } from "./claim.ts";
export { FAILED_SUBMITS_TO_PARK, submitTask, type AcceptedSubmission, type SubmitInput, type SubmitOutcome, type SubmitResult } from "./submit.ts";
// The refusal codes are the decision record's (src/mail/rejections.ts); the core returns them.
export type { BoardRejection, ClaimRejection, SubmitRejection } from "../mail/rejections.ts";
export { FAILS_TO_PARK, gateOutcome, reopenCall, type GateOutcome, type GateOutcomeInput, type GateResult } from "./gate.ts";
export { allowResubmit, describeResubmit, type AllowResubmitResult } from "./resubmit.ts";
export { SUMMARY_TASKS, checkSettled, settledKey, type BoardSettled, type SettledDecision, type SettledInput } from "./settled.ts";
export { releaseHolder, reviveBoard, type GoneHolder, type ReleaseResult, type RevivedBoard } from "./holders.ts";

export { REASONS_LIMIT, bound, clarificationPrompt, parseVerdict, reviewerPrompt, type ReviewerPromptInput, type Verdict } from "./verdict.ts";
export {
  DEFAULT_NOTICE_PACE_MS,
  DEFAULT_TASKS_PER_NOTICE,
  NOTICED_CAP,
  claimableTaskIds,
  createNoticeBook,
  isFree,
  noticeText,
  offerRefusal,
  pacedUntil,
  planNotices,
  resolveNoticePace,
  type NoticeBook,
  type NoticeEntry,
  type NoticePlan,
  type NoticeTeammate,
  type PlanNoticesInput,
} from "./notices.ts";

export {
  BOARD_FORMAT_VERSION,
  BoardFileSchema,
  loadBoard,
  parseBoardFile,
  serializeBoard,
  boardParts,
  joinBoardText,
  type BoardFile,
  type BoardHead,
  type BoardParts,
  type BoardParseFailure,
  type BoardParseResult,
} from "./schema.ts";
export { STUCK_TASKS, canProgress, shortDuration, stuckSummary, waitReason, whyWaiting, type Wait, type WaitingInput } from "./waiting.ts";
export { DEFAULT_SNAPSHOT_INTERVAL_MS, SnapshotScheduler } from "./scheduler.ts";
export { BOARD_WRITE_VERSION, BoardWriteSchema, NO_BOARD_FILE, boardDigest, emptyTrail, foldTrail, recordWrite, trailBoard, trailTrusts, type BoardTrail, type BoardWrite } from "./trail.ts";
export { CHANGES_LISTED, checkResumedBoard, resumeCheckText, type FoundBoard, type ResumeCheck, type TaskChange } from "./resume-check.ts";

export { RESULT_PREVIEW, ROSTER_TAIL, TASK_PAGE, detailCall, renderTaskList, resultPreview, type RosterRow, type TaskListOptions } from "./view.ts";
export { IDS_LISTED, renderTaskDetail, workerBoardView, type TaskDetailResult } from "./detail.ts";
export { boardOffText, describeCreate, type DescribeCreateInput } from "./messages.ts";
export {
  TaskClaimParams,
  TaskCreateParams,
  TaskListParams,
  TaskSubmitParams,
  normalizeClaimInput,
  normalizeCreateInput,
  normalizeSubmitInput,
  parseStringList,
  type InputResult,
  type TaskCreateArgs,
  type TaskListArgs,
} from "./inputs.ts";
