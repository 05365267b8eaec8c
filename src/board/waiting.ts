/**
 * Why pending work waits (W20, W21), so nobody has to guess: per pending task, the one thing that
 * keeps it from being worked on now, and whether the board can still move without the leader.
 *
 * Rules:
 * - A task waits for its unfinished dependencies, else for a held resource (a board task's or a
 *   direct assignment's), else for a teammate.
 * - A teammate *may take* a claimable task when it is free (no direct assignment, no board task)
 *   and has not passed over that task's notice in its current epoch (L11).
 * - The board *can progress* while some claimable task has a living teammate that may take it:
 *   at once, or after its pace (W20). A board that is not settled (src/board/settled.ts) and has
 *   no such pair, once no teammate works, is *stuck*: only the leader (a new teammate, a
 *   supersession, a reopen) can move it.
 */
import { unmetDependencies, type Board } from "./board.ts";
import { isFree, pacedUntil, type NoticeBook, type NoticeTeammate } from "./notices.ts";
import { anyOverlap, findHeldConflict, overlapsHeld } from "./resources.ts";
import { TASK_STATUSES, type Assignment, type Task } from "./types.ts";

/** The team as the board sees it when explaining waits. `now` and `paceMs` in ms. */
export interface WaitingInput {
  /** Every living teammate. */
  readonly teammates: readonly NoticeTeammate[];
  /** Active direct assignments, with their resources. */
  readonly assignments: readonly Assignment[];
  readonly now: number;
  readonly paceMs: number;
}

const code = (id: string): string => `\`${id}\``;

/** "3m12s", "45s": a short duration for wait lines; `ms` is rounded up to whole seconds. */
export function shortDuration(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(s / 60);
  return m > 0 ? `${m}m${String(s % 60).padStart(2, "0")}s` : `${s}s`;
}

function mayTake(board: Board, book: NoticeBook, mate: NoticeTeammate, task: Task): boolean {
  if (!isFree(board, mate)) return false;
  const entry = book.get(mate.name);
  if (entry?.spawnId !== mate.spawnId || entry.noticed.get(task.id) !== task.noticeEpoch) return true;
  return !mate.idle && entry.offered.includes(task.id); // still reading that notice; idle, it passed over it

}

/** Why a pending task waits: the full line, and a short form for a table cell. */
export interface Wait {
  readonly text: string;
  readonly short: string;
}

function resourceWait(board: Board, task: Task, assignments: readonly Assignment[]): Wait | undefined {
  if (task.resources.length === 0) return undefined;
  if (overlapsHeld(board.index.held, task.resources)) {
    const c = findHeldConflict(board.index.held, task.resources);
    const owner = c?.owners[0];
    if (c && owner) return { text: `resource ${c.heldTag} is held by @${owner.name}${owner.taskId ? ` (${code(owner.taskId)})` : ""}`, short: `${c.heldTag} held by @${owner.name}` };
    return { text: "a resource of it is held", short: "resource held" };
  }
  const a = assignments.find((x) => anyOverlap(task.resources, x.resources));
  return a ? { text: `a resource of it is in @${a.name}'s direct assignment`, short: `in @${a.name}'s assignment` } : undefined;
}

function whyNobody(board: Board, input: WaitingInput): Wait {
  if (input.teammates.length === 0) return { text: "no teammate can take it: none is alive", short: "no teammate alive" };
  const parts = input.teammates.map((m) => {
    if (m.hasAssignment) return { m, all: "hold a direct assignment", one: "holds a direct assignment", brief: "assigned" };
    const held = [...(board.index.holders.get(m.name) ?? [])];
    if (held.length > 0) return { m, all: "hold board tasks", one: `holds ${held.map(code).join(", ")}`, brief: "busy" };
    return { m, all: "passed over it", one: "passed over it", brief: "passed" };
  });
  const first = parts[0];
  if (parts.length === 1 && first) return { text: `no teammate can take it: @${first.m.name} ${first.one}`, short: `@${first.m.name} ${first.brief}` };
  if (parts.every((p) => p.all === first?.all)) return { text: `no teammate can take it: all ${first?.all}`, short: `nobody: all ${first?.brief}` };
  return { text: `no teammate can take it: ${parts.map((p) => `@${p.m.name} ${p.one}`).join("; ")}`, short: "nobody can take it" };
}

/**
 * Why pending `task` is not being worked on now (rules in the module comment): `text`, e.g.
 * "waits for `build`", "next notice to @bo in 3m12s", "no teammate can take it: all hold a direct
 * assignment", and `short`, at most about 22 characters for a table cell ("notice @bo in 3m12s",
 * "nobody: all assigned"). Undefined for a task that is not pending. Reads only.
 */
export function whyWaiting(board: Board, book: NoticeBook, input: WaitingInput, task: Task): Wait | undefined {
  if (task.state.status !== "pending") return undefined;
  const unmet = unmetDependencies(board, task);
  if (unmet.length > 0) return { text: `waits for ${unmet.map(code).join(", ")}`, short: `waits for ${unmet.join(", ")}` };
  const resource = resourceWait(board, task, input.assignments);
  if (resource) return resource;
  const offeredTo = input.teammates.find((m) => !m.idle && book.get(m.name)?.offered.includes(task.id));
  if (offeredTo) return { text: `offered to @${offeredTo.name}, who is reading its notice`, short: `offered to @${offeredTo.name}` };
  const takers = input.teammates.filter((m) => mayTake(board, book, m, task));
  if (takers.length === 0) return whyNobody(board, input);
  const busy = takers.find((m) => !m.idle);
  if (busy) return { text: `offered to @${busy.name} when it is idle`, short: `to @${busy.name} when idle` };
  const next = takers.map((m) => ({ m, at: pacedUntil(book.get(m.name), input.paceMs) })).sort((a, b) => a.at - b.at)[0];
  const name = next?.m.name ?? "?";
  if (!next || next.at <= input.now) return { text: `offered at the next notice to @${name}`, short: `notice to @${name} now` };
  const left = shortDuration(next.at - input.now);
  return { text: `next notice to @${name} in ${left}`, short: `notice @${name} in ${left}` };
}

/** `whyWaiting`'s full line alone (task_list, the stuck summary). */
export function waitReason(board: Board, book: NoticeBook, input: WaitingInput, task: Task): string | undefined {
  return whyWaiting(board, book, input, task)?.text;
}

/**
 * True while the board can move without the leader: some claimable task (pending, dependencies
 * completed, resources free) has a living teammate that may take it, now or after its pace. The
 * headless run stays open while this holds (W21). O(ready tasks × teammates), stopping at the
 * first pair.
 */
export function canProgress(board: Board, book: NoticeBook, input: WaitingInput): boolean {
  if (input.teammates.length === 0) return false;
  for (const task of board.index.ready) {
    if (task.state.status !== "pending" || board.index.unmet.get(task.id) !== 0) continue;
    if (resourceWait(board, task, input.assignments) !== undefined) continue;
    if (input.teammates.some((m) => mayTake(board, book, m, task))) return true;
  }
  return false;
}

/** Open tasks a stuck summary names at most. */
export const STUCK_TASKS = 20;

/** Why an unsettled task that is not pending does not move: its holder went idle owing it. */
function heldLine(task: Task): string | undefined {
  const { state } = task;
  if (state.status === "claimed") return `@${state.holding.holder.name} holds it, idle, and has not submitted it`;
  if (state.status === "in_review") return `in review for @${state.holding.holder.name}`;
  if (state.status === "parked" && state.allowance) return `@${state.holding.holder.name} may submit it once more (the leader allowed it) and is idle`;
  return undefined;
}

/**
 * The summary of a stuck board (W21): tasks by state, then each open task (at most
 * `STUCK_TASKS`, oldest first) with what blocks it: a pending task's wait, or the idle holder
 * that owes a claimed one. Plain text, several lines.
 */
export function stuckSummary(board: Board, book: NoticeBook, input: WaitingInput): string {
  const { counts } = board.index;
  const tally = TASK_STATUSES.filter((s) => counts[s] > 0).map((s) => `${counts[s]} ${s}`).join(", ");
  const open = [...board.tasks.values()]
    .map((task) => ({ task, why: task.state.status === "pending" ? waitReason(board, book, input, task) : heldLine(task) }))
    .filter((x): x is { task: Task; why: string } => x.why !== undefined)
    .sort((a, b) => a.task.seq - b.task.seq);
  const lines = [`The task board is stuck: ${board.tasks.size} task${board.tasks.size === 1 ? "" : "s"} (${tally}); no teammate is working and none can take what is left.`];
  for (const { task, why } of open.slice(0, STUCK_TASKS)) lines.push(`- ${code(task.id)} [${task.state.status}] ${task.subject}: ${why}`);
  if (open.length > STUCK_TASKS) lines.push(`… and ${open.length - STUCK_TASKS} more open task(s).`);
  return lines.join("\n");
}
