import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TeamError } from "../../../src/errors.ts";
import {
  appendInboxRecord,
  appendOutboxRecord,
  inboxCursor,
  MAIL_FORMAT_VERSION,
  makeInboxRecord,
  makeOutboxRecord,
  MessageIdSchema,
  messageTitle,
  newMessageId,
  outboxCursor,
  parseInboxRecord,
  parseOutboxRecord,
  type InboxRecord,
  type OutboxRecord,
} from "../../../src/mail/index.ts";
import { appendRecord, checkValue } from "../../../src/store/index.ts";
import { useTempDirs } from "../store/tmp.ts";

const tempDir = useTempDirs();

const SIG = "A".repeat(43); // shape only: seals are checked by the leader's mailboxes (seal.test.ts)
const KEY = Buffer.alloc(32, 7);
const report: OutboxRecord = { v: 2, id: "m1", from: "alice", spawnId: "s-1", body: "done", status: "completed", at: 1_700_000_000_000, sig: SIG };
const peerMail: InboxRecord = { v: 2, id: "m2", from: "alice", fromSpawnId: "s-1", to: "bob", body: "hi", at: 1_700_000_000_000, sig: SIG };
const leaderMail: InboxRecord = { v: 2, id: "m3", from: "leader", to: "bob", body: "next", at: 1_700_000_000_000 };

describe("mail records", () => {
  it("is version 2 (seals added)", () => {
    expect(MAIL_FORMAT_VERSION).toBe(2);
  });

  it("parses a valid outbox record and explains an invalid one", () => {
    expect(parseOutboxRecord(report)).toEqual({ ok: true, value: report });
    expect(parseOutboxRecord({ ...report, status: "done" })).toEqual({
      ok: false,
      message: '/status is "done"; expected one of "in_progress" | "completed" | "failed"',
    });
    expect(parseOutboxRecord({ ...report, v: 1 })).toEqual({ ok: false, message: "/v is 1; expected exactly 2" });
    const noSpawn: Record<string, unknown> = { ...report };
    delete noSpawn.spawnId;
    expect(parseOutboxRecord(noSpawn)).toEqual({ ok: false, message: "/spawnId missing (required)" });
    expect(parseOutboxRecord({ ...report, from: "../etc" }).ok).toBe(false);
    expect(parseOutboxRecord({ ...report, at: "2024-01-01" }).ok).toBe(false);
  });

  it("parses peer and leader inbox mail and enforces the sender rule", () => {
    expect(parseInboxRecord(peerMail)).toEqual({ ok: true, value: peerMail });
    expect(parseInboxRecord(leaderMail)).toEqual({ ok: true, value: leaderMail });
    expect(parseInboxRecord({ ...leaderMail, fromSpawnId: "s-9" })).toEqual({
      ok: false,
      message: '/fromSpawnId is "s-9"; expected missing for leader mail',
    });
    const anonymous: Record<string, unknown> = { ...peerMail };
    delete anonymous.fromSpawnId;
    const result = parseInboxRecord(anonymous);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain("/fromSpawnId missing");
  });

  it("builds records with version, id and time in ms", () => {
    const out = makeOutboxRecord({ from: "alice", spawnId: "s-1", body: "x", status: "in_progress" }, KEY, 5);
    expect(out).toMatchObject({ v: 2, from: "alice", at: 5 });
    expect(parseOutboxRecord(out).ok).toBe(true);
    const leader = makeInboxRecord({ from: "leader", to: "bob", body: "x" }, 6);
    expect("fromSpawnId" in leader).toBe(false);
    expect(parseInboxRecord(leader).ok).toBe(true);
  });
});

describe("messageTitle (R32)", () => {
  it("takes the first non-empty line, trimmed", () => {
    expect(messageTitle("\n  \r\n  Found 3 bugs  \nDetails...")).toBe("Found 3 bugs");
  });
  it("cuts to 120 characters with an ellipsis", () => {
    const title = messageTitle("é".repeat(130));
    expect(Array.from(title)).toHaveLength(120);
    expect(title.endsWith("…")).toBe(true);
    expect(messageTitle("a".repeat(120))).toBe("a".repeat(120));
  });
  it("says (no content) for an empty or blank body", () => {
    expect(messageTitle("")).toBe("(no content)");
    expect(messageTitle(" \n\t\n")).toBe("(no content)");
  });
});

describe("newMessageId", () => {
  it("is time-prefixed and unique", () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newMessageId(1234)));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^ya-[0-9a-f]{10}$/);
  });

  it("matches MessageIdSchema, now and far in the future", () => {
    for (const now of [0, Date.now(), 8.64e15]) expect(checkValue(MessageIdSchema, newMessageId(now)).ok).toBe(true);
  });
});

describe("MessageIdSchema", () => {
  // Ids name files (claims/<id>.json, submissions/<id>.json): nothing that could leave the dir.
  it.each(["../../../ESCAPED", "nodir/poison", "..", ".hidden", "a.b", "a\\b", "", "-lead", "a b", "x".repeat(129), "é"])(
    "rejects the path-unsafe id %j",
    (id) => {
      expect(checkValue(MessageIdSchema, id).ok).toBe(false);
      expect(parseOutboxRecord({ ...report, id }).ok).toBe(false);
    },
  );
  it.each(["m1", "mbx3k2a1-4f0c9e1a2b", "A_b-9", "x".repeat(128)])("accepts %j", (id) => {
    expect(checkValue(MessageIdSchema, id).ok).toBe(true);
  });
});

describe("mailboxes", () => {
  it("validates before appending, so an invalid record never reaches the file", async () => {
    const path = join(await tempDir(), "outbox", "alice.jsonl");
    const error = await appendOutboxRecord(path, { ...report, status: "done" } as never).catch((e: unknown) => e);
    expect((error as TeamError).code).toBe("invalid_input");
    expect((error as TeamError).message).toContain("/status");
    await expect(readFile(path)).rejects.toThrow(/ENOENT/);
    const inboxError = await appendInboxRecord(path, { ...leaderMail, fromSpawnId: "s" }).catch((e: unknown) => e);
    expect((inboxError as TeamError).code).toBe("invalid_input");
  });

  it("round-trips reports through the outbox cursor", async () => {
    const path = join(await tempDir(), "outbox", "alice.jsonl");
    const cursor = outboxCursor(path);
    const first = makeOutboxRecord({ from: "alice", spawnId: "s-1", body: "step 1", status: "in_progress" }, KEY);
    const last = makeOutboxRecord({ from: "alice", spawnId: "s-1", body: "all done", status: "completed" }, KEY);
    await appendOutboxRecord(path, first);
    await appendOutboxRecord(path, last);
    expect((await cursor.readNew()).records).toEqual([first, last]);
  });

  it("skips inbox lines that break the sender rule, with a diagnostic", async () => {
    const path = join(await tempDir(), "inbox", "bob.jsonl");
    await appendRecord(path, { ...leaderMail, fromSpawnId: "forged" });
    await appendInboxRecord(path, peerMail);
    const batch = await inboxCursor(path).readNew();
    expect(batch.records).toEqual([peerMail]);
    expect(batch.skipped).toBe(1);
    expect(batch.diagnostics[0]).toContain(`${path} line 1`);
    expect(batch.diagnostics[0]).toContain("expected missing for leader mail");
  });
});
