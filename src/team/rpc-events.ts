import type { RpcEvent } from "../process/index.ts";
import { classifyOutput, usageOf } from "./heartbeat.ts";
import type { TeammateEvent } from "./lifecycle-types.ts";

function textOf(content: unknown): string {
  if (!Array.isArray(content)) return "";
  return content.map((p: unknown) => (typeof p === "object" && p !== null && "text" in p && typeof p.text === "string" ? p.text : "")).join("");
}

/**
 * What one RPC event of a teammate's child means for its lifecycle: always an `output` (the
 * heartbeat, R52), plus `run_started` on `agent_start` and `assistant_message` (text, usage and
 * a model error) on an assistant `message_end`. `agent_settled` is not mapped here: the shell
 * drains the outbox before it sends `run_settled`. Pure.
 */
export function eventsFromRpc(event: RpcEvent): TeammateEvent[] {
  const events: TeammateEvent[] = [{ type: "output", kind: classifyOutput(event) }];
  if (event.type === "agent_start") events.push({ type: "run_started" });
  if (event.type === "message_end" && event.message.role === "assistant") {
    const msg = event.message;
    const error = msg.stopReason === "error" ? (typeof msg.errorMessage === "string" ? msg.errorMessage : "the model call failed") : undefined;
    events.push({ type: "assistant_message", text: textOf(msg.content), ...usageOf(msg), ...(error ? { error } : {}) });
  }
  return events;
}
