/**
 * The one boundary where Pi's stdout records become typed values (style practice 4).
 * Nothing here throws to the caller: bad input becomes a `ProtocolViolation` the client counts.
 */
import { errorText } from "../error-text.ts";
import { ShapeError, bool, isJsonObject, json, num, obj, objArray, optNum, optStr, optStrArray, str, strArray } from "./json-fields.ts";
import type {
  JsonObject,
  JsonValue,
  ParseLineResult,
  ProtocolViolation,
  ProtocolViolationReason,
  RpcEvent,
  RpcResponse,
  RpcUiRequest,
  WireMessage,
} from "./rpc-types.ts";

const LINE_PREVIEW_CHARS = 200;

/** Build a violation record with the line truncated to 200 characters. */
export function violation(reason: ProtocolViolationReason, message: string, line: string): ProtocolViolation {
  const preview = line.length > LINE_PREVIEW_CHARS ? `${line.slice(0, LINE_PREVIEW_CHARS)}…` : line;
  return { reason, message, line: preview };
}

/**
 * Parse one stdout line of `pi --mode rpc` into a response, event or extension UI request.
 * Never throws: anything unusable is returned as `{ ok: false, violation }`.
 */
export function parseRpcLine(line: string): ParseLineResult {
  let value: JsonValue;
  try {
    // JSON.parse only ever produces JSON values, so the cast states a fact.
    value = JSON.parse(line) as JsonValue;
  } catch (error) {
    const detail = errorText(error);
    return { ok: false, violation: violation("non_json", `not JSON (${detail})`, line) };
  }
  if (!isJsonObject(value)) {
    const kind = Array.isArray(value) ? "array" : value === null ? "null" : typeof value;
    return { ok: false, violation: violation("not_object", `expected a JSON object, got ${kind}`, line) };
  }
  const type = value["type"];
  if (typeof type !== "string" || type.length === 0) {
    return { ok: false, violation: violation("missing_type", "object has no string `type` field", line) };
  }
  try {
    if (type === "response") return { ok: true, record: { kind: "response", response: parseResponse(value) } };
    if (type === "extension_ui_request") {
      return { ok: true, record: { kind: "ui_request", request: parseUiRequest(value) } };
    }
    return { ok: true, record: { kind: "event", event: parseEvent(type, value) } };
  } catch (error) {
    if (!(error instanceof ShapeError)) throw error;
    const bad = violation("bad_shape", error.message, line);
    const id = value["id"];
    const method = value["method"];
    // A malformed dialog still blocks the child until answered: say which request to cancel.
    if (type !== "extension_ui_request" || typeof id !== "string") return { ok: false, violation: bad };
    return { ok: false, violation: bad, uiRequest: { id, method: typeof method === "string" ? method : "(none)" } };
  }
}

// ---------------------------------------------------------------- records

function message(o: JsonObject, where: string, key: string): WireMessage {
  const m = obj(o, where, key);
  str(m, `${where}.${key}`, "role");
  return m as WireMessage;
}

function messages(o: JsonObject, where: string, key: string): WireMessage[] {
  return objArray(o, where, key).map((m, index) => {
    str(m, `${where}.${key}[${index}]`, "role");
    return m as WireMessage;
  });
}

function parseResponse(o: JsonObject): RpcResponse {
  const id = optStr(o, "response", "id");
  const command = str(o, "response", "command");
  const success = bool(o, "response", "success");
  if (!success) return { type: "response", id, command, success: false, error: str(o, "response", "error") };
  const data = o["data"];
  return data === undefined ? { type: "response", id, command, success: true } : { type: "response", id, command, success: true, data };
}

function parseUiRequest(o: JsonObject): RpcUiRequest {
  const w = "extension_ui_request";
  const id = str(o, w, "id");
  const method = str(o, w, "method");
  const base = { type: "extension_ui_request", id } as const;
  switch (method) {
    case "select":
      return { ...base, method, title: str(o, w, "title"), options: strArray(o, w, "options"), timeout: optNum(o, w, "timeout") };
    case "confirm":
      return { ...base, method, title: str(o, w, "title"), message: str(o, w, "message"), timeout: optNum(o, w, "timeout") };
    case "input":
      return { ...base, method, title: str(o, w, "title"), placeholder: optStr(o, w, "placeholder"), timeout: optNum(o, w, "timeout") };
    case "editor":
      return { ...base, method, title: str(o, w, "title"), prefill: optStr(o, w, "prefill") };
    case "notify":
      return { ...base, method, message: str(o, w, "message"), notifyType: optStr(o, w, "notifyType") };
    case "setStatus":
      return { ...base, method, statusKey: str(o, w, "statusKey"), statusText: optStr(o, w, "statusText") };
    case "setWidget":
      return {
        ...base,
        method,
        widgetKey: str(o, w, "widgetKey"),
        widgetLines: optStrArray(o, w, "widgetLines"),
        widgetPlacement: optStr(o, w, "widgetPlacement"),
      };
    case "setTitle":
      return { ...base, method, title: str(o, w, "title") };
    case "set_editor_text":
      return { ...base, method, text: str(o, w, "text") };
    default:
      return { ...base, method: "unknown", rawMethod: method };
  }
}

function parseEvent(type: string, o: JsonObject): RpcEvent {
  switch (type) {
    case "agent_start":
    case "turn_start":
      return { type };
    case "agent_end":
      return { type, messages: messages(o, type, "messages"), willRetry: bool(o, type, "willRetry") };
    case "agent_settled":
      return { type, aborted: bool(o, type, "aborted") };
    case "turn_end":
    case "message_start":
    case "message_end":
      return { type, message: message(o, type, "message") };
    case "message_update": {
      const ame = obj(o, type, "assistantMessageEvent");
      str(ame, `${type}.assistantMessageEvent`, "type");
      const usage = o["usage"];
      return {
        type,
        assistantMessageEvent: ame as JsonObject & { type: string },
        ...(isJsonObject(usage) ? { usage } : {}),
      };
    }
    case "tool_execution_start":
      return { type, toolCallId: str(o, type, "toolCallId"), toolName: str(o, type, "toolName"), args: json(o, "args") };
    case "tool_execution_update":
      return {
        type,
        toolCallId: str(o, type, "toolCallId"),
        toolName: str(o, type, "toolName"),
        partialResult: json(o, "partialResult"),
      };
    case "tool_execution_end":
      return {
        type,
        toolCallId: str(o, type, "toolCallId"),
        toolName: str(o, type, "toolName"),
        result: json(o, "result"),
        isError: bool(o, type, "isError"),
        durationMs: optNum(o, type, "durationMs"),
      };
    case "queue_update":
      return { type, steering: strArray(o, type, "steering"), followUp: strArray(o, type, "followUp") };
    case "extension_error":
      return { type, extensionPath: str(o, type, "extensionPath"), event: str(o, type, "event"), error: str(o, type, "error") };
    case "entry_appended":
      return { type, entry: obj(o, type, "entry") };
    case "compaction_start":
      return { type, reason: str(o, type, "reason") };
    case "compaction_end":
      return {
        type,
        reason: str(o, type, "reason"),
        aborted: bool(o, type, "aborted"),
        willRetry: bool(o, type, "willRetry"),
        errorMessage: optStr(o, type, "errorMessage"),
      };
    case "auto_retry_start":
      return {
        type,
        attempt: num(o, type, "attempt"),
        maxAttempts: num(o, type, "maxAttempts"),
        delayMs: num(o, type, "delayMs"),
        errorMessage: str(o, type, "errorMessage"),
      };
    case "auto_retry_end":
      return { type, success: bool(o, type, "success"), attempt: num(o, type, "attempt"), finalError: optStr(o, type, "finalError") };
    default:
      return { type: "other", eventType: type, record: o };
  }
}
