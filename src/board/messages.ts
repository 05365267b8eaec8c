/**
 * Tool-result text for task_create (R35): names the board, the teammates told, or what the
 * leader must do because nobody could be told. And the text a teammate gets when the board
 * cannot be read (`boardOffText`).
 */
import { unmetDependencies, type Board } from "./board.ts";
import type { CreateResult } from "./create.ts";
import type { NoticePlan } from "./notices.ts";
import { findHeldConflict } from "./resources.ts";
import type { Accepted, Task } from "./types.ts";

type CreateAccepted = Extract<CreateResult, Accepted<object>>;

/** Input of `describeCreate`. */
export interface DescribeCreateInput {
  readonly created: CreateAccepted;
  /** The synchronous notice plan made right after creation. */
  readonly plan: NoticePlan;
  /** Number of living teammates. */
  readonly living: number;
  /**
   * Teammates being spawned or still starting (not ready yet). A `teammate_spawn` in the same
   * answer as `task_create` runs in parallel and may not have registered its teammate yet.
   */
  readonly starting?: readonly string[];
  /** How the board is named to the leader, e.g. its path. */
  readonly boardLabel: string;
}

const code = (id: string): string => `\`${id}\``;

function startingText(names: readonly string[]): string {
  const who = names.map((n) => `@${n}`).join(", ");
  const verb = names.length === 1 ? "is" : "are";
  return `${who} ${verb} starting; the task reaches ${names.length === 1 ? "it" : "them"} once ${names.length === 1 ? "it is" : "they are"} ready (a teammate spawned with a kickoff prompt works on that first). No need to spawn another teammate for it.`;
}

function waiting(board: Board, task: Task, starting: readonly string[]): string {
  const unmet = unmetDependencies(board, task);
  if (unmet.length > 0) return `It waits for ${unmet.map(code).join(", ")} to complete; idle teammates hear about it then.`;
  const conflict = findHeldConflict(board.index.held, task.resources);
  if (conflict) return `Its resource ${code(conflict.tag)} overlaps ${code(conflict.heldTag)}, held by @${conflict.owners[0]?.name ?? "?"}; it is offered when that holding ends.`;
  if (starting.length > 0) return startingText(starting);
  return "No idle teammate is eligible (all busy or on a direct assignment, or its resources overlap one); it stays pending until a compatible teammate is idle or you open an assignment.";
}

/**
 * The task_create result text: `Created task <id> on <board>`, superseded and re-pointed ids, then
 * one of: the teammates notified; "no teammate is alive: call teammate_spawn" (only when none is
 * alive, starting or being spawned); or why it waits (dependencies, a held resource, teammates
 * still starting, or nobody eligible).
 */
export function describeCreate(board: Board, input: DescribeCreateInput): string {
  const { task, superseded, repointed } = input.created;
  const lines = [`Created task ${code(task.id)} (${task.subject}) on board ${input.boardLabel}.`];
  if (superseded.length > 0) lines.push(`Superseded ${superseded.map(code).join(", ")} (kept for audit; holders were told to acknowledge).`);
  if (repointed.length > 0) lines.push(`Re-pointed dependents: ${repointed.map((r) => `${code(r.taskId)} (${r.from} → ${r.to})`).join(", ")}.`);
  const starting = [...new Set(input.starting ?? [])];
  if (input.living === 0 && starting.length === 0) {
    lines.push("No teammate is alive: call teammate_spawn to start one; the task stays pending until a teammate claims it.");
  } else if (input.plan.notified.length > 0) {
    lines.push(`Notified idle teammate${input.plan.notified.length > 1 ? "s" : ""}: ${input.plan.notified.map((n) => `@${n}`).join(", ")}.`);
  } else {
    lines.push(waiting(board, task, starting));
  }
  return lines.join("\n");
}

/**
 * What a teammate is told when the board cannot be read (board.json corrupt or unreadable, or
 * the leader turned the board off): what is wrong (`problem`, e.g. the parse failure, no rule for
 * the code in it) and only what the teammate itself can do. `tool` names the call that failed.
 */
export function boardOffText(tool: string, problem: string): string {
  return (
    `${tool}: the task board cannot be read right now (${problem}) and nothing was changed. ` +
    "Only the leader can repair the board, so leave board.json alone; carry on with the task you hold, " +
    'or tell the leader with send_message(to: "leader") if this blocks your work.'
  );
}
