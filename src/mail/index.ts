/**
 * Mail records on disk: worker outboxes (reports to the leader), teammate inboxes (peer mail)
 * and the roster workers read to find peers, and the seals that bind records to a spawn. Formats:
 * references/mail-format.md and references/runtime-state.md.
 */
export {
  EpochMsSchema,
  InboxRecordSchema,
  inboxRecordProblem,
  LEADER_NAME,
  MAIL_FORMAT_VERSION,
  MessageIdSchema,
  messageTitle,
  newMessageId,
  OutboxRecordSchema,
  parseInboxRecord,
  parseOutboxRecord,
  ReportStatusSchema,
  SpawnIdSchema,
  TeammateNameSchema,
  TITLE_MAX_CHARS,
} from "./envelope.ts";
export type { InboxRecord, OutboxRecord, ReportStatus } from "./envelope.ts";
export {
  appendInboxRecord,
  appendOutboxRecord,
  inboxCursor,
  mailRefusal,
  makeInboxRecord,
  makeOutboxRecord,
  outboxCursor,
  precompileMailCheckers,
  reportRefusal,
} from "./mailbox.ts";
export { newSpawnKey, notSignedBy, SealSchema, sealHolds, sealOf, SPAWN_KEY_BYTES, SpawnKeys } from "./seal.ts";
export type { SealKind } from "./seal.ts";
export type { NewInboxRecord, NewOutboxRecord } from "./mailbox.ts";
export {
  livingNames,
  parseRoster,
  readRosterFile,
  ROSTER_FORMAT_VERSION,
  RosterEntrySchema,
  RosterFileSchema,
  RosterPeerCutSchema,
  RosterStatusSchema,
} from "./roster-file.ts";
export type { RosterEntry, RosterFile, RosterPeerCut, RosterStatus } from "./roster-file.ts";
export {
  BoardIntentSchema,
  INTENT_FORMAT_VERSION,
  INTENT_RESULT_MAX_CHARS,
  INTENT_TASK_ID_MAX_CHARS,
  intentFields,
  intentSealHolds,
  sealIntent,
} from "./intents.ts";
export type { BoardIntent, UnsealedIntent } from "./intents.ts";
