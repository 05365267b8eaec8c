/**
 * The wire of a teammate's RPC pipe (references/mail-format.md, "Over the RPC pipe").
 * Leader → teammate, on every transport: the extension command `/pi-teams-stream <json>` on the
 * child's stdin, which Pi runs at once, even mid-run, without a model call; it carries the answer
 * to a waiting call (a board decision on an intent file or a stream record, a mail verdict, a
 * board view) and, for a stream teammate, the roster. Teammate → leader, on the stream transport
 * only (a teammate that shares no files with the leader, a launcher other than `local`): a custom
 * session entry (`pi.appendEntry`), which Pi's RPC mode prints on the child's stdout as
 * `entry_appended`. No record names its sender: the pipe it came on does (the leader owns every
 * child's pipe).
 */
import { Type, type Static } from "typebox";
import { BoardRejectionSchema } from "./rejections.ts";
import { MessageIdSchema, ReportStatusSchema } from "./envelope.ts";
import { INTENT_RESULT_MAX_CHARS, INTENT_TASK_ID_MAX_CHARS } from "./intents.ts";
import { RosterFileSchema } from "./roster-file.ts";

/** The `customType` of a teammate's stream record entry. */
export const STREAM_ENTRY_TYPE = "pi-teams:record";

/** The teammate's extension command that takes the leader's answers and roster. */
export const STREAM_COMMAND = "pi-teams-stream";

/** How long a teammate's call waits for the leader's answer on its pipe, ms; then it fails with `timeout`. */
export const ANSWER_TIMEOUT_MS = 120_000;

/** A teammate's record on its pipe: a report, peer mail, a board intent or a board view request. */
export const StreamRecordSchema = Type.Union([
  Type.Object({ kind: Type.Literal("report"), id: MessageIdSchema, body: Type.String(), status: ReportStatusSchema }),
  Type.Object({ kind: Type.Literal("mail"), id: MessageIdSchema, to: Type.String({ maxLength: 256 }), body: Type.String() }),
  Type.Object({
    kind: Type.Literal("intent"),
    id: MessageIdSchema,
    action: Type.Union([Type.Literal("claim"), Type.Literal("submit")]),
    taskId: Type.Optional(Type.String({ minLength: 1, maxLength: INTENT_TASK_ID_MAX_CHARS })),
    status: Type.Optional(Type.Union([Type.Literal("completed"), Type.Literal("failed")])),
    result: Type.Optional(Type.String({ maxLength: INTENT_RESULT_MAX_CHARS })),
  }),
  Type.Object({
    kind: Type.Literal("board_view"),
    id: MessageIdSchema,
    taskId: Type.Optional(Type.String({ maxLength: INTENT_TASK_ID_MAX_CHARS })),
    offset: Type.Optional(Type.Integer({ minimum: 0 })),
  }),
]);
export type StreamRecord = Static<typeof StreamRecordSchema>;

/** The records the leader answers (the teammate's tool call waits for the answer). */
export type StreamRequest = Exclude<StreamRecord, { kind: "report" }>;

/**
 * The leader's decision on one board intent (an intent file or a stream record), as it travels on
 * the teammate's pipe: no envelope, no seal (only the leader writes to that pipe). The tool call
 * returns it (W11); a rejection carries its code.
 */
export const BoardDecisionSchema = Type.Object({
  ok: Type.Boolean(),
  /** Rejection code (src/mail/rejections.ts), absent when accepted. */
  reason: Type.Optional(BoardRejectionSchema),
  /** Text for the teammate's model: what happened and what to do next. */
  message: Type.String(),
  taskId: Type.Optional(Type.String()),
});
export type BoardDecision = Static<typeof BoardDecisionSchema>;

/** What the leader writes to a teammate's stdin: the answer to one request, or (stream transport) the roster. */
export const StreamDownSchema = Type.Union([
  /**
   * The answer to one request, `id` being the request's (an intent file's id for a file
   * teammate's claim or submission). Mail: `ok` with `text` the recipient's name as spawned, or
   * the refusal. Intent: `decision`, `text` its message. Board view: `ok` with the text, or the
   * error and its `error` code.
   */
  Type.Object({
    kind: Type.Literal("answer"),
    id: MessageIdSchema,
    ok: Type.Boolean(),
    text: Type.String(),
    decision: Type.Optional(BoardDecisionSchema),
    error: Type.Optional(Type.Union([Type.Literal("not_found"), Type.Literal("io_error"), Type.Literal("invalid_input")])),
  }),
  Type.Object({ kind: Type.Literal("roster"), roster: RosterFileSchema }),
]);
export type StreamDown = Static<typeof StreamDownSchema>;
export type StreamAnswer = Extract<StreamDown, { kind: "answer" }>;

/** The prompt text that carries `down` to a teammate (one line: JSON escapes every newline). */
export function streamCommandText(down: StreamDown): string {
  return `/${STREAM_COMMAND} ${JSON.stringify(down)}`;
}
