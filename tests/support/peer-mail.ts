import type { LeaderHarness } from "../../src/harness/harness.ts";
import { makeInboxRecord, makeOutboxRecord, type InboxRecord, type OutboxRecord, type ReportStatus } from "../../src/mail/index.ts";

/**
 * Peer mail written as the living teammate `from` would write it: its spawn id, sealed with its
 * spawn key from the harness (src/mail/seal.ts). For tests that need a record at an exact
 * moment; the record is only built, the caller appends it.
 * @throws Error when `from` is not a living teammate of `harness`.
 */
export function peerMailAs(harness: LeaderHarness, from: string, to: string, body: string): InboxRecord {
  const sender = harness.living(from);
  if (!sender) throw new Error(`peerMailAs: ${from} is not a living teammate`);
  return makeInboxRecord({ from: sender.name, fromSpawnId: sender.spawnId, to, body }, Date.now(), harness.keys.keyOf(sender.name, sender.spawnId));
}

/** A report written as the living teammate `from` would write it (see {@link peerMailAs}). */
export function reportAs(harness: LeaderHarness, from: string, body: string, status: ReportStatus = "in_progress"): OutboxRecord {
  const sender = harness.living(from);
  const key = sender ? harness.keys.keyOf(sender.name, sender.spawnId) : undefined;
  if (!sender || !key) throw new Error(`reportAs: ${from} is not a living teammate`);
  return makeOutboxRecord({ from: sender.name, spawnId: sender.spawnId, body, status }, key);
}
