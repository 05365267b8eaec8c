/**
 * Mail records on disk: worker outboxes (reports to the leader), teammate inboxes (peer mail)
 * and the roster workers read to find peers, and the seals that bind records to a spawn. Formats:
 * references/mail-format.md and references/runtime-state.md. With names.ts (teammate names),
 * limits.ts (the message size limit), identity.ts (the variables a child learns who it is from)
 * and rejections.ts (the board's refusal codes) this folder is the contract between the leader
 * and its teammates, below the board and the team.
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
  TASK_BOARD,
  TeammateNameSchema,
  TITLE_MAX_CHARS,
  USER_NAME,
} from "./envelope.ts";
export type { InboxRecord, MailKind, OutboxRecord, ReportStatus } from "./envelope.ts";
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
export {
  BOARD_REJECTIONS,
  BoardRejectionSchema,
  CLAIM_REJECTIONS,
  ClaimRejectionSchema,
  SHELL_REJECTIONS,
  SUBMIT_REJECTIONS,
  SubmitRejectionSchema,
  type BoardRejection,
  type ClaimRejection,
  type SubmitRejection,
} from "./rejections.ts";
