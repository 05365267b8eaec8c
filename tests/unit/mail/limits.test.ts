import { describe, expect, it } from "vitest";
import { MAIL_BATCH_MAX_BYTES, MAIL_BATCH_MAX_MESSAGES, mailBatchSize, MESSAGE_MAX_BYTES, messageBytes, messageSizeProblem } from "../../../src/mail/limits.ts";
import { routeFromLeader, routeFromWorker } from "../../../src/team/routing.ts";

describe("the one message limit", () => {
  it("measures the body as a JSON string, escapes included", () => {
    expect(messageBytes("abc")).toBe(5);
    expect(messageBytes("é")).toBe(4);
    expect(messageBytes("\n")).toBe(4);
  });

  it("names the tool, field, size and limit, and passes what fits", () => {
    expect(messageSizeProblem("send_message", "message", "x".repeat(MESSAGE_MAX_BYTES - 2))).toBeUndefined();
    expect(messageSizeProblem("teammate_spawn", "prompt", "x".repeat(MESSAGE_MAX_BYTES - 1))).toBe(
      "teammate_spawn: prompt is 49153 bytes (as JSON, UTF-8); every message may be at most 49152 bytes (48 KiB). Nothing was sent: shorten it, or put the detail in a file and send its path.",
    );
  });

  it("is applied by both routes", () => {
    const huge = "x".repeat(MESSAGE_MAX_BYTES);
    expect(routeFromWorker("alice", { to: "leader", message: huge }, ["alice"])).toMatchObject({ kind: "error", message: expect.stringContaining("at most 49152 bytes") });
    expect(routeFromWorker("alice", { to: "bob", message: huge }, ["alice", "bob"])).toMatchObject({ kind: "error" });
    const roster = new Map([["bob", { name: "bob", status: "working" as const }]]);
    expect(routeFromLeader({ to: "bob", message: huge }, roster)).toMatchObject({ kind: "error", message: expect.stringContaining("at most 49152 bytes") });
  });
});

describe("mail batches", () => {
  const mail = (n: number, size = 10) => Array.from({ length: n }, () => ({ body: "x".repeat(size) }));

  it("take at most the message bound, and never fewer than one", () => {
    expect(mailBatchSize([])).toBe(0);
    expect(mailBatchSize(mail(3))).toBe(3);
    expect(mailBatchSize(mail(10_000))).toBe(MAIL_BATCH_MAX_MESSAGES);
    expect(mailBatchSize(mail(1, MAIL_BATCH_MAX_BYTES * 2))).toBe(1);
  });

  it("take at most the byte bound", () => {
    const n = mailBatchSize(mail(10, MESSAGE_MAX_BYTES - 2));
    expect(n).toBe(4);
  });
});
