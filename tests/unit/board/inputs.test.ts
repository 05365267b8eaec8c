import { describe, expect, it } from "vitest";
import { INTENT_RESULT_MAX_CHARS, INTENT_TASK_ID_MAX_CHARS } from "../../../src/mail/index.ts";
import { SUBMIT_RESULT_MAX_CHARS } from "../../../src/board/inputs.ts";
import {
  MAX_ID_LENGTH,
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

  it("claim and submit: a task id longer than any task id can be is rejected at once, naming the limit", () => {
    const long = "t".repeat(65);
    for (const r of [normalizeClaimInput({ taskId: long }), normalizeSubmitInput({ taskId: long, status: "completed" })]) {
      expect(r).toMatchObject({ ok: false, field: "taskId" });
      if (r.ok) continue;
      expect(r.message).toContain("65 characters");
      expect(r.message).toContain(`at most ${MAX_ID_LENGTH} characters`);
      expect(r.message.length).toBeLessThan(300); // the value is shown truncated
    }
    const longest = "a".repeat(MAX_ID_LENGTH);
    expect(normalizeClaimInput({ taskId: longest })).toEqual({ ok: true, value: { taskId: longest } });
    expect(normalizeSubmitInput({ taskId: longest, status: "failed" })).toMatchObject({ ok: true });
  });

  it("submit: a result over the limit is rejected at once with its size and the limit, not echoed whole", () => {
    const r = normalizeSubmitInput({ taskId: "a", status: "completed", result: "r".repeat(61_000) });
    expect(r).toMatchObject({ ok: false, field: "result" });
    if (!r.ok) {
      expect(r.message).toContain("61000 characters");
      expect(r.message).toContain(`at most ${SUBMIT_RESULT_MAX_CHARS} characters`);
      expect(r.message.length).toBeLessThan(400);
    }
    const max = "r".repeat(SUBMIT_RESULT_MAX_CHARS);
    expect(normalizeSubmitInput({ taskId: "a", status: "completed", result: max })).toMatchObject({ ok: true, value: { result: max } });
  });

  it("the input limits fit inside the intent schema, so a normalised input is always a valid intent", () => {
    expect(MAX_ID_LENGTH).toBeLessThanOrEqual(INTENT_TASK_ID_MAX_CHARS);
    expect(SUBMIT_RESULT_MAX_CHARS).toBeLessThanOrEqual(INTENT_RESULT_MAX_CHARS);
  });

  it("submit: status completed or failed", () => {
    expect(normalizeSubmitInput({ taskId: "a", status: "Completed", result: "r" })).toEqual({ ok: true, value: { taskId: "a", status: "completed", result: "r" } });
    expect(normalizeSubmitInput({ taskId: "a", status: "done" })).toMatchObject({ ok: false, field: "status" });
    expect(normalizeSubmitInput({ status: "failed" })).toMatchObject({ ok: false, field: "taskId" });
  });
});
