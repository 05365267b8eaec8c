/**
 * The closed set of board rejection codes: the core's claim and submit codes plus the shell's
 * three, each once, and the schema accepts exactly those.
 */
import { Value } from "typebox/value";
import { describe, expect, it } from "vitest";
import { BOARD_REJECTIONS, BoardRejectionSchema, CLAIM_REJECTIONS, ClaimRejectionSchema, SHELL_REJECTIONS, SUBMIT_REJECTIONS, SubmitRejectionSchema } from "../../../src/mail/index.ts";

describe("board rejection codes", () => {
  it("are the claim, submit and shell codes, each once", () => {
    expect(BOARD_REJECTIONS).toEqual([
      "has_assignment", "not_found", "not_pending", "completed", "superseded", "blocked", "resource_conflict", "none_claimable",
      "not_claimed", "not_holder", "in_review", "parked",
      "stale_spawn", "board_unavailable", "invalid_input",
    ]);
    expect(new Set(BOARD_REJECTIONS).size).toBe(BOARD_REJECTIONS.length);
    expect(SHELL_REJECTIONS).toEqual(["stale_spawn", "board_unavailable", "invalid_input"]);
  });

  it("the schemas accept exactly their codes", () => {
    for (const c of BOARD_REJECTIONS) expect(Value.Check(BoardRejectionSchema, c), c).toBe(true);
    for (const c of CLAIM_REJECTIONS) expect(Value.Check(ClaimRejectionSchema, c), c).toBe(true);
    for (const c of SUBMIT_REJECTIONS) expect(Value.Check(SubmitRejectionSchema, c), c).toBe(true);
    for (const c of ["owned", "rejected", "", "Blocked", 1, null]) expect(Value.Check(BoardRejectionSchema, c), String(c)).toBe(false);
    expect(Value.Check(ClaimRejectionSchema, "parked")).toBe(false);
    expect(Value.Check(SubmitRejectionSchema, "blocked")).toBe(false);
  });
});
