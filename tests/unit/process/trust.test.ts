import { describe, expect, it } from "vitest";
import { trustFlag } from "../../../src/process/trust.ts";

describe("trustFlag", () => {
  it("passes the leader's decision on: -a when trusted, -na when not", () => {
    expect(trustFlag(true)).toBe("-a");
    expect(trustFlag(false)).toBe("-na");
  });
});
