/**
 * Scenario state of the board features, kept on the shared World under `board` (no custom
 * World constructor: other features share it). The steps are thin calls into src/board; this
 * file only plays the shell's part (who lives, who is idle, which effects were emitted).
 */
import assert from "node:assert/strict";
import {
  createBoard,
  createNoticeBook,
  planNotices,
  DEFAULT_NOTICE_PACE_MS,
  type Assignment,
  type Board,
  type Effect,
  type Holder,
  type NoticeBook,
  type NoticeTeammate,
} from "../../src/board/index.ts";

/** One living teammate as the fake shell tracks it. */
export interface Mate {
  name: string;
  spawnId: string;
  idle: boolean;
  hasAssignment: boolean;
  assignmentResources: string[];
  roleVerify?: string;
}

/** The last operation's outcome in a form every step can read. */
export interface LastResult {
  ok: boolean;
  reason?: string;
  message?: string;
  effects: Effect[];
  outcome?: string;
  taskId?: string;
}

export interface BoardScene {
  board: Board;
  book: NoticeBook;
  now: number;
  paceMs: number;
  mates: Map<string, Mate>;
  last?: LastResult;
  /** Every effect emitted in the scenario, in order. */
  effects: Effect[];
  /** Notices of the last planning round (create or explicit). */
  notices: Effect[];
  /** Gate tokens started per task, oldest first. */
  tokens: Map<string, string[]>;
  text?: string;
  created?: string;
  /** Results of a claim race, one per racer. */
  race?: (LastResult & { name: string })[];
}

/** The scenario's board state, created on first use. */
export function scene(world: object): BoardScene {
  const w = world as { board?: BoardScene };
  w.board ??= {
    board: createBoard(),
    book: createNoticeBook(),
    now: 0,
    paceMs: DEFAULT_NOTICE_PACE_MS,
    mates: new Map(),
    effects: [],
    notices: [],
    tokens: new Map(),
  };
  return w.board;
}

/** Splits "a, b, c" into trimmed names; empty text gives []. */
export function names(list: string): string[] {
  return list
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

/** The living teammate `name`, added (idle, no assignment) if the scenario has not met it yet. */
export function mate(s: BoardScene, name: string): Mate {
  let m = s.mates.get(name);
  if (!m) {
    m = { name, spawnId: `${name}-1`, idle: true, hasAssignment: false, assignmentResources: [] };
    s.mates.set(name, m);
  }
  return m;
}

export function holder(m: Mate): Holder {
  return { name: m.name, spawnId: m.spawnId };
}

/** Active direct assignments of living teammates. */
export function assignments(s: BoardScene): Assignment[] {
  return [...s.mates.values()].filter((m) => m.hasAssignment).map((m) => ({ name: m.name, resources: m.assignmentResources }));
}

export function noticeTeammates(s: BoardScene): NoticeTeammate[] {
  return [...s.mates.values()].map((m) => ({ name: m.name, spawnId: m.spawnId, idle: m.idle, hasAssignment: m.hasAssignment }));
}

/** Records an operation's result and effects the way the shell would see them. */
export function record(s: BoardScene, result: LastResult): void {
  s.last = result;
  s.effects.push(...result.effects);
  for (const e of result.effects) {
    if (e.type === "start_reviewer") s.tokens.set(e.taskId, [...(s.tokens.get(e.taskId) ?? []), e.token]);
  }
}

/** A notice planning round, as the shell runs after board changes and idle transitions. */
export function planRound(s: BoardScene, synchronous: boolean, onlyTaskIds?: string[]): void {
  const plan = planNotices(s.board, s.book, {
    teammates: noticeTeammates(s),
    assignments: assignments(s),
    now: s.now,
    paceMs: s.paceMs,
    synchronous,
    ...(onlyTaskIds ? { onlyTaskIds } : {}),
  });
  s.notices = plan.effects;
  s.effects.push(...plan.effects);
  s.last = { ok: true, effects: plan.effects };
}

/** The last result, failing the step when there is none. */
export function lastResult(s: BoardScene): LastResult {
  assert.ok(s.last, "no board operation ran yet");
  return s.last;
}

/** Asserts a rejection with `reason` whose message names every item of `mentions`. */
export function assertRejected(s: BoardScene, reason: string, mentions: string): void {
  const r = lastResult(s);
  assert.equal(r.ok, false, `expected a rejection, got success (${r.outcome ?? ""})`);
  assert.equal(r.reason, reason, r.message);
  for (const m of names(mentions)) assert.ok(r.message?.includes(m), `message ${JSON.stringify(r.message)} does not name ${JSON.stringify(m)}`);
}

/** Replaces the two-character sequence \n in Gherkin text with a newline. */
export function unescape(text: string): string {
  return text.replace(/\\n/g, "\n");
}
