import { describe, expect, it } from "vitest";
import { RESERVED_TEAMMATE_NAMES, TEAMMATE_NAME_MAX_LENGTH, validateTeammateName } from "../../../src/mail/names.ts";

describe("validateTeammateName (R22, W13)", () => {
  it.each(["alice", "a", "Bob2", "code.review", "back_end-1", "a".repeat(64)])("accepts %j", (name) => {
    expect(validateTeammateName(name, [])).toEqual({ ok: true });
  });

  it("refuses an empty name", () => {
    expect(validateTeammateName("", [])).toMatchObject({ ok: false, reason: "empty" });
  });

  it("refuses 65 characters, naming the length and the limit", () => {
    const result = validateTeammateName("a".repeat(65), []);
    expect(result).toMatchObject({ ok: false, reason: "too_long" });
    expect(!result.ok && result.message).toContain("65 characters");
    expect(!result.ok && result.message).toContain(`at most ${TEAMMATE_NAME_MAX_LENGTH}`);
  });

  it("cuts a runaway name in the message", () => {
    const result = validateTeammateName("x".repeat(5000), []);
    expect(!result.ok && result.message.length).toBeLessThan(400);
  });

  it.each(["1alice", "_alice", ".alice", "-alice", "ålice"])("refuses %j for its first character", (name) => {
    const result = validateTeammateName(name, []);
    expect(result).toMatchObject({ ok: false, reason: "bad_start" });
    expect(!result.ok && result.message).toContain(JSON.stringify(name));
    expect(!result.ok && result.message).toContain("an ASCII letter (A-Z, a-z) first");
  });

  it.each([
    ["al ice", '" "'],
    ["al/ice", '"/"'],
    ["alice!", '"!"'],
    ["a..\\b", '"\\\\"'],
    ["bob\n", '"\\n"'],
  ])("refuses %j and names the character %s", (name, shown) => {
    const result = validateTeammateName(name, []);
    expect(result).toMatchObject({ ok: false, reason: "bad_chars" });
    expect(!result.ok && result.message).toContain(shown);
  });

  it.each(["leader", "LEADER", "Harness", "all", "*", "task-board", "Task-Board"])("refuses the reserved %j", (name) => {
    const result = validateTeammateName(name, []);
    expect(result).toMatchObject({ ok: false, reason: "reserved" });
    expect(!result.ok && result.message).toContain(JSON.stringify(name));
  });

  it("lists the reserved words", () => {
    expect([...RESERVED_TEAMMATE_NAMES].sort()).toEqual(["*", "all", "harness", "leader", "task-board", "user"]);
  });

  it("refuses a case-insensitive clash with a living teammate, naming it", () => {
    const result = validateTeammateName("ALICE", ["bob", "alice"]);
    expect(result).toMatchObject({ ok: false, reason: "taken" });
    expect(!result.ok && result.message).toContain('"alice"');
  });

  it("accepts reuse of a stopped teammate's name (stopped names are not passed as living)", () => {
    expect(validateTeammateName("alice", ["bob"])).toEqual({ ok: true });
  });

  it("accepts any iterable of living names", () => {
    expect(validateTeammateName("bob", new Set(["Bob"])).ok).toBe(false);
    expect(validateTeammateName("bob", new Map([["carol", 1]]).keys()).ok).toBe(true);
  });

  it("does not treat prototype keys as taken (W18)", () => {
    expect(validateTeammateName("constructor", []).ok).toBe(true);
    expect(validateTeammateName("toString", ["alice"]).ok).toBe(true);
  });
});
