/**
 * The board aggregate: tasks by id plus derived indexes, so create, claim and submit cost grows
 * with the tasks they touch, not with the board size. One writer (the leader) owns a `Board`;
 * operations either reject without touching it or apply completely and bump `revision`.
 * Indexes are never persisted; `indexBoard` rebuilds them on load.
 */
import { assertNever } from "../errors.ts";
import { createHeldResources, holdResources, type HeldResources } from "./resources.ts";
import { TASK_STATUSES, type Effect, type Holder, type Task, type TaskState, type TaskStatus } from "./types.ts";

/** Derived lookups. Callers read them; only `transition.ts` and `create.ts` write them. */
export interface BoardIndex {
  /** dep id → ids of tasks whose `dependsOn` lists it. */
  readonly dependents: Map<string, Set<string>>;
  /** task id → how many of its dependencies are not completed. */
  readonly unmet: Map<string, number>;
  /** Pending tasks with every dependency completed, ordered by `seq` (claim candidates). */
  readonly ready: Task[];
  /** holder name → ids of tasks it holds (claimed, in review, parked, or superseded with holder). */
  readonly holders: Map<string, Set<string>>;
  /** Resource tags locked by board holdings. */
  readonly held: HeldResources;
  /** gate token → id of the task in review under it. */
  readonly gates: Map<string, string>;
  /** Number of tasks per status. */
  readonly counts: Record<TaskStatus, number>;
  /** Next clash suffix per slug base (see `allocateTaskId`). */
  readonly slugHints: Map<string, number>;
}

/** The board. `tasks` iterates in creation order. */
export interface Board {
  readonly tasks: Map<string, Task>;
  /** Bumped once per applied operation; the shell persists when it moved. */
  revision: number;
  /** Next task `seq`. */
  nextSeq: number;
  /** Next gate-run number, used in tokens; persisted so tokens never repeat across reloads. */
  nextGate: number;
  readonly index: BoardIndex;
}

function emptyCounts(): Record<TaskStatus, number> {
  const counts = Object.create(null) as Record<TaskStatus, number>;
  for (const s of TASK_STATUSES) counts[s] = 0;
  return counts;
}

/** A new empty board at revision 0. */
export function createBoard(): Board {
  return {
    tasks: new Map(),
    revision: 0,
    nextSeq: 1,
    nextGate: 1,
    index: {
      dependents: new Map(),
      unmet: new Map(),
      ready: [],
      holders: new Map(),
      held: createHeldResources(),
      gates: new Map(),
      counts: emptyCounts(),
      slugHints: new Map(),
    },
  };
}

/** The holder of a state, if the state carries one (claimed, in review, parked, live superseded). */
export function holderOf(state: TaskState): Holder | undefined {
  switch (state.status) {
    case "claimed":
    case "in_review":
    case "parked":
      return state.holding.holder;
    case "superseded":
      return state.holder;
    case "pending":
    case "completed":
      return undefined;
    default:
      return assertNever(state, "task state");
  }
}

/** True when two incarnations are the same (name and spawn id). */
export function sameHolder(a: Holder, b: Holder): boolean {
  return a.name === b.name && a.spawnId === b.spawnId;
}

function readyPosition(ready: readonly Task[], seq: number): number {
  let lo = 0;
  let hi = ready.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((ready[mid] as Task).seq < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Inserts a task into the ready list (kept sorted by seq). No-op when already present. */
export function addReady(index: BoardIndex, task: Task): void {
  const at = readyPosition(index.ready, task.seq);
  if (index.ready[at] !== task) index.ready.splice(at, 0, task);
}

/** Removes a task from the ready list. No-op when absent. */
export function removeReady(index: BoardIndex, task: Task): void {
  const at = readyPosition(index.ready, task.seq);
  if (index.ready[at] === task) index.ready.splice(at, 1);
}

/** Adds `taskId` to the dependents of `depId`. */
export function addDependent(index: BoardIndex, depId: string, taskId: string): void {
  const set = index.dependents.get(depId);
  if (set) set.add(taskId);
  else index.dependents.set(depId, new Set([taskId]));
}

/** Records that `holder` holds `task` (holder map and resource locks). */
export function addHolding(index: BoardIndex, task: Task, holder: Holder): void {
  const set = index.holders.get(holder.name);
  if (set) set.add(task.id);
  else index.holders.set(holder.name, new Set([task.id]));
  holdResources(index.held, task.resources, { name: holder.name, taskId: task.id });
}

/** Ids of the unfinished dependencies of a task, in its `dependsOn` order. */
export function unmetDependencies(board: Board, task: Task): string[] {
  return task.dependsOn.filter((id) => board.tasks.get(id)?.state.status !== "completed");
}

/** Task ids `name` holds on the board (any incarnation). */
export function heldBy(board: Board, name: string): string[] {
  return [...(board.index.holders.get(name) ?? [])];
}

/**
 * Rebuilds every index of `board` from its tasks (used after load). O(tasks + edges).
 * Assumes referential integrity, which `parseBoardFile` checks.
 */
export function indexBoard(board: Board): void {
  const { index } = board;
  for (const task of board.tasks.values()) {
    index.counts[task.state.status] += 1;
    for (const dep of task.dependsOn) addDependent(index, dep, task.id);
    index.unmet.set(task.id, unmetDependencies(board, task).length);
    const holder = holderOf(task.state);
    if (holder) addHolding(index, task, holder);
    if (task.state.status === "in_review") index.gates.set(task.state.gate.token, task.id);
  }
  const ready = [...board.tasks.values()].filter((t) => t.state.status === "pending" && index.unmet.get(t.id) === 0);
  ready.sort((a, b) => a.seq - b.seq);
  index.ready.push(...ready);
}

/** Bumps the revision once for an applied operation and returns the matching `persist` effect. */
export function commit(board: Board): Effect {
  board.revision += 1;
  return { type: "persist", revision: board.revision };
}
