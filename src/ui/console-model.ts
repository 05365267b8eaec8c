/**
 * Plain data the `/agent-teams` console, the widget and the plain-text summary draw from (R61,
 * R62). A `ConsoleSnapshot` is built from the harness's memory (src/ui/snapshot.ts) when the team
 * changes, never from files on every frame; the components only format it. Times are epoch ms.
 */
import type { TaskCreateArgs } from "../board/index.ts";
import type { TaskStatus } from "../board/types.ts";
import type { AgentScope } from "../agents/types.ts";
import type { CompactionInfo } from "../team/compaction.ts";
import type { ContextGauge } from "../team/context.ts";
import type { MailRow } from "../feed/index.ts";

export type { MailRow } from "../feed/index.ts";

/** The console's pages, in Tab order. */
export const CONSOLE_PAGES = ["teammates", "roles", "board", "mail"] as const;
export type ConsolePage = (typeof CONSOLE_PAGES)[number];

/** One row of the Teammates page. */
export interface TeammateRow {
  readonly name: string;
  /** The role (agent definition) name. */
  readonly agent: string;
  readonly status: "starting" | "idle" | "working" | "stopping" | "stopped";
  /** When it entered `status`. */
  readonly since: number;
  /** Health, when the heartbeat flagged it: `stalled` (no output) or `silent` (no model output at all). */
  readonly stall?: { readonly kind: "stalled" | "silent"; readonly since: number };
  /** How its process ended, once stopped. */
  readonly exit?: { readonly code: number | null; readonly signal: string | null };
  /** Current tool with its argument summary, or the last line of text; absent when none. */
  readonly activity?: string;
  /** Model label, e.g. `anthropic/claude-sonnet-4 (role)` or `Pi default`. */
  readonly model: string;
  readonly context?: ContextGauge;
  readonly compaction?: CompactionInfo;
  /** Lifetime tokens and cost (USD) of this incarnation. */
  readonly tokens: number;
  readonly cost: number;
  /** Its current direct assignment (first line), if open. */
  readonly assignment?: string;
  /** Board tasks it holds: id and subject. */
  readonly tasks: readonly { readonly id: string; readonly subject: string }[];
  /** Its worktree branch: living (`pi-team/x-1234abcd`) or kept after it stopped. */
  readonly branch?: string;
  /** Newest last: recent activity lines for the detail view (bounded). */
  readonly recent: readonly string[];
  /** The last stderr lines of its process. */
  readonly stderrTail: string;
}

/** One discovered role (agent definition) on the Roles page. */
export interface RoleRow {
  readonly name: string;
  readonly description: string;
  readonly scope: AgentScope;
  readonly gitManaged: boolean;
  /** Absolute file path, or `session:<name>`. */
  readonly source: string;
  /** Tool names; undefined when the role grants Pi's defaults (no `tools` field). */
  readonly tools: readonly string[] | undefined;
  /** The effective model chain, e.g. `role pin anthropic/x` or `team default → Pi default`. */
  readonly modelChain: string;
  readonly verify?: string;
  readonly worktree: boolean;
  /** Absolute paths of the Pi extensions its teammates load (`extensions` field). */
  readonly extensions?: readonly string[];
  /** Names of living teammates spawned from it. */
  readonly instances: readonly string[];
}

/** A definition file discovery skipped, with why (broken field, untrusted project). */
export interface SkippedRole {
  /** The file, or the folder for an untrusted project. */
  readonly source: string;
  readonly reason: string;
}

/** Where a task's review stands. */
export type VerifyState = "none" | "pending" | "reviewing" | "failed once" | "passed" | "parked";

/** One task on the Board page. */
export interface TaskRow {
  readonly id: string;
  readonly subject: string;
  readonly status: TaskStatus;
  readonly holder?: string;
  /** Who completed it (a completed task has no holder). */
  readonly completedBy?: string;
  readonly dependsOn: readonly { readonly id: string; readonly met: boolean }[];
  readonly resources: readonly string[];
  readonly verify: VerifyState;
  /**
   * The criteria it is (or was, or will be) reviewed against (R43): its own `verify`, else the
   * role default of its holder or completer (`role` names that role). Absent when neither has one
   * or no claimer is known yet.
   */
  readonly criteria?: { readonly text: string; readonly role?: string };
  /** Cost while held: the holder's tokens and cost over its holdings, plus its reviewers'. */
  readonly tokens: number;
  readonly cost: number;
  readonly description?: string;
  readonly result?: string;
  /** The last reviewer findings or failure reason. */
  readonly findings?: string;
  /** Failed submissions so far, by any holders (W22); absent when none. */
  readonly failedSubmits?: number;
  /** Why a pending task is not being worked on now (W20), e.g. `next notice to @bo in 3m12s`. */
  readonly waits?: string;
  /** Its short form for the list (`notice @bo in 3m12s`, `nobody: all assigned`). */
  readonly waitsShort?: string;
}


/** Everything the console shows, taken at `now`. */
export interface ConsoleSnapshot {
  readonly now: number;
  readonly teammates: readonly TeammateRow[];
  readonly roles: readonly RoleRow[];
  readonly skipped: readonly SkippedRole[];
  readonly tasks: readonly TaskRow[];
  /** Tasks per status. */
  readonly counts: Readonly<Record<TaskStatus, number>>;
  /** Newest first. */
  readonly mail: readonly MailRow[];
  /** The team default model: `provider/id`, or `Pi default` when none is set. */
  readonly teamModel: string;
  /** Teammate dialogs held back while the console is open (they would be hidden under it). */
  readonly dialogsWaiting?: number;
}

/** A model the picker offers; `undefined` (the "Pi default" entry) clears the team model. */
export interface ModelChoice {
  readonly provider: string;
  readonly id: string;
}

/**
 * What the console asks the team to do. Each returns the line shown in the console's status bar
 * (and after it closes); a rejection's message is shown the same way. Never called for a
 * teammate that is not living.
 */
export interface ConsoleActions {
  shutdown(name: string): Promise<string>;
  compact(name: string): Promise<string>;
  setTeamModel(model: ModelChoice | undefined): Promise<string>;
  /** The transcript of the latest incarnation of `name`, living or stopped, as lines (issue 20). */
  transcript(name: string): Promise<readonly string[]>;
  /** The user's message to `name` (issue 21): steered or queued as the leader's would be. */
  send(name: string, text: string): Promise<string>;
  /** Aborts `name`'s current run (issue 21): it goes idle with its context and claims. */
  interrupt(name: string): Promise<string>;
  /** The user's new task (issue 21): the leader's task_create rules and errors. */
  createTask(args: TaskCreateArgs): Promise<string>;
  /** The user's offer of pending `taskId` to idle teammate `name`: a board notice to it alone, now. */
  offer(taskId: string, name: string): Promise<string>;
  /** One more review attempt for parked `taskId`; its holder is told. */
  allowAttempt(taskId: string): Promise<string>;
}

/** One row of the widget under the editor: a starting or working teammate (R62). */
export interface WidgetRow {
  readonly name: string;
  readonly activity: string;
  /** e.g. `stalled · silent 31m`. */
  readonly stall?: string;
}
