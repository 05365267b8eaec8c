import { appendRecord, JsonlCursor, type JsonlCursorOptions } from "../store/jsonl-file.ts";
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

/** Builds a complete outbox record (version, fresh id, `at` = now in ms). Does not validate. */
export function makeOutboxRecord(fields: NewOutboxRecord, now: number = Date.now()): OutboxRecord {
  return { v: MAIL_FORMAT_VERSION, id: newMessageId(now), ...fields, at: now };
}

/** Builds a complete inbox record (version, fresh id, `at` = now in ms). Does not validate. */
export function makeInboxRecord(fields: NewInboxRecord, now: number = Date.now()): InboxRecord {
  const { fromSpawnId, ...rest } = fields;
  return { v: MAIL_FORMAT_VERSION, id: newMessageId(now), ...rest, ...(fromSpawnId === undefined ? {} : { fromSpawnId }), at: now };
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

/** A cursor over one inbox file, validating every line as an {@link InboxRecord} (schema plus sender rule). */
export function inboxCursor(
  path: string,
  options: Omit<JsonlCursorOptions<InboxRecord>, "refine"> = {},
): JsonlCursor<typeof InboxRecordSchema> {
  return new JsonlCursor(path, InboxRecordSchema, { ...options, refine: inboxRecordProblem });
}
