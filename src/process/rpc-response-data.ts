/**
 * Validation of a success response's `data` against the command that was sent (the per-command
 * half of the RPC boundary; see rpc-parse.ts for records).
 */
import { ShapeError, bool, describeJson, isJsonObject, nullableStr, num, objArray, optStr, str, strArray } from "./json-fields.ts";
import type { JsonObject, JsonValue, RpcCommandType, RpcModel, RpcResponseData, RpcSessionState, RpcSlashCommand } from "./rpc-types.ts";

/** Result of validating a success response's `data` for the command that was sent. */
export type DataResult<T> = { ok: true; value: T } | { ok: false; message: string };

type DataParsers = { [K in RpcCommandType]: (data: JsonValue | undefined) => RpcResponseData[K] };

const none = (): undefined => undefined;

function data(d: JsonValue | undefined, command: string): JsonObject {
  if (!isJsonObject(d)) throw new ShapeError(`${command}.data: expected object, got ${describeJson(d)}`);
  return d;
}

function disposition<T extends string>(d: JsonValue | undefined, command: string, allowed: readonly T[]): { disposition: T } {
  const value = str(data(d, command), `${command}.data`, "disposition");
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ShapeError(`${command}.data.disposition: expected ${allowed.join("|")}, got "${value}"`);
  }
  return { disposition: value as T };
}

function sessionState(d: JsonValue | undefined): RpcSessionState {
  const w = "get_state.data";
  const o = data(d, "get_state");
  const model = o["model"];
  return {
    ...(isJsonObject(model) ? { model: modelOf(model, `${w}.model`) } : {}),
    thinkingLevel: str(o, w, "thinkingLevel"),
    isStreaming: bool(o, w, "isStreaming"),
    isCompacting: bool(o, w, "isCompacting"),
    steeringMode: str(o, w, "steeringMode"),
    followUpMode: str(o, w, "followUpMode"),
    sessionFile: optStr(o, w, "sessionFile"),
    sessionId: str(o, w, "sessionId"),
    sessionName: optStr(o, w, "sessionName"),
    autoCompactionEnabled: bool(o, w, "autoCompactionEnabled"),
    messageCount: num(o, w, "messageCount"),
    pendingMessageCount: num(o, w, "pendingMessageCount"),
  };
}

function modelOf(o: JsonObject, where: string): RpcModel {
  str(o, where, "provider");
  str(o, where, "id");
  return o as RpcModel;
}

const DATA_PARSERS: DataParsers = {
  prompt: (d) => disposition(d, "prompt", ["started", "queued", "handled"] as const),
  steer: (d) => disposition(d, "steer", ["queued", "handled"] as const),
  follow_up: (d) => disposition(d, "follow_up", ["queued", "handled"] as const),
  abort: none,
  clear_queue: (d) => {
    const o = data(d, "clear_queue");
    return { steering: strArray(o, "clear_queue.data", "steering"), followUp: strArray(o, "clear_queue.data", "followUp") };
  },
  new_session: (d) => ({ cancelled: bool(data(d, "new_session"), "new_session.data", "cancelled") }),
  switch_session: (d) => ({ cancelled: bool(data(d, "switch_session"), "switch_session.data", "cancelled") }),
  clone: (d) => ({ cancelled: bool(data(d, "clone"), "clone.data", "cancelled") }),
  get_state: sessionState,
  set_model: (d) => modelOf(data(d, "set_model"), "set_model.data"),
  set_thinking_level: none,
  set_steering_mode: none,
  set_follow_up_mode: none,
  compact: (d) => data(d, "compact"),
  get_session_stats: (d) => data(d, "get_session_stats"),
  get_last_assistant_text: (d) => ({
    text: nullableStr(data(d, "get_last_assistant_text"), "get_last_assistant_text.data", "text"),
  }),
  get_entries: (d) => {
    const o = data(d, "get_entries");
    return { entries: objArray(o, "get_entries.data", "entries"), leafId: nullableStr(o, "get_entries.data", "leafId") };
  },
  get_messages: (d) => ({ messages: objArray(data(d, "get_messages"), "get_messages.data", "messages") }),
  set_session_name: none,
  get_commands: (d) => {
    const list = objArray(data(d, "get_commands"), "get_commands.data", "commands");
    return {
      commands: list.map((c, i): RpcSlashCommand => {
        const w = `get_commands.data.commands[${i}]`;
        const description = optStr(c, w, "description");
        return { name: str(c, w, "name"), source: str(c, w, "source"), ...(description === undefined ? {} : { description }) };
      }),
    };
  },
};

/**
 * Validate the `data` of a successful response against the command that was sent.
 * Never throws; a mismatch is `{ ok: false, message }` (the client rejects that request with
 * `protocol_violation` and counts it).
 */
export function parseResponseData<K extends RpcCommandType>(command: K, raw: JsonValue | undefined): DataResult<RpcResponseData[K]> {
  // A command outside our typed subset (sent through a cast) has no parser: report, don't crash.
  const parser: ((d: JsonValue | undefined) => RpcResponseData[K]) | undefined = Object.hasOwn(DATA_PARSERS, command)
    ? DATA_PARSERS[command]
    : undefined;
  if (!parser) return { ok: false, message: `no data parser for command "${String(command)}"` };
  try {
    return { ok: true, value: parser(raw) };
  } catch (error) {
    if (error instanceof ShapeError) return { ok: false, message: error.message };
    throw error;
  }
}
