/**
 * The stream transport's wire (references/mail-format.md, "Over the RPC pipe"): the records of a
 * teammate that shares no files with the leader (a launcher other than `local`). Teammate →
 * leader: a custom session entry (`pi.appendEntry`), which Pi's RPC mode prints on the child's
 * stdout as `entry_appended`. Leader → teammate: the extension command `/pi-teams-stream <json>`
 * on the child's stdin, which Pi runs at once, even mid-run, without a model call.
 * No record names its sender: the pipe it came on does (the leader owns every child's pipe).
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

/** A board decision as it travels on the pipe: no envelope, no seal (the pipe is the identity). */
export const StreamDecisionSchema = Type.Object({
  ok: Type.Boolean(),
  reason: Type.Optional(BoardRejectionSchema),
  message: Type.String(),
  taskId: Type.Optional(Type.String()),
});
export type StreamDecision = Static<typeof StreamDecisionSchema>;

/** What the leader writes to a stream teammate: the answer to one request, or the roster. */
export const StreamDownSchema = Type.Union([
  /**
   * The answer to one request. Mail: `ok` with `text` the recipient's name as spawned, or the
   * refusal. Intent: `decision`. Board view: `ok` with the text, or the error and its `error` code.
   */
  Type.Object({
    kind: Type.Literal("answer"),
    id: MessageIdSchema,
    ok: Type.Boolean(),
    text: Type.String(),
    decision: Type.Optional(StreamDecisionSchema),
    error: Type.Optional(Type.Union([Type.Literal("not_found"), Type.Literal("io_error"), Type.Literal("invalid_input")])),
  }),
  Type.Object({ kind: Type.Literal("roster"), roster: RosterFileSchema }),
]);
export type StreamDown = Static<typeof StreamDownSchema>;
export type StreamAnswer = Extract<StreamDown, { kind: "answer" }>;

/** The prompt text that carries `down` to a stream teammate (one line: JSON escapes every newline). */
export function streamCommandText(down: StreamDown): string {
  return `/${STREAM_COMMAND} ${JSON.stringify(down)}`;
}
