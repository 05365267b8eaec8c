/**
 * A teammate child's RPC events, translated once into what the team reads of them (issue 19): the
 * heartbeat, the lifecycle, the activity line, the mail watch's safety net, the board-call watch
 * and the console all take a `TeammateOutput`, never the wire's `RpcEvent`. Pure.
 */
import { isRecord } from "../is-record.ts";
import type { RpcEvent } from "../process/index.ts";

/**
 * One piece of a teammate's output.
 * - `run_started`: a run began (`agent_start`); `settled`: Pi will not go on by itself (`agent_settled`).
 * - `model_delta`: the model is streaming (`message_update`); `text` when the delta is text.
 * - `assistant_message`: an assistant message ended: its text, usage (tokens, USD), whether the
 *   model produced anything (`produced`: content or usage; an empty one is seen at RPC startup),
 *   and the model error when it failed.
 * - `tool_started` / `tool_ended`: one tool call; `sentTo` is the recipient of a `send_message`
 *   that succeeded, `failed` whether the call ended in an error.
 * - `entry_appended`: a session entry (the stream transport's records); `compaction_ended`.
 * - `other`: anything else (a user message, a queue update, a retry, ...).
 */
export type TeammateOutput =
  | { readonly kind: "run_started" }
  | { readonly kind: "settled" }
  | { readonly kind: "model_delta"; readonly text?: string }
  | { readonly kind: "assistant_message"; readonly text: string; readonly tokens: number; readonly cost: number; readonly produced: boolean; readonly error?: string }
  | { readonly kind: "tool_started"; readonly tool: string; readonly callId: string; readonly args: unknown }
  | { readonly kind: "tool_ended"; readonly tool: string; readonly callId: string; readonly failed: boolean; readonly sentTo?: string }
  | { readonly kind: "entry_appended"; readonly entry: Readonly<Record<string, unknown>> }
  | { readonly kind: "compaction_ended" }
  | { readonly kind: "other" };

/** What one RPC event of a teammate's child is for the team (see {@link TeammateOutput}). Never throws. */
export function outputOfRpc(event: RpcEvent): TeammateOutput {
  switch (event.type) {
    case "agent_start":
      return { kind: "run_started" };
    case "agent_settled":
      return { kind: "settled" };
    case "message_update": {
      const e = event.assistantMessageEvent;
      return e.type === "text_delta" && typeof e.delta === "string" ? { kind: "model_delta", text: e.delta } : { kind: "model_delta" };
    }
    case "message_end": {
      const m = event.message;
      if (m.role !== "assistant") return { kind: "other" };
      const usage = usageOf(m);
      const error = m.stopReason === "error" ? (typeof m.errorMessage === "string" ? m.errorMessage : "the model call failed") : undefined;
      return { kind: "assistant_message", text: textOf(m.content), ...usage, produced: hasContent(m) || usage.tokens > 0, ...(error ? { error } : {}) };
    }
    case "tool_execution_start":
      return { kind: "tool_started", tool: event.toolName, callId: event.toolCallId, args: event.args };
    case "tool_execution_end": {
      const sentTo = event.toolName === "send_message" && !event.isError ? recipientOf(event.result) : undefined;
      return { kind: "tool_ended", tool: event.toolName, callId: event.toolCallId, failed: event.isError, ...(sentTo ? { sentTo } : {}) };
    }
    case "entry_appended":
      return { kind: "entry_appended", entry: event.entry };
    case "compaction_end":
      return { kind: "compaction_ended" };
    default:
      return { kind: "other" };
  }
}

/** Total tokens and cost (USD) of an assistant message's usage; zeros when it has none. */
export function usageOf(message: object): { tokens: number; cost: number } {
  const u = (message as { usage?: unknown }).usage as { totalTokens?: unknown; input?: unknown; output?: unknown; cost?: { total?: unknown } } | undefined;
  if (typeof u !== "object" || u === null) return { tokens: 0, cost: 0 };
  const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);
  const tokens = num(u.totalTokens) || num(u.input) + num(u.output);
  return { tokens, cost: num(u.cost?.total) };
}

function hasContent(message: object): boolean {
  const content = (message as { content?: unknown }).content;
  if (typeof content === "string") return content.trim() !== "";
  if (!Array.isArray(content)) return false;
  return content.some((part: unknown) => {
    if (!isRecord(part)) return false;
    if (part["type"] === "text") return typeof part["text"] === "string" && part["text"].trim() !== "";
    if (part["type"] === "thinking") return typeof part["thinking"] === "string" && part["thinking"].trim() !== "";
    return part["type"] === "toolCall";
  });
}

function textOf(content: unknown): string {
  if (!Array.isArray(content)) return "";
  return content.map((p: unknown) => (isRecord(p) && typeof p["text"] === "string" ? p["text"] : "")).join("");
}

/** The `details.to` of a `send_message` result: "leader" for a report, else the peer. */
function recipientOf(result: unknown): string | undefined {
  const details = isRecord(result) ? result["details"] : undefined;
  const to = isRecord(details) ? details["to"] : undefined;
  return typeof to === "string" && to !== "" ? to : undefined;
}
