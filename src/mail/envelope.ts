import { randomBytes } from "node:crypto";
import { Type, type Static } from "typebox";
import { checkValue, type Checked } from "../store/validate.ts";
import { SealSchema } from "./seal.ts";

/**
 * Version of the outbox and inbox record format, written as `v` on every record
 * (references/mail-format.md). Bump it on any incompatible change; readers skip records with
 * another version and report them.
 */
export const MAIL_FORMAT_VERSION = 2;

/** Teammate name as it appears in records (R22): a letter, then letters, digits, `.`, `_`, `-`; max 64. */
export const TeammateNameSchema = Type.String({ pattern: "^[A-Za-z][A-Za-z0-9._-]{0,63}$" });
/** Spawn id of one teammate incarnation (R47); opaque, 1-128 chars. */
export const SpawnIdSchema = Type.String({ minLength: 1, maxLength: 128 });
/**
 * Message id from {@link newMessageId}; otherwise opaque. Ids name files (`claims/<id>.json`,
 * `submissions/<id>.json`), so only a path-safe form is valid: a letter or digit, then up to 127
 * letters, digits, `_` or `-` (no `/`, `\`, `.`, so never `..` or a hidden file).
 */
export const MessageIdSchema = Type.String({ pattern: "^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$" });
/** Time of writing, in ms since the Unix epoch (integer). */
export const EpochMsSchema = Type.Integer({ minimum: 0 });

/** Status of a report to the leader (R24): `in_progress` is intermediate, the others terminal. */
export const ReportStatusSchema = Type.Union([Type.Literal("in_progress"), Type.Literal("completed"), Type.Literal("failed")]);
export type ReportStatus = Static<typeof ReportStatusSchema>;

/**
 * One line of a worker's outbox `outbox/<name>.jsonl`: a report to the leader (R24). Written
 * only by that worker, read only by the leader, which drops records whose `spawnId` is not the
 * teammate's current one (R47). `from` and `spawnId` come from the worker's environment, never
 * from the model; `sig` seals the record with the writer's spawn key (src/mail/seal.ts), and the
 * leader refuses a record whose seal fails.
 */
export const OutboxRecordSchema = Type.Object({
  v: Type.Literal(MAIL_FORMAT_VERSION),
  id: MessageIdSchema,
  from: TeammateNameSchema,
  spawnId: SpawnIdSchema,
  body: Type.String(),
  status: ReportStatusSchema,
  at: EpochMsSchema,
  sig: SealSchema,
});
export type OutboxRecord = Static<typeof OutboxRecordSchema>;

/**
 * Mail to a teammate (R24). On disk it is one line of the recipient's inbox `inbox/<to>.jsonl`,
 * written only by peers: `fromSpawnId` and `sig` (the sender's seal, src/mail/seal.ts) set, read
 * only by the leader's harness, which checks the seal and delivers the mail into the
 * recipient's next turn. Leader and board mail (`from` "leader" or "task-board") never touch a
 * file: the harness holds it in memory, with no `fromSpawnId` and no `sig`, and refuses any
 * inbox line that claims such a sender.
 */
export const InboxRecordSchema = Type.Object({
  v: Type.Literal(MAIL_FORMAT_VERSION),
  id: MessageIdSchema,
  from: TeammateNameSchema,
  fromSpawnId: Type.Optional(SpawnIdSchema),
  to: TeammateNameSchema,
  body: Type.String(),
  at: EpochMsSchema,
  sig: Type.Optional(SealSchema),
});
export type InboxRecord = Static<typeof InboxRecordSchema>;

/** What kind of traffic a piece of mail is, as the console's Mail page and the feed tell it apart. */
export type MailKind = "report" | "peer" | "leader" | "user" | "board" | "dialog" | "note";

/** The `from` of mail written by the leader. Reserved: no teammate may take this name (W13). */
export const LEADER_NAME = "leader";

/**
 * The `from` of mail the user writes from the console (`/agent-teams send`, issue 21): it carries
 * the user's authority. Reserved like {@link LEADER_NAME}: only the leader's process writes it,
 * over the teammate's stdin, never in a file.
 */
export const USER_NAME = "user";

/** The `from` of mail written by the task board (board notices). Reserved like {@link LEADER_NAME} (W13). */
export const TASK_BOARD = "task-board";

/**
 * Parses an outbox record from untrusted JSON. Never throws; on failure `message` names the
 * field, its value and what was expected (no file name: callers add it).
 */
export function parseOutboxRecord(value: unknown): Checked<OutboxRecord> {
  return checkValue(OutboxRecordSchema, value);
}

/**
 * Parses an inbox record from untrusted JSON: the schema, plus the sender rule that leader
 * mail has no `fromSpawnId` and peer mail has one. Never throws.
 */
export function parseInboxRecord(value: unknown): Checked<InboxRecord> {
  const checked = checkValue(InboxRecordSchema, value);
  if (!checked.ok) return checked;
  const problem = inboxRecordProblem(checked.value);
  return problem === undefined ? checked : { ok: false, message: problem };
}

/**
 * Cross-field rules of an {@link InboxRecord} that a schema cannot state; undefined when fine.
 * Used by {@link parseInboxRecord} and as the inbox cursor's `refine`.
 */
export function inboxRecordProblem(record: InboxRecord): string | undefined {
  if (record.from === LEADER_NAME || record.from === USER_NAME) {
    return record.fromSpawnId === undefined ? undefined : `/fromSpawnId is ${JSON.stringify(record.fromSpawnId)}; expected missing for ${record.from} mail`;
  }
  if (record.fromSpawnId === undefined) return `/fromSpawnId missing; expected the sender's spawn id for peer mail from ${JSON.stringify(record.from)}`;
  return undefined;
}

/** Longest console title, in characters (R32). */
export const TITLE_MAX_CHARS = 120;

/**
 * Console title of a message (R32): its first non-empty line, trimmed; cut to 120 characters
 * (code points) with "…" as the last one when longer; `(no content)` when the body has no
 * non-blank line.
 */
export function messageTitle(body: string): string {
  const line = body
    .split(/\r\n|\n|\r/)
    .map((l) => l.trim())
    .find((l) => l !== "");
  if (line === undefined) return "(no content)";
  const chars = Array.from(line);
  return chars.length <= TITLE_MAX_CHARS ? line : `${chars.slice(0, TITLE_MAX_CHARS - 1).join("")}…`;
}

/**
 * A new message id: `<ms since epoch, base 36>-<10 random hex chars>`, e.g. `mbx3k2a1-4f0c9e1a2b`.
 * Sorts roughly by creation time; unique across processes for practical purposes (40 random bits
 * per millisecond).
 */
export function newMessageId(now: number = Date.now()): string {
  return `${now.toString(36)}-${randomBytes(5).toString("hex")}`;
}
