import { describe, expect, it } from "vitest";
import { normalizeTools } from "../../../src/agents/index.ts";

describe("normalizeTools (R5, L12)", () => {
  it("splits a comma list and trims", () => {
    expect(normalizeTools("read, bash ,grep")).toEqual({ tools: ["read", "bash", "grep"], repaired: [] });
  });

  it("accepts whitespace as a separator and drops empty items", () => {
    expect(normalizeTools("read bash,,  ,edit")).toEqual({ tools: ["read", "bash", "edit"], repaired: [] });
  });

  it("keeps the order of a list and removes duplicates", () => {
    expect(normalizeTools(["bash", "read", "bash"])).toEqual({ tools: ["bash", "read"], repaired: [] });
  });

  it("splits list items that themselves hold a comma list", () => {
    expect(normalizeTools(["read,bash", "edit"]).tools).toEqual(["read", "bash", "edit"]);
  });

  it("repairs -item tokens (a YAML list dash without its space) and reports them", () => {
    expect(normalizeTools("-read -bash")).toEqual({ tools: ["read", "bash"], repaired: ["-read", "-bash"] });
  });

  it("drops a lone dash but still reports it", () => {
    expect(normalizeTools("- read")).toEqual({ tools: ["read"], repaired: ["-"] });
  });

  it("gives an empty allowlist for an empty string or list", () => {
    expect(normalizeTools("").tools).toEqual([]);
    expect(normalizeTools([]).tools).toEqual([]);
  });
});
