/**
 * board.json format v1 (R42, R58, L8, W5): typebox schema, the one parser, and the serializer.
 * The parser returns a reasoned failure for anything it cannot trust; a corrupt or empty file is
 * never an empty board. Documented in references/board-format.md.
 */
import { Type, type Static } from "typebox";
import { Compile } from "typebox/compile";
import { errorText } from "../error-text.ts";
import { createBoard, indexBoard, type Board } from "./board.ts";
import { normalizeResource } from "./resources.ts";
import { MAX_ID_LENGTH } from "./slug.ts";
import type { Task } from "./types.ts";

/** The format version this build reads and writes. */
export const BOARD_FORMAT_VERSION = 1;

const Ms = Type.Number({ minimum: 0 });
const Count = Type.Integer({ minimum: 0 });
const TaskId = Type.String({ pattern: "^[a-z0-9]+(-[a-z0-9]+)*$", maxLength: MAX_ID_LENGTH });
const HolderSchema = Type.Object({ name: Type.String({ minLength: 1 }), spawnId: Type.String({ minLength: 1 }) });
const HoldingSchema = Type.Object({ holder: HolderSchema, claimedAt: Ms, failures: Count, reviews: Count });
const GateSchema = Type.Object({
  token: Type.String({ minLength: 1 }),
  attempt: Type.Integer({ minimum: 1 }),
  clarified: Type.Boolean(),
  startedAt: Ms,
  criteria: Type.String(),
});

const StateSchema = Type.Union([
  Type.Object({ status: Type.Literal("pending") }),
  Type.Object({ status: Type.Literal("claimed"), holding: HoldingSchema }),
  Type.Object({ status: Type.Literal("in_review"), holding: HoldingSchema, gate: GateSchema }),
  // `allowance` was added within v1: files without it load as before (no allowance).
  Type.Object({ status: Type.Literal("parked"), holding: HoldingSchema, allowance: Type.Optional(Type.Object({ grantedAt: Ms })) }),
  Type.Object({ status: Type.Literal("completed"), completedAt: Ms, by: Type.Optional(Type.String()) }),
  Type.Object({ status: Type.Literal("superseded"), by: TaskId, supersededAt: Ms, holder: Type.Optional(HolderSchema) }),
]);

const TaskSchema = Type.Object({
  id: TaskId,
  seq: Type.Integer({ minimum: 1 }),
  subject: Type.String({ minLength: 1 }),
  description: Type.Optional(Type.String()),
  dependsOn: Type.Array(TaskId),
  resources: Type.Array(Type.String({ minLength: 1 })),
  verify: Type.Optional(Type.String()),
  supersedes: Type.Array(TaskId),
  createdAt: Ms,
  updatedAt: Ms,
  state: StateSchema,
  lastError: Type.Optional(Type.String()),
  // Added within v1: files without it load as a task that never failed.
  failedSubmits: Type.Optional(Count),
  lastResult: Type.Optional(Type.String()),
  noticeEpoch: Count,
});

/** The whole file. `revision` is the board's change counter, `version` the format. */
export const BoardFileSchema = Type.Object({
  version: Type.Literal(BOARD_FORMAT_VERSION),
  revision: Count,
  nextSeq: Type.Integer({ minimum: 1 }),
  nextGate: Type.Integer({ minimum: 1 }),
  tasks: Type.Array(TaskSchema),
});
/** A parsed, schema-valid and consistent board.json. */
export type BoardFile = Static<typeof BoardFileSchema>;

// Compiled once, at the first parse (immutable after): a 10,000-task board is checked in
// milliseconds, not hundreds of them. Not at import: compiling takes some 10-40 ms, which every
// teammate would pay at its start although most never read the board.
const checker = once(() => Compile(BoardFileSchema));

/** `make()`'s result, made at the first call and returned by every call. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

// Compile-time proof that a parsed task is a `Task` (the schema and the type cannot drift apart).
const asTask = (t: Static<typeof TaskSchema>): Task => t;

/** Why board.json could not be trusted; never means "empty board". */
export type BoardParseFailure = "empty" | "corrupt_json" | "unsupported_version" | "invalid_schema" | "inconsistent";

/**
 * `parseBoardFile` result. On failure `problem` says what is wrong with the file (for any
 * reader, a teammate too) and `message` adds the rule for the code that loads it: move the file
 * aside and report it, never overwrite it.
 */
export type BoardParseResult = { ok: true; file: BoardFile } | { ok: false; reason: BoardParseFailure; problem: string; message: string };

const ADVICE = "The file was not loaded; move it aside and report it, never overwrite it.";
const fail = (reason: BoardParseFailure, problem: string): BoardParseResult => ({ ok: false, reason, problem, message: `${problem} ${ADVICE}` });

function integrity(file: BoardFile): string | undefined {
  const ids = new Set<string>();
  const seqs = new Set<number>();
  const tokens = new Set<string>();
  for (const t of file.tasks) {
    if (ids.has(t.id)) return `task id \`${t.id}\` appears twice`;
    if (seqs.has(t.seq)) return `task seq ${t.seq} appears twice (\`${t.id}\`)`;
    ids.add(t.id);
    seqs.add(t.seq);
    if (t.state.status === "in_review") {
      if (tokens.has(t.state.gate.token)) return `gate token \`${t.state.gate.token}\` appears twice`;
      tokens.add(t.state.gate.token);
    }
    const bad = t.resources.find((r) => {
      const n = normalizeResource(r);
      return !n.ok || n.tag !== r;
    });
    if (bad !== undefined) return `task \`${t.id}\` has resource ${JSON.stringify(bad)}, which is not a normalised tag`;
  }
  for (const t of file.tasks) {
    const refs = [...t.dependsOn, ...t.supersedes, ...(t.state.status === "superseded" ? [t.state.by] : [])];
    const unknown = refs.find((r) => !ids.has(r));
    if (unknown !== undefined) return `task \`${t.id}\` refers to unknown task \`${unknown}\``;
    if (t.dependsOn.includes(t.id)) return `task \`${t.id}\` depends on itself`;
  }
  return undefined;
}

/**
 * Parses board.json text. Never throws, never returns an empty board for bad input (L8):
 * `empty` (blank file), `corrupt_json`, `unsupported_version` (another format version),
 * `invalid_schema` (first problems with their JSON paths), `inconsistent` (duplicate ids or
 * tokens, unknown references, unnormalised resources). A missing file is the caller's business
 * (ENOENT means a new board).
 */
export function parseBoardFile(text: string): BoardParseResult {
  if (text.trim() === "") return fail("empty", "board.json is empty.");
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return fail("corrupt_json", `board.json is not valid JSON (${errorText(error)}).`);
  }
  const version = typeof data === "object" && data !== null && "version" in data ? data.version : undefined;
  if (version !== BOARD_FORMAT_VERSION) {
    return fail(
      version === undefined ? "invalid_schema" : "unsupported_version",
      version === undefined
        ? `board.json has no "version" field; expected version ${BOARD_FORMAT_VERSION}.`
        : `board.json has format version ${JSON.stringify(version)}; this build reads version ${BOARD_FORMAT_VERSION}.`,
    );
  }
  if (!checker().Check(data)) {
    const problems = checker()
      .Errors(data)
      .slice(0, 3)
      .map((e) => `${e.instancePath || "/"}: ${e.message}`)
      .join("; ");
    return fail("invalid_schema", `board.json does not match format v${BOARD_FORMAT_VERSION}: ${problems}.`);
  }
  const broken = integrity(data);
  if (broken) return fail("inconsistent", `board.json is inconsistent: ${broken}.`);
  return { ok: true, file: data };
}

/**
 * Builds a board from a parsed file, with indexes. The board takes ownership of the file's task
 * objects. Counters are repaired upward if a hand-edited file left them too low.
 */
export function loadBoard(file: BoardFile): Board {
  const board = createBoard();
  let maxSeq = 0;
  let maxGate = 0;
  for (const raw of file.tasks) {
    const task = asTask(raw);
    board.tasks.set(task.id, task);
    maxSeq = Math.max(maxSeq, task.seq);
    if (task.state.status === "in_review") maxGate = Math.max(maxGate, Number(/#g(\d+)$/.exec(task.state.gate.token)?.[1] ?? 0));
  }
  board.revision = file.revision;
  board.nextSeq = Math.max(file.nextSeq, maxSeq + 1);
  board.nextGate = Math.max(file.nextGate, maxGate + 1);
  indexBoard(board);
  return board;
}

/**
 * The board as board.json text: format v1, one task per line (readable and diff-friendly at
 * 10,000 tasks). The caller writes it atomically; the result shares nothing with the board.
 */
export function serializeBoard(board: Board): string {
  return boardParts(board).text;
}

/** board.json's header fields beside `version`. */
export interface BoardHead {
  readonly revision: number;
  readonly nextSeq: number;
  readonly nextGate: number;
}

/** board.json text with its parts: the header and each task's line (`JSON.stringify(task)`), by id. */
export interface BoardParts {
  readonly head: BoardHead;
  /** [task id, task line], in creation order. */
  readonly tasks: readonly (readonly [string, string])[];
  readonly text: string;
}

/** The board as board.json text and the parts it is made of (the leader's write record keeps the parts). */
export function boardParts(board: Board): BoardParts {
  const head = { revision: board.revision, nextSeq: board.nextSeq, nextGate: board.nextGate };
  const tasks: [string, string][] = [];
  for (const task of board.tasks.values()) tasks.push([task.id, JSON.stringify(task)]);
  return { head, tasks, text: joinBoardText(head, tasks.map(([, line]) => line)) };
}

/** The one layout of format v1: the header, then one task line each, in the order given. */
export function joinBoardText(head: BoardHead, lines: readonly string[]): string {
  const top = JSON.stringify({ version: BOARD_FORMAT_VERSION, revision: head.revision, nextSeq: head.nextSeq, nextGate: head.nextGate });
  return `${top.slice(0, -1)},"tasks":[${lines.length ? `\n${lines.join(",\n")}\n` : ""}]}\n`;
}
