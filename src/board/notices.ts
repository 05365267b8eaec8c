/**
 * One-shot board notices (R36, R54, L11): which idle teammate hears about which claimable task.
 *
 * Rules:
 * - Recipients are living teammates that are idle, own no direct assignment and hold no board
 *   task. Tasks are claimable ones (pending, dependencies completed) whose resources overlap
 *   neither an active board holding nor any active direct assignment.
 * - A teammate hears about a task once per release epoch: a notice it did not act on (declined)
 *   never wakes it again for that task; a release bumps the task's epoch and re-arms it. A
 *   teammate that claimed from a notice did not decline the notice's other tasks: once its claim
 *   ends it may hear of them again (W20).
 * - Tasks are shared out, not broadcast: one task goes to one teammate per round, round robin,
 *   the longest-unnoticed teammate first, at most `perNotice` tasks per notice. A task offered to a
 *   teammate still busy with that notice (not idle, no assignment yet) is not offered to another.
 *   When that teammate goes idle without claiming, it declined and the task moves on.
 * - The pace guards against re-waking, never delays work (W20): after a notice a teammate did not
 *   act on, its next notice waits until `paceMs` after the last one (the synchronous notice from
 *   task_create excepted). A teammate that acted (claimed from it: seen holding work), whose
 *   claim ended since (submitted, released, completed, parked), or that was never noticed is
 *   offered claimable work at once. So is one whose offered tasks were all taken by others before
 *   it went idle: it passed over nothing. No recipients or nothing claimable: no effect, no model call.
 * - Each teammate's noticed set is capped at 256 ids, pruned to claimable ids, then oldest first.
 */
import { heldBy, type Board } from "./board.ts";
import { anyOverlap, overlapsHeld } from "./resources.ts";
import type { Assignment, Effect, Holder, Task } from "./types.ts";

/** Default minimum gap (ms) between two notices to one teammate (PI_TEAMMATE_NOTICE_PACE_MS). */
export const DEFAULT_NOTICE_PACE_MS = 5 * 60_000;
/** Bound of each teammate's noticed-id set (L11). */
export const NOTICED_CAP = 256;
/** Default maximum tasks named in one notice. */
export const DEFAULT_TASKS_PER_NOTICE = 5;

/** A living teammate as the shell sees it when planning notices. */
export interface NoticeTeammate extends Holder {
  /** No turn running and no prompt being delivered. A teammate just notified is not idle. */
  readonly idle: boolean;
  /** Owns a direct assignment, or a closed one not yet reopened (R15, R36). */
  readonly hasAssignment: boolean;
}

/** Notice memory of one teammate incarnation. Plain data, owned by the caller's `NoticeBook`. */
export interface NoticeEntry {
  readonly spawnId: string;
  /** When the last notice went out (ms), if any. */
  lastAt?: number;
  /**
   * True from a notice until the teammate is seen holding work (a claim or an assignment): only
   * then does the pace hold its next notice back (W20).
   */
  paced: boolean;
  /** Task id → the task's `noticeEpoch` when this teammate was told about it. */
  readonly noticed: Map<string, number>;
  /** Tasks of the last notice, outstanding while the teammate is busy with it. */
  offered: string[];
}

/** Notice memory of the team, by teammate name. Runtime only; not persisted. */
export type NoticeBook = Map<string, NoticeEntry>;

/** An empty notice book. */
export function createNoticeBook(): NoticeBook {
  return new Map();
}

/** The shell's view of the team for one planning round. `now` and `paceMs` in ms. */
export interface PlanNoticesInput {
  /** Every living teammate. Entries of teammates missing here are dropped from the book. */
  readonly teammates: readonly NoticeTeammate[];
  /** Active direct assignments; their resources make overlapping tasks unnoticeable. */
  readonly assignments?: readonly Assignment[];
  readonly now: number;
  /** Minimum gap per teammate (ms); default `DEFAULT_NOTICE_PACE_MS`. */
  readonly paceMs?: number;
  /** True for the notice sent from task_create itself: the pace does not apply. */
  readonly synchronous?: boolean;
  /** Consider only these task ids (task_create passes the new task). */
  readonly onlyTaskIds?: readonly string[];
  /**
   * The user's own offer from the console (issue 21): only these teammates are told, and a task
   * offered to another one, or one this teammate was told of before, is offered all the same.
   */
  readonly direct?: { readonly to: readonly string[] };
  /** Maximum tasks per notice; default `DEFAULT_TASKS_PER_NOTICE`. */
  readonly perNotice?: number;
}

/** The notices to deliver now. */
export interface NoticePlan {
  /** `notify_teammate` effects, one per teammate told. Empty when nothing is to be said. */
  readonly effects: Effect[];
  /** Names told, in effect order. */
  readonly notified: string[];
}

function entryFor(book: NoticeBook, mate: NoticeTeammate): NoticeEntry {
  const entry = book.get(mate.name);
  if (entry && entry.spawnId === mate.spawnId) return entry;
  const fresh: NoticeEntry = { spawnId: mate.spawnId, noticed: new Map(), offered: [], paced: false };
  book.set(mate.name, fresh);
  return fresh;
}

function isClaimableNow(board: Board, task: Task, assignments: readonly Assignment[]): boolean {
  if (task.state.status !== "pending" || board.index.unmet.get(task.id) !== 0) return false;
  if (overlapsHeld(board.index.held, task.resources)) return false;
  return task.resources.length === 0 || !assignments.some((a) => anyOverlap(task.resources, a.resources));
}

/**
 * Ids of the tasks a free teammate (no assignment, no holding) could claim now: pending with every
 * dependency completed and resources overlapping neither a board holding nor `assignments`, in
 * `seq` order, at most `limit` (default 50). Reads the ready index only; never changes anything.
 */
export function claimableTaskIds(board: Board, assignments: readonly Assignment[] = [], limit = 50): string[] {
  const out: string[] = [];
  for (const task of board.index.ready) {
    if (out.length >= limit) break;
    if (isClaimableNow(board, task, assignments)) out.push(task.id);
  }
  return out;
}

function prune(board: Board, entry: NoticeEntry): void {
  if (entry.noticed.size <= NOTICED_CAP) return;
  for (const id of [...entry.noticed.keys()]) {
    const t = board.tasks.get(id);
    if (!t || t.state.status !== "pending" || board.index.unmet.get(id) !== 0) entry.noticed.delete(id);
  }
  for (const id of entry.noticed.keys()) {
    if (entry.noticed.size <= NOTICED_CAP) break;
    entry.noticed.delete(id);
  }
}

/** The text of one notice. */
export function noticeText(tasks: readonly Task[]): string {
  const lines = tasks.map((t) => `- \`${t.id}\`: ${t.subject}${t.resources.length ? ` (resources: ${t.resources.join(", ")})` : ""}`);
  return [
    `Board notice: ${tasks.length === 1 ? "a task you can claim now" : `${tasks.length} tasks you can claim now`}:`,
    ...lines,
    'If one fits your role, claim it with task_claim({ taskId: "<id>" }); otherwise ignore this notice. You will not be told about these tasks again unless they are released.',
  ].join("\n");
}

/** No direct assignment and no board task held: the only teammates a notice may wake (R36). */
export function isFree(board: Board, mate: NoticeTeammate): boolean {
  return !mate.hasAssignment && heldBy(board, mate.name).length === 0;
}

/**
 * Why a direct offer of `task` to `mate` woke nobody (the console's `o`, issue 21), for the user:
 * the task is not pending, the teammate is working or holds other work (R36), else `waiting`
 * (why the task waits, W20). Pure.
 */
export function offerRefusal(board: Board, task: Task, mate: NoticeTeammate, waiting: string | undefined): string {
  if (task.state.status !== "pending") return `it is ${task.state.status}`;
  if (!mate.idle) return `@${mate.name} is working`;
  if (!isFree(board, mate)) return `@${mate.name} holds other work`;
  return waiting ?? "it cannot be claimed now";
}

/**
 * When the pace lets `entry`'s teammate hear again (ms): `lastAt + paceMs` after a notice it did
 * not act on, else -Infinity (at once) (W20).
 */
export function pacedUntil(entry: NoticeEntry | undefined, paceMs: number): number {
  return entry?.paced && entry.lastAt !== undefined ? entry.lastAt + paceMs : Number.NEGATIVE_INFINITY;
}

/** True while task `id` of `entry`'s last notice is pending in the epoch it was offered in. */
function stillOffered(board: Board, entry: NoticeEntry, id: string): boolean {
  const task = board.tasks.get(id);
  return task?.state.status === "pending" && entry.noticed.get(id) === task.noticeEpoch;
}

function recipientsOf(board: Board, book: NoticeBook, input: PlanNoticesInput, paceMs: number): { mate: NoticeTeammate; entry: NoticeEntry }[] {
  const out: { mate: NoticeTeammate; entry: NoticeEntry }[] = [];
  for (const mate of input.teammates) {
    const entry = entryFor(book, mate);
    const free = isFree(board, mate);
    if (!free) {
      // It acted: the rest of its notice was not passed over, so it may hear of those again (W20).
      for (const id of entry.offered) entry.noticed.delete(id);
      entry.paced = false; // it holds work: when that ends, it hears at once
    }
    // Idle again with none of its offer left to take (others claimed it first): it passed over nothing.
    if (free && mate.idle && entry.offered.length > 0 && !entry.offered.some((id) => stillOffered(board, entry, id))) entry.paced = false;
    if (!free || mate.idle) entry.offered = []; // claimed something, or went idle: the offer lapsed
    if (!free || !mate.idle) continue;
    if (!input.synchronous && pacedUntil(entry, paceMs) > input.now) continue;
    out.push({ mate, entry });
  }
  out.sort((a, b) => (a.entry.lastAt ?? -Infinity) - (b.entry.lastAt ?? -Infinity) || a.mate.name.localeCompare(b.mate.name));
  return out;
}

/**
 * Shares `candidates` out round robin: each task goes to the next recipient that has not been
 * told about it in its current epoch and still has room. Stops once every notice is full.
 */
function distribute(candidates: Iterable<Task>, entries: readonly NoticeEntry[], perNotice: number, eligible: (task: Task) => boolean, again = false): Task[][] {
  const picks = entries.map(() => [] as Task[]);
  let turn = 0;
  let open = entries.length;
  for (const task of candidates) {
    if (open === 0) break;
    if (!eligible(task)) continue;
    for (let k = 0; k < entries.length; k++) {
      const i = (turn + k) % entries.length;
      const pick = picks[i] as Task[];
      if (pick.length >= perNotice || (!again && (entries[i] as NoticeEntry).noticed.get(task.id) === task.noticeEpoch)) continue;
      pick.push(task);
      if (pick.length === perNotice) open -= 1;
      turn = i + 1;
      break;
    }
  }
  return picks;
}

/**
 * Decides the notices to send now (rules in the module comment). Updates `book` in place (last
 * notice time, noticed ids, outstanding offers) and returns `notify_teammate` effects for the shell
 * to deliver as wake prompts. Never touches the board. Cost: O(teammates + claimable tasks
 * scanned), stopping once every recipient's notice is full.
 */
export function planNotices(board: Board, book: NoticeBook, input: PlanNoticesInput): NoticePlan {
  const paceMs = input.paceMs ?? DEFAULT_NOTICE_PACE_MS;
  const perNotice = Math.max(1, input.perNotice ?? DEFAULT_TASKS_PER_NOTICE);
  const assignments = input.assignments ?? [];
  const living = new Set(input.teammates.map((m) => m.name));
  for (const name of [...book.keys()]) if (!living.has(name)) book.delete(name);
  const direct = input.direct;
  const recipients = recipientsOf(board, book, input, paceMs).filter((r) => !direct || direct.to.includes(r.mate.name));
  if (recipients.length === 0) return { effects: [], notified: [] };
  const outstanding = new Set<string>();
  for (const entry of book.values()) for (const id of entry.offered) outstanding.add(id);
  const candidates: Iterable<Task> = input.onlyTaskIds
    ? input.onlyTaskIds.flatMap((id) => board.tasks.get(id) ?? [])
    : board.index.ready;
  const picks = distribute(candidates, recipients.map((r) => r.entry), perNotice, (task) => (direct !== undefined || !outstanding.has(task.id)) && isClaimableNow(board, task, assignments), direct !== undefined);
  const effects: Effect[] = [];
  const notified: string[] = [];
  recipients.forEach(({ mate, entry }, i) => {
    const tasks = picks[i] as Task[];
    if (tasks.length === 0) return;
    entry.lastAt = input.now;
    entry.paced = true;
    entry.offered = tasks.map((t) => t.id);
    for (const t of tasks) entry.noticed.set(t.id, t.noticeEpoch);
    prune(board, entry);
    notified.push(mate.name);
    effects.push({
      type: "notify_teammate",
      to: { name: mate.name, spawnId: mate.spawnId },
      taskIds: entry.offered,
      synchronous: input.synchronous === true,
      text: noticeText(tasks),
    });
  });
  return { effects, notified };
}

/**
 * Reads PI_TEAMMATE_NOTICE_PACE_MS: a non-negative integer of ms; unset or blank means the
 * default. An invalid value falls back to the default with a warning naming the value.
 */
export function resolveNoticePace(raw: string | undefined): { paceMs: number; warning?: string } {
  if (raw === undefined || raw.trim() === "") return { paceMs: DEFAULT_NOTICE_PACE_MS };
  const n = Number(raw.trim());
  if (Number.isInteger(n) && n >= 0) return { paceMs: n };
  return {
    paceMs: DEFAULT_NOTICE_PACE_MS,
    warning: `PI_TEAMMATE_NOTICE_PACE_MS=${JSON.stringify(raw)} is not a non-negative integer of milliseconds; using ${DEFAULT_NOTICE_PACE_MS}.`,
  };
}
