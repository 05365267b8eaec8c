/**
 * task_create in the core (R34–R35, R40–R41, L25–L26 handled in inputs.ts): validation, the new
 * pending task, and supersession of obsolete tasks.
 */
import { commit, holderOf, type Board } from "./board.ts";
import { normalizeResource } from "./resources.ts";
import { allocateTaskId } from "./slug.ts";
import { insertTask, moveTask, repointDependency } from "./transition.ts";
import type { Accepted, Effect, Rejected, Task } from "./types.ts";

/** Normalised task_create input (see `normalizeCreateInput` for the raw tool input). */
export interface CreateInput {
  readonly subject: string;
  readonly description?: string;
  readonly dependsOn?: readonly string[];
  readonly verify?: string;
  readonly resources?: readonly string[];
  readonly supersedes?: readonly string[];
}

/** Why a task_create was refused. */
export type CreateRejection =
  | "invalid_input"
  | "invalid_resource"
  | "self_reference"
  | "unknown_ref"
  | "depends_and_supersedes"
  | "supersede_completed"
  | "already_superseded"
  | "superseded_dependency"
  | "cycle";

/** A dependent whose `dependsOn` now names the replacement instead of the superseded task. */
export interface Repointed {
  readonly taskId: string;
  readonly from: string;
  readonly to: string;
}

/** The new task with what supersession changed, or a rejection. */
export type CreateResult =
  | Accepted<{ task: Task; superseded: string[]; repointed: Repointed[] }>
  | Rejected<CreateRejection>;

const code = (id: string): string => `\`${id}\``;
const list = (ids: readonly string[]): string => ids.map(code).join(", ");

function reject(reason: CreateRejection, message: string): Rejected<CreateRejection> {
  return { ok: false, reason, message, effects: [] };
}

function ids(raw: readonly string[] | undefined): string[] {
  return [...new Set((raw ?? []).map((s) => s.trim().toLowerCase()).filter((s) => s !== ""))];
}

/**
 * Finds a dependency path from the new task back to itself once pending dependents of the
 * superseded tasks point at it. Walks only unfinished tasks (a completed task's dependencies are
 * all completed), so the cost is bounded by the open part of the graph the new task reaches.
 */
function findCycle(board: Board, newId: string, dependsOn: readonly string[], superseded: ReadonlySet<string>): string[] | undefined {
  const parent = new Map<string, string>();
  const stack = dependsOn.map((d) => {
    parent.set(d, newId);
    return d;
  });
  const path = (from: string): string[] => {
    const out = [newId, from];
    for (let at = parent.get(from); at !== undefined && at !== newId; at = parent.get(at)) out.splice(1, 0, at);
    return out;
  };
  while (stack.length > 0) {
    const id = stack.pop() as string;
    const task = board.tasks.get(id);
    if (!task || task.state.status === "completed") continue;
    for (const dep of task.dependsOn) {
      const target = task.state.status === "pending" && superseded.has(dep) ? newId : dep;
      if (target === newId) return path(id);
      if (parent.has(target)) continue;
      parent.set(target, id);
      stack.push(target);
    }
  }
  return undefined;
}

function validateRefs(board: Board, id: string, dependsOn: string[], supersedes: string[]): Rejected<CreateRejection> | undefined {
  if (dependsOn.includes(id)) return reject("self_reference", `Task ${code(id)} cannot depend on itself; remove ${code(id)} from dependsOn.`);
  if (supersedes.includes(id)) return reject("self_reference", `Task ${code(id)} cannot supersede itself; remove ${code(id)} from supersedes.`);
  const unknown = ([["dependsOn", dependsOn], ["supersedes", supersedes]] as const)
    .map(([field, refs]) => [field, [...new Set(refs.filter((d) => !board.tasks.has(d)))]] as const)
    .filter(([, ids]) => ids.length > 0);
  if (unknown.length > 0) {
    const named = unknown.map(([field, ids]) => `${field}: unknown task id(s) ${list(ids)}`).join("; ");
    return reject("unknown_ref", `${named}; only ids on this board are accepted (call task_list to see them).`);
  }
  const both = dependsOn.filter((d) => supersedes.includes(d));
  if (both.length > 0) {
    return reject("depends_and_supersedes", `${list(both)} cannot be both a dependency and superseded by the new task; keep it in one list.`);
  }
  for (const s of supersedes) {
    const state = (board.tasks.get(s) as Task).state;
    if (state.status === "completed") return reject("supersede_completed", `Task ${code(s)} is completed and cannot be superseded; create a follow-up task that depends on it instead.`);
    if (state.status === "superseded") return reject("already_superseded", `Task ${code(s)} is already superseded by ${code(state.by)}; supersede ${code(state.by)} instead.`);
  }
  for (const d of dependsOn) {
    const state = (board.tasks.get(d) as Task).state;
    if (state.status === "superseded") return reject("superseded_dependency", `Dependency ${code(d)} is superseded by ${code(state.by)} and will never complete; depend on ${code(state.by)} instead.`);
  }
  return undefined;
}

function supersede(board: Board, target: Task, replacement: Task, now: number, effects: Effect[], repointed: Repointed[]): void {
  const { state } = target;
  const holder = holderOf(state);
  if (state.status === "in_review") {
    effects.push({ type: "abort_reviewer", token: state.gate.token, taskId: target.id, reason: "superseded" });
  }
  moveTask(board, target, { status: "superseded", by: replacement.id, supersededAt: now, ...(holder ? { holder } : {}) }, now);
  if (holder) {
    effects.push({
      type: "tell_holder",
      to: holder,
      taskId: target.id,
      about: "superseded",
      text: `Task ${code(target.id)} is superseded by ${code(replacement.id)} (${replacement.subject}). Stop work on it and acknowledge with task_submit({ taskId: "${target.id}", status: "failed" }); you keep its resource lock until then.`,
    });
  }
  for (const depId of [...(board.index.dependents.get(target.id) ?? [])]) {
    const dependent = board.tasks.get(depId);
    if (dependent?.state.status !== "pending") continue;
    repointDependency(board, dependent, target.id, replacement.id);
    repointed.push({ taskId: depId, from: target.id, to: replacement.id });
  }
}

/**
 * Adds a pending task (R34) at `now` (ms) and supersedes the tasks it names (R40–R41).
 * Rejects, naming the ids: empty subject, bad resource tags, self references, unknown ids, an id
 * in both dependsOn and supersedes, superseding a completed or already superseded task, depending
 * on a superseded task, and dependency cycles (possible only through supersession re-pointing).
 * Effects: `abort_reviewer` for a superseded task in review, `tell_holder` for each live holder
 * of a superseded task, and `persist`. Notices are planned separately (`planNotices`).
 */
export function createTask(board: Board, input: CreateInput, now: number): CreateResult {
  const subject = input.subject.trim();
  if (subject === "") return reject("invalid_input", "subject is empty; give the task a short imperative subject.");
  const resources: string[] = [];
  for (const raw of input.resources ?? []) {
    const r = normalizeResource(raw);
    if (!r.ok) return reject("invalid_resource", `resources: ${r.message}`);
    if (!resources.includes(r.tag)) resources.push(r.tag);
  }
  const dependsOn = ids(input.dependsOn);
  const supersedes = ids(input.supersedes);
  const { slugHints } = board.index;
  const allocated = allocateTaskId(subject, (candidate) => board.tasks.has(candidate), slugHints);
  const { id } = allocated;
  const invalid = validateRefs(board, id, dependsOn, supersedes);
  if (invalid) return invalid;
  if (supersedes.length > 0) {
    const cycle = findCycle(board, id, dependsOn, new Set(supersedes));
    if (cycle) {
      return reject("cycle", `Creating ${code(id)} would close a dependency cycle ${cycle.map(code).join(" → ")} → ${code(id)} once dependents of ${list(supersedes)} are re-pointed to it; drop one of these links.`);
    }
  }
  const description = input.description?.trim();
  const verify = input.verify?.trim();
  const task: Task = {
    id,
    seq: board.nextSeq,
    subject,
    ...(description ? { description } : {}),
    dependsOn,
    resources,
    ...(verify ? { verify } : {}),
    supersedes,
    createdAt: now,
    updatedAt: now,
    state: { status: "pending" },
    noticeEpoch: 0,
  };
  insertTask(board, task);
  if (allocated.next !== undefined) slugHints.set(allocated.base, allocated.next);
  const effects: Effect[] = [];
  const repointed: Repointed[] = [];
  for (const s of supersedes) supersede(board, board.tasks.get(s) as Task, task, now, effects, repointed);
  effects.push(commit(board));
  return { ok: true, task, superseded: supersedes, repointed, effects };
}
