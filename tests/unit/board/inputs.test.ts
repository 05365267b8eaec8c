import { describe, expect, it } from "vitest";
import {
  TaskClaimParams,
  TaskCreateParams,
  TaskListParams,
  TaskSubmitParams,
  normalizeClaimInput,
  normalizeCreateInput,
  normalizeSubmitInput,
  parseStringList,
} from "../../../src/board/index.ts";

describe("tool parameter schemas (L25)", () => {
  it.each([TaskCreateParams, TaskListParams, TaskClaimParams, TaskSubmitParams])("has a plain object root", (schema) => {
    expect(schema.type).toBe("object");
    expect("anyOf" in schema).toBe(false);
  });
});

describe("parseStringList (L26)", () => {
  it.each([
    [undefined, []],
    [null, []],
    ["", []],
    [["a", "b"], ["a", "b"]],
    ['["a","b"]', ["a", "b"]],
    ['  [ "a" ]  ', ["a"]],
    [['["a","b"]'], ["a", "b"]],
  ])("accepts %j", (value, expected) => {
    expect(parseStringList("dependsOn", value)).toEqual({ ok: true, value: expected });
  });

  it.each([["a, b"], ["[a, b]"], ['{"a":1}'], ["fix-auth"], [[1, 2]], [42], ['["a", 1]']])("rejects %j naming field and value", (value) => {
    const r = parseStringList("resources", value);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.field).toBe("resources");
      expect(r.message).toContain("resources: got ");
      expect(r.message).toContain(JSON.stringify(value));
      expect(r.message).toContain("expected");
    }
  });
});

describe("normalizeCreateInput", () => {
  it("accepts stringified arrays for dependsOn, resources and supersedes", () => {
    const r = normalizeCreateInput({ subject: "S", dependsOn: '["a"]', resources: '["api/auth"]', supersedes: "[]", verify: "ok" });
    expect(r).toEqual({ ok: true, value: { subject: "S", verify: "ok", dependsOn: ["a"], resources: ["api/auth"], supersedes: [] } });
  });

  it("rejects a missing subject and non-string fields", () => {
    expect(normalizeCreateInput({})).toMatchObject({ ok: false, field: "subject" });
    expect(normalizeCreateInput({ subject: "S", verify: 3 })).toMatchObject({ ok: false, field: "verify" });
    expect(normalizeCreateInput({ subject: "S", supersedes: "old-task" })).toMatchObject({ ok: false, field: "supersedes" });
    expect(normalizeCreateInput("S")).toMatchObject({ ok: false, field: "arguments" });
  });
});

describe("normalizeClaimInput / normalizeSubmitInput", () => {
  it("claim: optional id", () => {
    expect(normalizeClaimInput({})).toEqual({ ok: true, value: {} });
    expect(normalizeClaimInput(undefined)).toEqual({ ok: true, value: {} });
    expect(normalizeClaimInput({ taskId: " a " })).toEqual({ ok: true, value: { taskId: "a" } });
    expect(normalizeClaimInput({ taskId: 5 })).toMatchObject({ ok: false, field: "taskId" });
  });

  it("submit: status completed or failed", () => {
    expect(normalizeSubmitInput({ taskId: "a", status: "Completed", result: "r" })).toEqual({ ok: true, value: { taskId: "a", status: "completed", result: "r" } });
    expect(normalizeSubmitInput({ taskId: "a", status: "done" })).toMatchObject({ ok: false, field: "status" });
    expect(normalizeSubmitInput({ status: "failed" })).toMatchObject({ ok: false, field: "taskId" });
  });
});
