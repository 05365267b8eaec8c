/**
 * Holders that go away (R21, R56) and boards that come back (R60, references/contract.md 1.I).
 */
import { commit, holderOf, sameHolder, type Board } from "./board.ts";
import { loadBoard, type BoardFile } from "./schema.ts";
import { moveTask } from "./transition.ts";
import type { Accepted, Effect, Holder, Task } from "./types.ts";
import { reviewerPrompt } from "./verdict.ts";

/** A teammate that stopped. Without `spawnId`, every incarnation of the name is released. */
export interface GoneHolder {
  readonly name: string;
  readonly spawnId?: string;
}

/** `released`: tasks returned to pending. `dropped`: superseded tasks whose holder was cleared. */
export type ReleaseResult = Accepted<{ released: string[]; dropped: string[] }>;

function releaseOne(board: Board, task: Task, why: string, now: number, effects: Effect[]): "released" | "dropped" {
  const { state } = task;
  if (state.status === "superseded") {
    moveTask(board, task, { status: "superseded", by: state.by, supersededAt: state.supersededAt }, now);
    return "dropped";
  }
  if (state.status === "in_review") effects.push({ type: "abort_reviewer", token: state.gate.token, taskId: task.id, reason: "holder_gone" });
  task.lastError = why;
  task.noticeEpoch += 1; // released work re-arms notices (R54)
  moveTask(board, task, { status: "pending" }, now);
  return "released";
}

function releaseWhere(board: Board, name: string, matches: (h: Holder) => boolean, why: string, now: number, effects: Effect[]): { released: string[]; dropped: string[] } {
  const released: string[] = [];
  const dropped: string[] = [];
  for (const id of [...(board.index.holders.get(name) ?? [])]) {
    const task = board.tasks.get(id);
    const holder = task && holderOf(task.state);
    if (!task || !holder || !matches(holder)) continue;
    (releaseOne(board, task, why, now, effects) === "released" ? released : dropped).push(id);
  }
  return { released, dropped };
}

/**
 * Releases everything `who` holds at `now` (ms), for a requested shutdown or a crash (R21, R56).
 * Claimed, parked and in-review tasks return to pending with the reason kept and notices
 * re-armed; a running reviewer gets `abort_reviewer`. Superseded tasks only lose the holder
 * (and its resource lock). Call it when the shutdown is *requested*, so a late PASS from a
 * reviewer is already stale (L9). Idempotent: a second call changes nothing and emits no effects.
 */
export function releaseHolder(board: Board, who: GoneHolder, reason: "shutdown" | "crash", now: number): ReleaseResult {
  const effects: Effect[] = [];
  const why = `@${who.name} ${reason === "crash" ? "crashed" : "was shut down"} while holding this task`;
  const result = releaseWhere(board, who.name, (h) => who.spawnId === undefined || h.spawnId === who.spawnId, why, now, effects);
  if (result.released.length + result.dropped.length > 0) effects.push(commit(board));
  return { ok: true, ...result, effects };
}

function restartGates(board: Board, now: number, effects: Effect[]): string[] {
  const restarted: string[] = [];
  for (const id of [...board.index.gates.values()]) {
    const task = board.tasks.get(id);
    if (task?.state.status !== "in_review") continue;
    const { holding, gate } = task.state;
    const token = `${task.id}#g${board.nextGate}`;
    board.nextGate += 1;
    moveTask(board, task, { status: "in_review", holding, gate: { ...gate, token, clarified: false, startedAt: now } }, now);
    const prompt = reviewerPrompt({ task, criteria: gate.criteria, result: task.lastResult ?? "", attempt: gate.attempt });
    effects.push({ type: "start_reviewer", token, taskId: task.id, holder: holding.holder, prompt });
    restarted.push(task.id);
  }
  return restarted;
}

/** A reloaded board plus what reload changed. */
export interface RevivedBoard {
  readonly board: Board;
  /** Claimed, parked or in-review tasks of dead holders, now pending. */
  readonly released: string[];
  /** Superseded tasks that lost a dead holder. */
  readonly dropped: string[];
  /** In-review tasks of living holders whose reviewer died with the old leader; a fresh run starts. */
  readonly restarted: string[];
  readonly effects: Effect[];
}

/**
 * Turns a parsed board file into a live board at `now` (ms) (R60): holdings of teammates not in
 * `living` (matched by name and spawn id) are released as in `releaseHolder`; in-review tasks of
 * living holders get a fresh gate token and a `start_reviewer` effect, keeping their attempt.
 * Emits `persist` when anything changed.
 */
export function reviveBoard(file: BoardFile, living: readonly Holder[], now: number): RevivedBoard {
  const board = loadBoard(file);
  const effects: Effect[] = [];
  const alive = (h: Holder): boolean => living.some((l) => sameHolder(l, h));
  const released: string[] = [];
  const dropped: string[] = [];
  for (const name of [...board.index.holders.keys()]) {
    const r = releaseWhere(board, name, (h) => !alive(h), `@${name} no longer lives (board reloaded)`, now, []);
    released.push(...r.released);
    dropped.push(...r.dropped);
  }
  const restarted = restartGates(board, now, effects);
  if (released.length + dropped.length + restarted.length > 0) effects.push(commit(board));
  return { board, released, dropped, restarted, effects };
}
