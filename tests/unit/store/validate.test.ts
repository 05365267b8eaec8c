import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { checkValue } from "../../../src/store/index.ts";

const Schema = Type.Object({
  v: Type.Literal(1),
  status: Type.Union([Type.Literal("a"), Type.Literal("b")]),
  items: Type.Array(Type.Object({ n: Type.String({ minLength: 1 }) })),
});

describe("checkValue", () => {
  it("returns the value when it matches", () => {
    const value = { v: 1, status: "a", items: [{ n: "x" }] };
    expect(checkValue(Schema, value)).toEqual({ ok: true, value });
  });

  it("names the field, the value found and the values allowed", () => {
    const result = checkValue(Schema, { v: 1, status: "dead", items: [] });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message).toBe('/status is "dead"; expected one of "a" | "b"');
  });

  it("reports constants, nested fields and missing properties", () => {
    const result = checkValue(Schema, { v: 2, status: "a", items: [{ n: "" }, {}] });
    if (result.ok) throw new Error("expected a failure");
    expect(result.message).toContain("/v is 2; expected exactly 1");
    expect(result.message).toContain('/items/0/n is ""; expected a value that');
    expect(result.message).toContain("/items/1/n missing (required)");
  });

  it("describes a non-object root", () => {
    const result = checkValue(Schema, 42);
    if (result.ok) throw new Error("expected a failure");
    expect(result.message).toMatch(/^\(root\) is 42; expected/);
  });

  it("lists at most three fields", () => {
    const result = checkValue(Type.Object({ a: Type.Number(), b: Type.Number(), c: Type.Number(), d: Type.Number() }), {
      a: "1",
      b: "2",
      c: "3",
      d: "4",
    });
    if (result.ok) throw new Error("expected a failure");
    expect(result.message).toContain("and 1 more field(s)");
  });
});
