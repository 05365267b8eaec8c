import { describe, expect, it } from "vitest";
import { sessionKey, runtimeLayout } from "../../../src/store/layout.ts";

describe("layout", () => {
  it("derives a 16-hex session key from the session file, else the cwd", () => {
    expect(sessionKey("/s/a.jsonl", "/cwd")).toMatch(/^[0-9a-f]{16}$/);
    expect(sessionKey(undefined, "/cwd")).toBe(sessionKey("/cwd", "/other"));
    expect(sessionKey("/s/a.jsonl", "/cwd")).not.toBe(sessionKey("/s/b.jsonl", "/cwd"));
  });
  it("puts outboxes and inboxes under the session's runtime dir", () => {
    const l = runtimeLayout("/agent", "k");
    expect(l.outbox("alice")).toBe("/agent/teammate/k/outbox/alice.jsonl");
    expect(l.inbox("bob")).toBe("/agent/teammate/k/inbox/bob.jsonl");
  });
});
