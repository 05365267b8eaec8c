import { describe, expect, it } from "vitest";
import { ListCursor } from "../../../src/ui/cursor.ts";
import { pickerEntries } from "../../../src/ui/model-picker.ts";
import { MODELS } from "./fixture.ts";

describe("ListCursor and the picker entries", () => {
  it("keeps its row by key, clamps when the row is gone, windows around the selection", () => {
    const c = new ListCursor();
    expect(c.sync([])).toBe(-1);
    c.move(2, ["a", "b", "c", "d"]);
    expect(c.sync(["x", "c", "a"])).toBe(1);
    expect(c.sync(["a", "b"])).toBe(1);
    c.jump("end", ["a", "b", "c", "d", "e", "f"]);
    expect(c.windowTop(3, 6)).toBe(3);
    c.jump("home", ["a", "b", "c", "d", "e", "f"]);
    expect(c.windowTop(3, 6)).toBe(0);
  });

  it("Pi default first without a query; fuzzy matches with one", () => {
    expect(pickerEntries(MODELS, "").map((e) => e.label)).toEqual(["Pi default", "anthropic/claude-sonnet-4", "anthropic/claude-haiku-4", "openai/gpt-5", "google/gemini-2.5-pro"]);
    expect(pickerEntries(MODELS, "gpt").map((e) => e.label)).toEqual(["openai/gpt-5"]);
    expect(pickerEntries(MODELS, "pi def").at(-1)?.model).toBeUndefined();
    expect(pickerEntries(MODELS, "zzz")).toEqual([]);
  });
});
