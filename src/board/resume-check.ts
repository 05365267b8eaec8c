/**
 * The check of a board.json found at start against the leader's record of its writes (issue 18,
 * src/board/trail.ts). A teammate runs as the same user, so it can rewrite board.json while the
 * leader is down (a completion in a peer's name, a forged result, an injected task); nothing the
 * leader did not write is taken as fact. Pure: the caller supplies what it found and the clock.
 *
 * - The last recorded write (or the one before it, a write cut off by a kill): trusted, loaded as is.
 * - Anything else, with a record: the leader's own board is restored from the record. Tasks that
 *   differ keep the recorded state but drop any claim (pending again) and carry a note; tasks the
 *   file lacked come back with a note; tasks the leader never wrote are dropped.
 * - A board with tasks and no record (a session without a file, written before this check
 *   existed, or its record removed): every claim, completion and result is unverifiable, so each
 *   claimed, in-review, parked or completed task returns to pending, every result is cleared,
 *   and each such task carries a note. Pending and superseded tasks keep their state: the first
 *   claims nothing, and reviving a retired task would double its replacement's work.
 */
import { resultPreview } from "./view.ts";
import type { BoardFile } from "./schema.ts";
import { NO_BOARD_FILE, trailBoard, trailTrusts, type BoardTrail } from "./trail.ts";
import type { Task, TaskStatus } from "./types.ts";

/** A task as board.json holds it. */
type FileTask = BoardFile["tasks"][number];

/** What the shell found at board.json. `corrupt` was already moved aside and reported. */
export type FoundBoard = { kind: "missing" } | { kind: "corrupt" } | { kind: "loaded"; file: BoardFile; sha256: string };

/** One task the check did not take as the file gave it. */
export interface TaskChange {
  readonly id: string;
  /**
   * `changed`: differs from the leader's record; `removed`: missing from the file (restored);
   * `added`: never written by the leader (dropped); `unverified`: no record to check it against.
   */
  readonly kind: "changed" | "removed" | "added" | "unverified";
  /** What board.json said of it; free text quoted and cut. */
  readonly said: string;
  /** Its status after the check, or `dropped`. */
  readonly now: TaskStatus | "dropped";
}

/** The check's answer; every kind but `trusted` must be flagged to the user and the leader. */
export type ResumeCheck =
  | { kind: "trusted" }
  | { kind: "restored"; found: "changed" | "missing" | "corrupt"; recorded: number; file: BoardFile; changes: TaskChange[] }
  | { kind: "unverified"; why: "no_record" | "bad_record"; file: BoardFile; changes: TaskChange[] };

const HOLDING: ReadonlySet<TaskStatus> = new Set(["claimed", "in_review", "parked"]);

/**
 * Checks `found` against `trail` at `now` (ms) by the rules above. The file returned has its
 * revision past both the found one and the recorded one, so the next write is visibly newer.
 */
export function checkResumedBoard(found: FoundBoard, trail: BoardTrail, now: number): ResumeCheck {
  const digest = found.kind === "loaded" ? found.sha256 : found.kind === "missing" ? NO_BOARD_FILE : undefined;
  if (digest !== undefined && trailTrusts(trail, digest)) return { kind: "trusted" };
  const disk = found.kind === "loaded" ? found.file : undefined;
  if (trail.writes > 0) {
    const recorded = trailBoard(trail);
    if (recorded.ok) return restore(recorded.file, disk, found.kind === "loaded" ? "changed" : found.kind, trail.head.revision, now);
    if (disk) return unverified(disk, "bad_record", now);
    return { kind: "trusted" }; // nothing on disk and no usable record: a new board, as without the check
  }
  if (!disk || disk.tasks.length === 0) return { kind: "trusted" };
  return unverified(disk, "no_record", now);
}

function restore(mine: BoardFile, disk: BoardFile | undefined, found: "changed" | "missing" | "corrupt", recorded: number, now: number): ResumeCheck {
  const onDisk = new Map((disk?.tasks ?? []).map((t) => [t.id, t]));
  const changes: TaskChange[] = [];
  const tasks = mine.tasks.map((t) => {
    const there = onDisk.get(t.id);
    onDisk.delete(t.id);
    if (there && JSON.stringify(there) === JSON.stringify(t)) return t;
    const said = there ? `${summary(there)}; changed: ${differing(t, there)}` : "nothing: the task was missing";
    const note = `board.json was changed outside the leader: it said ${said}. Not taken as fact: the leader's record (revision ${recorded}) was restored${HOLDING.has(t.state.status) ? " and its claim dropped" : ""}.`;
    const fixed = distrust(t, note, false, now);
    changes.push({ id: t.id, kind: there ? "changed" : "removed", said, now: fixed.state.status });
    return fixed;
  });
  for (const t of onDisk.values()) changes.push({ id: t.id, kind: "added", said: summary(t), now: "dropped" });
  const revision = Math.max(recorded, disk?.revision ?? 0) + 1;
  return { kind: "restored", found, recorded, file: { ...mine, revision, tasks }, changes };
}

function unverified(disk: BoardFile, why: "no_record" | "bad_record", now: number): ResumeCheck {
  const changes: TaskChange[] = [];
  const reason = why === "no_record" ? "this session has no record of the leader's writes" : "the leader's record of its writes does not make a valid board";
  const tasks = disk.tasks.map((t) => {
    const reset = HOLDING.has(t.state.status) || t.state.status === "completed";
    if (!reset && t.lastResult === undefined) return t;
    const said = summary(t);
    const note = `board.json could not be checked (${reason}): it said ${said}. Not taken as fact: ${reset ? "back to pending" : "kept pending"}, result not kept.`;
    const fixed = distrust(t, note, true, now);
    changes.push({ id: t.id, kind: "unverified", said, now: fixed.state.status });
    return fixed;
  });
  return { kind: "unverified", why, file: { ...disk, revision: disk.revision + 1, tasks }, changes };
}

/**
 * `t` with its claim dropped (pending, notices re-armed), a completion too when `clearResult`
 * (unverifiable) along with its result, and `note` as its last error.
 */
function distrust(t: FileTask, note: string, clearResult: boolean, now: number): FileTask {
  const { lastResult, ...rest } = t;
  const back = HOLDING.has(t.state.status) || (clearResult && t.state.status === "completed");
  return {
    ...rest,
    ...(clearResult || lastResult === undefined ? {} : { lastResult }),
    state: back ? { status: "pending" } : t.state,
    noticeEpoch: back ? t.noticeEpoch + 1 : t.noticeEpoch,
    lastError: note,
    updatedAt: now,
  };
}

/** `completed by "w2" with a result`: status, who, whether it carries a result. Names quoted and cut. */
export function summary(t: Task): string {
  const s = t.state;
  const who = s.status === "completed" ? s.by : s.status === "superseded" ? s.holder?.name : "holding" in s ? s.holding.holder.name : undefined;
  return `${s.status}${who !== undefined ? ` by ${quote(who)}` : ""}${t.lastResult !== undefined ? " with a result" : ""}`;
}

/** The top-level fields of two versions of a task that differ, e.g. `state, lastResult`. */
function differing(a: Task, b: Task): string {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  const ra = a as unknown as Record<string, unknown>;
  const rb = b as unknown as Record<string, unknown>;
  return [...keys].filter((k) => JSON.stringify(ra[k]) !== JSON.stringify(rb[k])).join(", ");
}

function quote(text: string): string {
  return JSON.stringify(resultPreview(text, 40).text);
}

/** At most this many tasks are listed in the flag; the rest are counted. */
export const CHANGES_LISTED = 20;

/**
 * The flag for the user and the leader's next turn: what was found, what was restored or reset,
 * and where the file as found was kept (`keptAt`). Undefined for a trusted board.
 */
export function resumeCheckText(check: ResumeCheck, keptAt: string | undefined): string | undefined {
  if (check.kind === "trusted") return undefined;
  const head =
    check.kind === "restored"
      ? `${check.found === "changed" ? "board.json was changed outside the leader" : check.found === "missing" ? "board.json was missing" : "board.json was unreadable"} since the leader's last write (revision ${check.recorded}). The board was restored from the leader's own record of its writes (kept in this Pi session); what the file said is not taken as fact.`
      : `board.json could not be checked: ${check.why === "no_record" ? "this Pi session has no record of the leader writing it (a session without a file, a board written before this check existed, or a record removed)" : "the leader's record of its writes in this Pi session does not make a valid board"}. Its claims, completions and results are not taken as fact.`;
  const lines = check.changes.slice(0, CHANGES_LISTED).map((c) => `- \`${c.id}\`: ${changeLine(c)}`);
  const more = check.changes.length - lines.length;
  if (more > 0) lines.push(`- … and ${more} more (task_list shows each with a note)`);
  if (check.changes.length === 0) lines.push("- no task was claimed, in review, parked, completed or carried a result");
  return [head, ...lines, ...(keptAt ? [`The file as found is kept at ${keptAt}.`] : [])].join("\n");
}

function changeLine(c: TaskChange): string {
  switch (c.kind) {
    case "changed":
      return `it said ${c.said} → ${c.now} (the leader's record)`;
    case "removed":
      return `missing from the file → restored, ${c.now}`;
    case "added":
      return `never written by the leader (it said ${c.said}) → dropped`;
    case "unverified":
      return `it said ${c.said} → ${c.now}, result not kept`;
  }
}
