/**
 * The leader's record of its own board.json writes (issue 18, R48, R58): before each write the
 * leader appends one `BoardWrite` to its Pi session (a custom entry, src/boardhost/board-trail.ts),
 * holding the sha256 of the text it is about to write and the lines of the tasks that changed
 * since its last record. Folded at start, the records give the sha256 of the last two writes and
 * the whole board as the leader last wrote it, so a board.json the leader did not write is found
 * and the leader's own board restored (src/board/resume-check.ts). Pure: no I/O, no clock.
 * Documented in references/board-format.md ("The leader's write record").
 */
import { createHash } from "node:crypto";
import { Type, type Static } from "typebox";
import { joinBoardText, parseBoardFile, type BoardHead, type BoardParseResult, type BoardParts } from "./schema.ts";

/** Version of a `BoardWrite` record. */
export const BOARD_WRITE_VERSION = 1;

/** Stand-in digest for "board.json did not exist" (before the first write). */
export const NO_BOARD_FILE = "none";

const Count = Type.Integer({ minimum: 0 });

/** One recorded write. `tasks` holds the changed task lines by id; `gone` ids the board no longer has. */
export const BoardWriteSchema = Type.Object({
  v: Type.Literal(BOARD_WRITE_VERSION),
  /** The session key of the board (references/runtime-state.md); records of other keys are ignored. */
  key: Type.String({ minLength: 1 }),
  revision: Count,
  nextSeq: Type.Integer({ minimum: 1 }),
  nextGate: Type.Integer({ minimum: 1 }),
  sha256: Type.String({ pattern: "^[0-9a-f]{64}$" }),
  tasks: Type.Record(Type.String(), Type.String()),
  gone: Type.Optional(Type.Array(Type.String())),
});
/** One write of board.json as the leader recorded it. */
export type BoardWrite = Static<typeof BoardWriteSchema>;

/** The records of one board, folded: what the leader last wrote. Owned by one writer. */
export interface BoardTrail {
  readonly key: string;
  /** Records folded; 0 when this session recorded no write of this board. */
  writes: number;
  /** sha256 of the last recorded write, and of the one before it (`NO_BOARD_FILE` before the first). */
  last: string | undefined;
  previous: string | undefined;
  head: BoardHead;
  /** id → task line as last recorded, in the order first recorded (creation order). */
  readonly lines: Map<string, string>;
}

/** sha256 of board.json text, lower-case hex. */
export function boardDigest(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** A trail with no writes, for a board this session never wrote. */
export function emptyTrail(key: string): BoardTrail {
  return { key, writes: 0, last: undefined, previous: undefined, head: { revision: 0, nextSeq: 1, nextGate: 1 }, lines: new Map() };
}

/**
 * Folds `writes` (in the order they were appended, already schema-checked) into the trail of the
 * board `key`; records of other keys (a forked session's parent) are skipped.
 */
export function foldTrail(key: string, writes: readonly BoardWrite[]): BoardTrail {
  const trail = emptyTrail(key);
  for (const w of writes) if (w.key === key) apply(trail, w);
  return trail;
}

function apply(trail: BoardTrail, w: BoardWrite): void {
  trail.previous = trail.last ?? NO_BOARD_FILE;
  trail.last = w.sha256;
  trail.writes += 1;
  trail.head = { revision: w.revision, nextSeq: w.nextSeq, nextGate: w.nextGate };
  for (const id of w.gone ?? []) trail.lines.delete(id);
  for (const [id, line] of Object.entries(w.tasks)) trail.lines.set(id, line);
}

/**
 * The record of writing `parts` (whose text hashes to `sha256`): the tasks whose line differs
 * from the trail's, and the ids the board no longer has. Advances `trail` to it, so the next
 * record is relative to this one whether or not the write itself succeeds (a reader folds the
 * same records).
 */
export function recordWrite(trail: BoardTrail, parts: BoardParts, sha256: string): BoardWrite {
  const tasks: Record<string, string> = {};
  let kept = 0;
  for (const [id, line] of parts.tasks) {
    const before = trail.lines.get(id);
    if (before !== undefined) kept += 1;
    if (before !== line) tasks[id] = line;
  }
  const ids = kept < trail.lines.size ? new Set(parts.tasks.map(([id]) => id)) : undefined;
  const gone = ids ? [...trail.lines.keys()].filter((id) => !ids.has(id)) : [];
  const w: BoardWrite = { v: BOARD_WRITE_VERSION, key: trail.key, ...parts.head, sha256, tasks, ...(gone.length > 0 ? { gone } : {}) };
  apply(trail, w);
  return w;
}

/**
 * Whether board.json with digest `found` (`NO_BOARD_FILE` when missing) is one the leader wrote:
 * its last recorded write, or the one before it (a leader killed after recording a write and
 * before its rename left that one).
 */
export function trailTrusts(trail: BoardTrail, found: string): boolean {
  return trail.writes > 0 && (found === trail.last || found === trail.previous);
}

/**
 * The board as the leader last recorded it, parsed like board.json (so a record that makes no
 * valid board is a reasoned failure, never a board). Tasks in `seq` order.
 */
export function trailBoard(trail: BoardTrail): BoardParseResult {
  const parsed = parseBoardFile(joinBoardText(trail.head, [...trail.lines.values()]));
  if (parsed.ok) parsed.file.tasks.sort((a, b) => a.seq - b.seq);
  return parsed;
}
