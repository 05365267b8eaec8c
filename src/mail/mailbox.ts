import { appendRecord, JsonlCursor, type JsonlCursorOptions } from "../store/jsonl-file.ts";
import { precompile } from "../store/validate.ts";
import { BoardIntentSchema } from "./intents.ts";
import { RosterFileSchema } from "./roster-file.ts";
import { notSignedBy, sealHolds, sealOf, type SpawnKeys } from "./seal.ts";
import { StreamDownSchema } from "./stream-wire.ts";
import { TeamError } from "../errors.ts";
import {
  InboxRecordSchema,
  inboxRecordProblem,
  MAIL_FORMAT_VERSION,
  newMessageId,
  OutboxRecordSchema,
  parseInboxRecord,
  parseOutboxRecord,
  type InboxRecord,
  type OutboxRecord,
  type ReportStatus,
} from "./envelope.ts";

/** Fields a caller supplies for a new outbox record; `v`, `id` and `at` are filled in. */
export interface NewOutboxRecord {
  from: string;
  spawnId: string;
  body: string;
  status: ReportStatus;
}

/** Fields a caller supplies for a new inbox record; `v`, `id` and `at` are filled in. */
export interface NewInboxRecord {
  from: string;
  /** The sender's spawn id; omit for leader mail. */
  fromSpawnId?: string;
  to: string;
  body: string;
}

/** The sealed fields of a report, in their fixed order. */
const reportFields = (r: Omit<OutboxRecord, "sig">) => [r.v, r.id, r.from, r.spawnId, r.status, r.body, r.at];
/** The sealed fields of peer mail, in their fixed order. */
const mailFields = (r: InboxRecord) => [r.v, r.id, r.from, r.fromSpawnId, r.to, r.body, r.at];

/**
 * Builds a complete outbox record (version, fresh id, `at` = now in ms), sealed with the
 * writer's spawn `key` (src/mail/seal.ts). Does not validate.
 */
export function makeOutboxRecord(fields: NewOutboxRecord, key: Buffer, now: number = Date.now()): OutboxRecord {
  const record = { v: MAIL_FORMAT_VERSION, id: newMessageId(now), ...fields, at: now } as const;
  return { ...record, sig: sealOf(key, "report", reportFields(record)) };
}

/**
 * Builds a complete inbox record (version, fresh id, `at` = now in ms). With `key` (a peer's
 * mail, written to a file) it is sealed with the sender's spawn key; without (leader and board
 * mail, held in the leader's memory) it has no seal. Does not validate.
 */
export function makeInboxRecord(fields: NewInboxRecord, now: number = Date.now(), key?: Buffer): InboxRecord {
  const { fromSpawnId, ...rest } = fields;
  const record: InboxRecord = { v: MAIL_FORMAT_VERSION, id: newMessageId(now), ...rest, ...(fromSpawnId === undefined ? {} : { fromSpawnId }), at: now };
  return key ? { ...record, sig: sealOf(key, "mail", mailFields(record)) } : record;
}

/**
 * Why the leader refuses a report read from `owner`'s outbox, or undefined when it is that
 * owner's and its seal holds under the key of the spawn it names. The text starts "refused:".
 */
export function reportRefusal(record: OutboxRecord, owner: string, keys: SpawnKeys): string | undefined {
  if (record.from !== owner) return `refused: a report from ${JSON.stringify(record.from)} in ${owner}'s outbox`;
  const key = keys.keyOf(owner, record.spawnId);
  return key && sealHolds(key, "report", reportFields(record), record.sig) ? undefined : notSignedBy(owner);
}

/**
 * Why the leader refuses a line of `owner`'s inbox, or undefined when it is peer mail to that
 * owner sealed by the sender's spawn. Mail claiming to be from the leader or the board is
 * refused outright: they speak over the teammate's RPC stdin, never through a file.
 */
export function mailRefusal(record: InboxRecord, owner: string, keys: SpawnKeys, reserved: (name: string) => boolean): string | undefined {
  if (reserved(record.from)) return `refused: mail "from ${record.from}" in a file (the leader and the board never write files; they speak over the teammate's stdin)`;
  if (record.to !== owner) return `refused: mail to ${JSON.stringify(record.to)} in ${owner}'s inbox`;
  const key = keys.keyOf(record.from, record.fromSpawnId);
  return key && sealHolds(key, "mail", mailFields(record), record.sig) ? undefined : notSignedBy(record.from);
}

/**
 * Validates `record` and appends it to the outbox file at `path` (one line, O_APPEND, 0600).
 * A record is checked before it is written, so the leader never has to skip our own lines.
 * @throws TeamError `invalid_input` for an invalid or oversized record (message says which
 *   field / how many bytes); TeamError `io_error` when the append fails.
 */
export async function appendOutboxRecord(path: string, record: OutboxRecord): Promise<void> {
  const checked = parseOutboxRecord(record);
  if (!checked.ok) throw new TeamError("invalid_input", `Outbox record for ${path} is invalid: ${checked.message}`);
  await appendRecord(path, record);
}

/**
 * Validates `record` and appends it to the inbox file at `path` (one line, O_APPEND, 0600).
 * Peer `send_message` returns `queued` only after this resolves (R24).
 * @throws TeamError `invalid_input` for an invalid or oversized record; TeamError `io_error`
 *   when the append fails.
 */
export async function appendInboxRecord(path: string, record: InboxRecord): Promise<void> {
  const checked = parseInboxRecord(record);
  if (!checked.ok) throw new TeamError("invalid_input", `Inbox record for ${path} is invalid: ${checked.message}`);
  await appendRecord(path, record);
}

/** A cursor over one outbox file, validating every line as an {@link OutboxRecord}. */
export function outboxCursor(path: string, options: JsonlCursorOptions<OutboxRecord> = {}): JsonlCursor<typeof OutboxRecordSchema> {
  return new JsonlCursor(path, OutboxRecordSchema, options);
}

/** A cursor over one inbox file, validating every line as an {@link InboxRecord} (schema, then `refine`, then the sender rule). */
export function inboxCursor(path: string, options: JsonlCursorOptions<InboxRecord> = {}): JsonlCursor<typeof InboxRecordSchema> {
  const { refine } = options;
  return new JsonlCursor(path, InboxRecordSchema, { ...options, refine: (r) => refine?.(r) ?? inboxRecordProblem(r) });
}

/**
 * Compiles the checkers of every record format a team reads (roster, inbox and outbox lines,
 * board intents, the leader's answers on a teammate's pipe) now rather than at the first read, which would put a few ms of
 * compiling into the first message. The leader calls it while a teammate's child starts, a
 * teammate in its idle warm-up (src/worker/warm.ts). Never throws.
 */
export function precompileMailCheckers(): void {
  for (const schema of [RosterFileSchema, InboxRecordSchema, OutboxRecordSchema, BoardIntentSchema, StreamDownSchema]) precompile(schema);
}
