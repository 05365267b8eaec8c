/**
 * Intent and decision seals (format v2): the fields each covers, in their fixed order, and that
 * a seal binds the record to one spawn and one kind.
 */
import { describe, expect, it } from "vitest";
import {
  BoardDecisionSchema,
  decisionFields,
  decisionSealHolds,
  INTENT_FORMAT_VERSION,
  intentFields,
  intentSealHolds,
  sealDecision,
  sealIntent,
  sealOf,
  SpawnKeys,
  type UnsealedIntent,
} from "../../../src/mail/index.ts";
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

describe("decision seals", () => {
  it("cover v, id, at, ok, reason, message, taskId, and are a different kind from intent seals", () => {
    const d = sealDecision(aliceKey, { v: 2, id: "i1", at: 9, ok: false, reason: "blocked", message: "m", taskId: "t" });
    expect(decisionFields(d)).toEqual([2, "i1", 9, false, "blocked", "m", "t"]);
    expect(d.sig).toBe(sealOf(aliceKey, "decision", [2, "i1", 9, false, "blocked", "m", "t"]));
    expect(d.sig).not.toBe(sealOf(aliceKey, "intent", [2, "i1", 9, false, "blocked", "m", "t"]));
    expect(decisionSealHolds(aliceKey, d)).toBe(true);
    expect(decisionSealHolds(aliceKey, { ...d, ok: true })).toBe(false);
    expect(decisionSealHolds(keys.keyOf("bob", "bob-1")!, d)).toBe(false);
  });

  it("a decision's reason must be a board rejection code", () => {
    const d = sealDecision(aliceKey, { v: 2, id: "i1", at: 9, ok: false, reason: "stale_spawn", message: "m" });
    expect(checkValue(BoardDecisionSchema, d).ok).toBe(true);
    const bad = checkValue(BoardDecisionSchema, { ...d, reason: "owned" });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.message).toContain("/reason");
  });
});
