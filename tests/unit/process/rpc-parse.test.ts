import { describe, expect, it } from "vitest";
import { parseResponseData, parseRpcLine, type ParseLineResult } from "../../../src/process/index.ts";

function reasonOf(result: ParseLineResult): string {
  return result.ok ? "ok" : result.violation.reason;
}

describe("parseRpcLine", () => {
  it("classifies garbage without throwing", () => {
    expect(reasonOf(parseRpcLine("Debugger listening"))).toBe("non_json");
    expect(reasonOf(parseRpcLine(""))).toBe("non_json");
    expect(reasonOf(parseRpcLine("[1]"))).toBe("not_object");
    expect(reasonOf(parseRpcLine("null"))).toBe("not_object");
    expect(reasonOf(parseRpcLine('"str"'))).toBe("not_object");
    expect(reasonOf(parseRpcLine('{"a":1}'))).toBe("missing_type");
    expect(reasonOf(parseRpcLine('{"type":7}'))).toBe("missing_type");
    expect(reasonOf(parseRpcLine('{"type":"agent_settled","aborted":"no"}'))).toBe("bad_shape");
    expect(reasonOf(parseRpcLine('{"type":"response","success":true}'))).toBe("bad_shape");
  });

  it("names the field and the expected shape, and truncates long lines", () => {
    const result = parseRpcLine(JSON.stringify({ type: "tool_execution_end", toolCallId: "c1", toolName: "bash", result: {}, isError: 1, pad: "x".repeat(500) }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.violation.message).toBe("tool_execution_end.isError: expected boolean, got number");
    expect(result.violation.line.length).toBeLessThanOrEqual(201);
  });

  it("parses responses with and without id", () => {
    expect(parseRpcLine('{"id":"r1","type":"response","command":"get_state","success":true,"data":{"x":1}}')).toEqual({
      ok: true,
      record: { kind: "response", response: { type: "response", id: "r1", command: "get_state", success: true, data: { x: 1 } } },
    });
    expect(parseRpcLine('{"type":"response","command":"parse","success":false,"error":"Failed to parse"}')).toEqual({
      ok: true,
      record: { kind: "response", response: { type: "response", id: undefined, command: "parse", success: false, error: "Failed to parse" } },
    });
  });

  it("parses the events we act on", () => {
    const settled = parseRpcLine('{"type":"agent_settled","aborted":false}');
    expect(settled).toEqual({ ok: true, record: { kind: "event", event: { type: "agent_settled", aborted: false } } });
    const queue = parseRpcLine('{"type":"queue_update","steering":["a"],"followUp":[]}');
    expect(queue.ok && queue.record.kind === "event" && queue.record.event).toEqual({ type: "queue_update", steering: ["a"], followUp: [] });
    const update = parseRpcLine('{"type":"message_update","usage":{"input":1},"assistantMessageEvent":{"type":"text_delta","delta":"hi"}}');
    expect(update.ok && update.record.kind === "event" && update.record.event).toEqual({
      type: "message_update",
      usage: { input: 1 },
      assistantMessageEvent: { type: "text_delta", delta: "hi" },
    });
    const extensionError = parseRpcLine('{"type":"extension_error","extensionPath":"/x.ts","event":"tool_call","error":"boom"}');
    expect(extensionError.ok && extensionError.record.kind === "event" && extensionError.record.event.type).toBe("extension_error");
    const end = parseRpcLine('{"type":"agent_end","messages":[{"role":"assistant"}],"willRetry":false}');
    expect(end.ok && end.record.kind === "event" && end.record.event).toEqual({ type: "agent_end", messages: [{ role: "assistant" }], willRetry: false });
  });

  it("passes unknown events through as `other`", () => {
    const result = parseRpcLine('{"type":"session_info_changed","name":"team:alice"}');
    expect(result).toEqual({
      ok: true,
      record: { kind: "event", event: { type: "other", eventType: "session_info_changed", record: { type: "session_info_changed", name: "team:alice" } } },
    });
  });

  it("parses UI requests, mapping an unknown method to `unknown`", () => {
    const confirm = parseRpcLine('{"type":"extension_ui_request","id":"u1","method":"confirm","title":"T","message":"M","timeout":5000}');
    expect(confirm.ok && confirm.record.kind === "ui_request" && confirm.record.request).toEqual({
      type: "extension_ui_request",
      id: "u1",
      method: "confirm",
      title: "T",
      message: "M",
      timeout: 5000,
    });
    const future = parseRpcLine('{"type":"extension_ui_request","id":"u2","method":"pickColor"}');
    expect(future.ok && future.record.kind === "ui_request" && future.record.request).toEqual({
      type: "extension_ui_request",
      id: "u2",
      method: "unknown",
      rawMethod: "pickColor",
    });
    expect(reasonOf(parseRpcLine('{"type":"extension_ui_request","method":"notify","message":"x"}'))).toBe("bad_shape");
  });
});

describe("parseResponseData", () => {
  it("validates prompt dispositions", () => {
    expect(parseResponseData("prompt", { disposition: "queued" })).toEqual({ ok: true, value: { disposition: "queued" } });
    expect(parseResponseData("prompt", { disposition: "later" })).toEqual({
      ok: false,
      message: 'prompt.data.disposition: expected started|queued|handled, got "later"',
    });
    expect(parseResponseData("steer", { disposition: "started" }).ok).toBe(false);
  });

  it("validates get_state and keeps the model", () => {
    const data = {
      model: { provider: "p", id: "m", name: "M" },
      thinkingLevel: "off",
      isStreaming: true,
      isCompacting: false,
      steeringMode: "all",
      followUpMode: "one-at-a-time",
      sessionId: "s1",
      autoCompactionEnabled: true,
      messageCount: 3,
      pendingMessageCount: 1,
    };
    const result = parseResponseData("get_state", data);
    expect(result.ok && result.value.isStreaming).toBe(true);
    expect(result.ok && result.value.model?.id).toBe("m");
    expect(parseResponseData("get_state", { ...data, isStreaming: "yes" })).toEqual({
      ok: false,
      message: "get_state.data.isStreaming: expected boolean, got string",
    });
    expect(parseResponseData("get_state", undefined).ok).toBe(false);
  });

  it("accepts commands without data and nullable text", () => {
    expect(parseResponseData("abort", undefined)).toEqual({ ok: true, value: undefined });
    expect(parseResponseData("get_last_assistant_text", { text: null })).toEqual({ ok: true, value: { text: null } });
    expect(parseResponseData("get_last_assistant_text", {}).ok).toBe(false);
  });
});

describe("parseResponseData for a command outside the subset", () => {
  it("reports instead of throwing", () => {
    expect(parseResponseData("no_such_command" as "abort", {})).toEqual({ ok: false, message: 'no data parser for command "no_such_command"' });
    expect(parseResponseData("toString" as "abort", {}).ok).toBe(false);
  });
});
