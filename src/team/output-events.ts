import { classifyOutput } from "./heartbeat.ts";
import type { TeammateEvent } from "./lifecycle-types.ts";
import type { TeammateOutput } from "./teammate-output.ts";

/**
 * What one piece of a teammate's output means for its lifecycle: always an `output` (the
 * heartbeat, R52), plus `run_started` when a run begins and `assistant_message` (text, usage and
 * a model error) when an assistant message ends. `settled` is not mapped here: the shell drains
 * the outbox before it sends `run_settled`. Pure.
 */
export function eventsFromOutput(output: TeammateOutput): TeammateEvent[] {
  const events: TeammateEvent[] = [{ type: "output", kind: classifyOutput(output) }];
  if (output.kind === "run_started") events.push({ type: "run_started" });
  if (output.kind === "assistant_message") {
    const { text, tokens, cost, error } = output;
    events.push({ type: "assistant_message", text, tokens, cost, ...(error !== undefined ? { error } : {}) });
  }
  return events;
}
