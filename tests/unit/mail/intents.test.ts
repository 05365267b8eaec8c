/**
 * Intent seals (format v2): the fields they cover, in their fixed order, and that a seal binds
 * the intent to one spawn; the decision that answers an intent on the pipe carries only a board
 * rejection code.
 */
import { describe, expect, it } from "vitest";
import {
  INTENT_FORMAT_VERSION,
  intentFields,
  intentSealHolds,
  sealIntent,
  sealOf,
  SpawnKeys,
  type UnsealedIntent,
} from "../../../src/mail/index.ts";
import { BoardDecisionSchema } from "../../../src/mail/stream-wire.ts";
import { checkValue } from "../../../src/store/index.ts";

const keys = new SpawnKeys();
const aliceKey = keys.issue("alice", "alice-1");
keys.issue("bob", "bob-1");
const base: UnsealedIntent = { v: INTENT_FORMAT_VERSION, id: "i1", from: "alice", spawnId: "alice-1", at: 7, action: "submit", taskId: "t", status: "completed", result: "r" };

describe("intent seals", () => {
  it("cover v, id, from, spawnId, at, action, taskId, status, result in that order, absent fields as null", () => {
    expect(INTENT_FORMAT_VERSION).toBe(2);
    expect(intentFields(base)).toEqual([2, "i1", "alice", "alice-1", 7, "submit", "t", "completed", "r"]);
    const claim = { v: 2, id: "i2", from: "alice", spawnId: "alice-1", at: 8, action: "claim" } as const;
    expect(sealIntent(aliceKey, claim).sig).toBe(sealOf(aliceKey, "intent", [2, "i2", "alice", "alice-1", 8, "claim", null, null, null]));
  });

  it("hold only for the spawn named, with every field as sealed", () => {
    const sealed = sealIntent(aliceKey, base);
    const holds = (r: object) => intentSealHolds(keys, r as Record<string, unknown>);
    expect(holds(sealed)).toBe(true);
    for (const [field, value] of Object.entries({ v: 1, id: "i9", from: "bob", spawnId: "bob-1", at: 8, action: "claim", taskId: "u", status: "failed", result: "x" })) {
      expect(holds({ ...sealed, [field]: value }), field).toBe(false);
    }
    expect(holds({ ...sealed, sig: undefined })).toBe(false);
    expect(holds({ ...sealed, spawnId: 42 })).toBe(false);
    // A seal of bob's own spawn does not pass in alice's name, nor under a spawn id of another name.
    const byBob = sealIntent(keys.keyOf("bob", "bob-1")!, { ...base, from: "bob", spawnId: "bob-1" });
    expect(holds({ ...byBob, from: "alice", spawnId: "alice-1" })).toBe(false);
    expect(holds({ ...byBob, from: "alice" })).toBe(false);
  });
});

describe("the decision on the pipe", () => {
  it("a decision's reason must be a board rejection code", () => {
    const d = { ok: false, reason: "stale_spawn", message: "m" };
    expect(checkValue(BoardDecisionSchema, d).ok).toBe(true);
    const bad = checkValue(BoardDecisionSchema, { ...d, reason: "owned" });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.message).toContain("/reason");
  });
});
