/**
 * Plain data of the task board (R34–R50). Every type here is JSON-safe except `Board`, which
 * carries derived indexes (Maps) rebuilt on load. Times are epoch milliseconds from the caller's
 * clock; the core never reads a clock itself.
 */

/** Every status a task can be in, in the order views list them. */
export const TASK_STATUSES = ["in_review", "claimed", "parked", "pending", "completed", "superseded"] as const;
/** A task's `state.status`. */
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** A teammate incarnation: a name plus the spawn id of the process (R47). */
export interface Holder {
  readonly name: string;
  readonly spawnId: string;
}

/** What a holder owns while a task is claimed, in review or parked. */
export interface Holding {
  readonly holder: Holder;
  /** When the claim was applied (ms). */
  readonly claimedAt: number;
  /** Explicit `VERDICT: FAIL` answers in this holding; two park the task (R45, L10). */
  readonly failures: number;
  /** Gate runs started in this holding; the next run's `attempt` is `reviews + 1`. */
  readonly reviews: number;
}

/**
 * The leader's permission for one more review attempt of a parked task (R45, L10): granted by
 * `send_message({ to: holder, reopen: true })`, used up by the next `task_submit(completed)`.
 */
export interface ResubmitAllowance {
  /** When the leader granted it (ms). */
  readonly grantedAt: number;
}

/** One verify-gate run, bound to a submission by its token (L9). */
export interface GateRun {
  /** Unique per run (`<task id>#g<n>`); an outcome carrying another token is stale. */
  readonly token: string;
  /** 1-based number of this run within the holding. */
  readonly attempt: number;
  /** True once the one verdict-only clarification was asked (R44). */
  readonly clarified: boolean;
  readonly startedAt: number;
  /** The effective verify criteria this run judges against (task verify, else the role's). */
  readonly criteria: string;
}

/**
 * The task lifecycle as a discriminated union (style practice 3). Data that exists in one state
 * only lives in that variant. Allowed moves are listed once, in `transition.ts`.
 */
export type TaskState =
  | { readonly status: "pending" }
  | { readonly status: "claimed"; readonly holding: Holding }
  | { readonly status: "in_review"; readonly holding: Holding; readonly gate: GateRun }
  | {
      readonly status: "parked";
      readonly holding: Holding;
      /** Set while the leader allows one more attempt; without it a `completed` submit is refused. */
      readonly allowance?: ResubmitAllowance;
    }
  | { readonly status: "completed"; readonly completedAt: number; readonly by?: string }
  | {
      readonly status: "superseded";
      /** Id of the replacement task. */
      readonly by: string;
      readonly supersededAt: number;
      /** A live holder keeps its resource lock until it submits `failed` or stops (R41). */
      readonly holder?: Holder;
    };

/** One board task. `dependsOn` is mutable because supersession re-points it (R40). */
export interface Task {
  readonly id: string;
  /** Creation order, unique and increasing; "first claimable" means lowest `seq`. */
  readonly seq: number;
  readonly subject: string;
  readonly description?: string;
  dependsOn: string[];
  /** Normalised path-like tags (see `resources.ts`). */
  readonly resources: readonly string[];
  /** Task-level review criteria; overrides the claimer's role `verify` (R43). */
  readonly verify?: string;
  readonly supersedes: readonly string[];
  readonly createdAt: number;
  updatedAt: number;
  state: TaskState;
  /** Reason of the last `failed` submission, kept when the task returns to pending (R39). */
  lastError?: string;
  /** `task_submit(failed)` calls accepted for this task, by any holders; the second parks it (W22). */
  failedSubmits?: number;
  /** Last submitted result text, bounded by `RESULT_LIMIT`. */
  lastResult?: string;
  /** Bumped on every release; a notice is one-shot per (teammate, task, epoch) (L11). */
  noticeEpoch: number;
}

/** One active direct assignment of a teammate (kickoff or reopen), as the shell knows it (R14, R36). */
export interface Assignment {
  readonly name: string;
  readonly resources: readonly string[];
}

/** Why the shell must stop a reviewer process. */
export type AbortReason = "released" | "holder_gone" | "superseded" | "stale_outcome";

/**
 * Plain-data instructions for the shell. The core never performs I/O; the shell executes these
 * in order. `persist` means "the board changed; schedule a snapshot" (coalesced by the shell).
 */
export type Effect =
  | { readonly type: "persist"; readonly revision: number }
  | {
      readonly type: "notify_teammate";
      readonly to: Holder;
      readonly taskIds: readonly string[];
      /** True for the notice sent from `task_create` itself, which ignores the pace (R54). */
      readonly synchronous: boolean;
      readonly text: string;
    }
  | {
      readonly type: "start_reviewer";
      readonly token: string;
      readonly taskId: string;
      /** Whose worktree (or the leader's cwd) the reviewer runs in. */
      readonly holder: Holder;
      readonly prompt: string;
    }
  | { readonly type: "clarify_reviewer"; readonly token: string; readonly taskId: string; readonly prompt: string }
  | { readonly type: "abort_reviewer"; readonly token: string; readonly taskId: string; readonly reason: AbortReason }
  | {
      readonly type: "send_findings";
      readonly to: Holder;
      readonly taskId: string;
      readonly attempt: number;
      /** The reviewer's FAIL reasons, bounded; empty when the reviewer gave none. */
      readonly reasons: string;
      /** True when this FAIL parked the task: the holder is not invited to resubmit. */
      readonly parked: boolean;
      readonly text: string;
    }
  | {
      readonly type: "tell_holder";
      readonly to: Holder;
      readonly taskId: string;
      readonly about: "superseded" | "verify_passed" | "resubmit_allowed" | "parked_failed";
      readonly text: string;
    }
  | {
      readonly type: "escalate";
      readonly taskId: string;
      readonly kind: "verify_failed_twice" | "verdict_missing" | "failed_twice";
      readonly holder: Holder;
      readonly text: string;
    };

/** An accepted operation: its data plus the effects to carry out. */
export type Accepted<T extends object> = { readonly ok: true; readonly effects: Effect[] } & T;

/**
 * A rejected operation (style practice 9): nothing changed on the board. `message` names the ids
 * involved and what to do next. `effects` is empty except where noted (a stale gate outcome).
 */
export interface Rejected<R extends string> {
  readonly ok: false;
  readonly reason: R;
  readonly message: string;
  readonly effects: Effect[];
}

/** Limit (chars) on submitted result text kept on the task and shown to reviewers. */
export const RESULT_LIMIT = 8_000;

/** A verify escalation for the leader: the task, its holder (who the event is about) and the text. */
export type BoardEscalation = Extract<Effect, { type: "escalate" }>;
