/**
 * The subset of Pi 1.6.0's RPC wire types this package uses (`pi --mode rpc`).
 *
 * Source of truth: `@earendil-works/pi-coding-agent` `dist/modes/rpc/rpc-types.d.ts`, `docs/rpc.md`,
 * `docs/rpc-commands.md`, `docs/json.md`, `docs/rpc-extension-ui.md`. Inbound records are parsed once
 * at the boundary by `parseRpcLine` (rpc-parse.ts); after that no code handles `unknown`.
 * Deep payloads we only pass along (messages, tool arguments and results) are typed as `JsonValue`.
 * Page: references/rpc-usage.md.
 */

/** Version of the RPC subset described here; bump when the wire expectations change. */
export const RPC_WIRE_VERSION = 1;
/** The Pi version these types were checked against. */
export const RPC_CHECKED_PI_VERSION = "1.6.0";

/** JSON scalars. */
export type JsonPrimitive = string | number | boolean | null;
/** Any value `JSON.parse` can produce; opaque payloads are typed as this, never `unknown`. */
export type JsonValue = JsonPrimitive | JsonValue[] | JsonObject;
/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

/** How Pi queues a `prompt` that arrives while a run is active. Ignored by Pi when idle. */
export type StreamingBehavior = "steer" | "followUp";
/** Steering / follow-up queue delivery mode (Pi default `one-at-a-time`). */
export type QueueMode = "all" | "one-at-a-time";
/** Pi thinking levels (`set_thinking_level`). */
export type ThinkingLevel = "off" | "minimal" | "low" | "medium" | "high" | "xhigh" | "max";
/** `started`: a run began; `queued`: held for the active run; `handled`: an extension command consumed it (no run). */
export type PromptDisposition = "started" | "queued" | "handled";
/** `steer` / `follow_up` outcome: queued for the run, or consumed by an input handler. */
export type QueuedDisposition = "queued" | "handled";

/** An image attached to a prompt, steer or follow-up. */
export interface RpcImage {
  type: "image";
  /** Base64 data. */
  data: string;
  mimeType: string;
}

// ---------------------------------------------------------------- commands (stdin)

/**
 * Commands we send. The `id` is assigned by `RpcChild.send`, never by callers.
 * `prompt.streamingBehavior` is REQUIRED here although Pi makes it optional: a prompt sent
 * while the child streams without it is rejected by Pi (L3, W1), so we always state it.
 */
export type RpcCommand =
  | { type: "prompt"; message: string; streamingBehavior: StreamingBehavior; images?: RpcImage[] }
  | { type: "steer"; message: string; images?: RpcImage[] }
  | { type: "follow_up"; message: string; images?: RpcImage[] }
  | { type: "abort" }
  | { type: "clear_queue" }
  | { type: "new_session"; parentSession?: string }
  | { type: "switch_session"; sessionPath: string }
  | { type: "clone" }
  | { type: "get_state" }
  | { type: "set_model"; provider: string; modelId: string }
  | { type: "set_thinking_level"; level: ThinkingLevel }
  | { type: "set_steering_mode"; mode: QueueMode }
  | { type: "set_follow_up_mode"; mode: QueueMode }
  | { type: "compact"; customInstructions?: string }
  | { type: "get_session_stats" }
  | { type: "get_last_assistant_text" }
  | { type: "get_entries"; since?: string }
  | { type: "get_messages" }
  | { type: "set_session_name"; name: string }
  | { type: "get_commands" };

/** The `type` of a command we send. */
export type RpcCommandType = RpcCommand["type"];

/** `get_state` data (fields validated in rpc-response-data.ts). */
export interface RpcSessionState {
  model?: RpcModel;
  thinkingLevel: string;
  isStreaming: boolean;
  isCompacting: boolean;
  steeringMode: string;
  followUpMode: string;
  sessionFile?: string;
  sessionId: string;
  sessionName?: string;
  autoCompactionEnabled: boolean;
  messageCount: number;
  pendingMessageCount: number;
}

/** A Pi model object; only `provider` and `id` are checked, the rest passes through. */
export type RpcModel = JsonObject & { provider: string; id: string };

/** One entry of `get_commands`. */
export interface RpcSlashCommand {
  name: string;
  description?: string;
  source: string;
}

/** Typed `data` of a successful response, per command (validated in rpc-parse.ts). */
export interface RpcResponseData {
  prompt: { disposition: PromptDisposition };
  steer: { disposition: QueuedDisposition };
  follow_up: { disposition: QueuedDisposition };
  abort: undefined;
  clear_queue: { steering: string[]; followUp: string[] };
  new_session: { cancelled: boolean };
  switch_session: { cancelled: boolean };
  clone: { cancelled: boolean };
  get_state: RpcSessionState;
  set_model: RpcModel;
  set_thinking_level: undefined;
  set_steering_mode: undefined;
  set_follow_up_mode: undefined;
  compact: JsonObject;
  get_session_stats: JsonObject;
  get_last_assistant_text: { text: string | null };
  get_entries: { entries: JsonObject[]; leafId: string | null };
  get_messages: { messages: JsonObject[] };
  set_session_name: undefined;
  get_commands: { commands: RpcSlashCommand[] };
}

// ---------------------------------------------------------------- responses (stdout)

/**
 * A `response` record. `id` is absent for Pi's `command:"parse"` errors (it could not read ours).
 * `data` is still raw here; `RpcChild` validates it against the command it sent.
 */
export type RpcResponse =
  | { type: "response"; id?: string; command: string; success: true; data?: JsonValue }
  | { type: "response"; id?: string; command: string; success: false; error: string };

// ---------------------------------------------------------------- events (stdout, no id)

/** A message of any role as Pi sends it; only `role` is checked. */
export type WireMessage = JsonObject & { role: string };

/** `message_update.assistantMessageEvent` (delta-only on the wire); only `type` is checked. */
export type AssistantMessageEventWire = JsonObject & { type: string };

/** Session events on stdout (no id), as parsed; unknown types become `other`. */
export type RpcEvent =
  | { type: "agent_start" }
  /** End of one low-level run; more may follow (retry, queued follow-up). Not the idle signal (W2). */
  | { type: "agent_end"; messages: WireMessage[]; willRetry: boolean }
  /** Pi will not continue on its own: the idle signal (pi-api.md §1.3). */
  | { type: "agent_settled"; aborted: boolean }
  | { type: "turn_start" }
  | { type: "turn_end"; message: WireMessage }
  | { type: "message_start"; message: WireMessage }
  /** Delta-only on the wire: no cumulative message; `usage` is the latest cumulative usage. */
  | { type: "message_update"; usage?: JsonObject; assistantMessageEvent: AssistantMessageEventWire }
  | { type: "message_end"; message: WireMessage }
  | { type: "tool_execution_start"; toolCallId: string; toolName: string; args: JsonValue }
  | { type: "tool_execution_update"; toolCallId: string; toolName: string; partialResult: JsonValue }
  | {
      type: "tool_execution_end";
      toolCallId: string;
      toolName: string;
      result: JsonValue;
      isError: boolean;
      durationMs?: number;
    }
  /** Full current queue of RPC steer / follow-up texts (not emitted for extension sendMessage). */
  | { type: "queue_update"; steering: string[]; followUp: string[] }
  /** An extension handler in the child threw. */
  | { type: "extension_error"; extensionPath: string; event: string; error: string }
  | { type: "entry_appended"; entry: JsonObject }
  | { type: "compaction_start"; reason: string }
  | { type: "compaction_end"; reason: string; aborted: boolean; willRetry: boolean; errorMessage?: string }
  | { type: "auto_retry_start"; attempt: number; maxAttempts: number; delayMs: number; errorMessage: string }
  | { type: "auto_retry_end"; success: boolean; attempt: number; finalError?: string }
  /** Any other well-formed event (session_info_changed, bash_execution_update, ...), passed through. */
  | { type: "other"; eventType: string; record: JsonObject };

/** The `type` of a parsed event (`other` for pass-through events). */
export type RpcEventType = RpcEvent["type"];

// ---------------------------------------------------------------- extension UI (both ways)

/**
 * Dialogs block the child until answered (W4). RpcChild answers them at once with `cancelled`,
 * unless its owner gave an answerer (`RpcChildOptions.answerUi`, src/process/ui-dialogs.ts).
 */
export type RpcUiDialogRequest =
  | { type: "extension_ui_request"; id: string; method: "select"; title: string; options: string[]; timeout?: number }
  | { type: "extension_ui_request"; id: string; method: "confirm"; title: string; message: string; timeout?: number }
  | { type: "extension_ui_request"; id: string; method: "input"; title: string; placeholder?: string; timeout?: number }
  | { type: "extension_ui_request"; id: string; method: "editor"; title: string; prefill?: string };

/** Fire-and-forget UI requests: recorded and emitted, never answered. */
export type RpcUiNoticeRequest =
  | { type: "extension_ui_request"; id: string; method: "notify"; message: string; notifyType?: string }
  | { type: "extension_ui_request"; id: string; method: "setStatus"; statusKey: string; statusText?: string }
  | {
      type: "extension_ui_request";
      id: string;
      method: "setWidget";
      widgetKey: string;
      widgetLines?: string[];
      widgetPlacement?: string;
    }
  | { type: "extension_ui_request"; id: string; method: "setTitle"; title: string }
  | { type: "extension_ui_request"; id: string; method: "set_editor_text"; text: string };

/**
 * A request with a method Pi 1.6.0 does not define. It might be a dialog of a newer Pi, so
 * RpcChild answers it with `cancelled` too (an answer to a non-dialog is ignored by Pi).
 */
export type RpcUiUnknownRequest = { type: "extension_ui_request"; id: string; method: "unknown"; rawMethod: string };

/** Any extension UI request of the child. */
export type RpcUiRequest = RpcUiDialogRequest | RpcUiNoticeRequest | RpcUiUnknownRequest;

/**
 * An answer to one dialog, as an answerer gives it: `value` for select (the chosen option), input
 * and editor (the text); `confirmed` for confirm; `cancelled` for any of them.
 */
export type UiAnswer = { value: string } | { confirmed: boolean } | { cancelled: true };

/** Our answer to a dialog on the wire (`UiAnswer` with the request's id). */
export type RpcUiResponse =
  | { type: "extension_ui_response"; id: string; value: string }
  | { type: "extension_ui_response"; id: string; confirmed: boolean }
  | { type: "extension_ui_response"; id: string; cancelled: true };

/** Methods that block the child until an `extension_ui_response` arrives. */
export const UI_DIALOG_METHODS: ReadonlySet<string> = new Set(["select", "confirm", "input", "editor"]);

// ---------------------------------------------------------------- parsed inbound record

/** One stdout line, parsed. */
export type RpcInbound =
  | { kind: "response"; response: RpcResponse }
  | { kind: "event"; event: RpcEvent }
  | { kind: "ui_request"; request: RpcUiRequest };

/** Why a stdout line could not be used. */
export type ProtocolViolationReason =
  /** Not JSON at all (includes empty lines). */
  | "non_json"
  /** JSON, but not an object (array, string, number, null). */
  | "not_object"
  /** An object without a string `type`. */
  | "missing_type"
  /** A known record type whose fields we read have the wrong shape. */
  | "bad_shape"
  /** A response with an id we are not waiting for (late after a timeout, or never sent). */
  | "unmatched_response"
  /** A failure response without id (Pi's `command:"parse"`): Pi could not read one of our lines. */
  | "uncorrelated_error"
  /** A success response whose `data` does not match the command we sent. */
  | "bad_response_data";

/** A stdout line we could not use. Counted and reported, never thrown into the app. */
export interface ProtocolViolation {
  reason: ProtocolViolationReason;
  /** What was wrong, e.g. `agent_settled.aborted: expected boolean, got string`. */
  message: string;
  /** The offending line, truncated to 200 characters. */
  line: string;
}

/** Result of `parseRpcLine`: a record, or the violation to count and report. */
export type ParseLineResult =
  | { ok: true; record: RpcInbound }
  /**
   * `uiRequest`: the line was an `extension_ui_request` with a string id whose other fields are
   * bad; cancel it, it may be a dialog the child blocks on. `method` is `(none)` when not a string.
   */
  | { ok: false; violation: ProtocolViolation; uiRequest?: { id: string; method: string } };
