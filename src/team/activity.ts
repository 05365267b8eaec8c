/**
 * What a teammate is doing, as one line for the console and the widget (R61, R62), read from its
 * output (src/team/teammate-output.ts): the tool it runs with an argument summary, or the last line of its text.
 * Pure; the shell (src/feed/team-feed.ts) keeps the state between events.
 */
import { isRecord } from "../is-record.ts";
import type { TeammateOutput } from "./teammate-output.ts";

/** Longest activity line kept, in characters. */
export const ACTIVITY_MAX = 160;

/**
 * What one piece of output changes: a new run began (`run`: the last run's line is stale), a tool
 * started (`line`), text arrived (`text`, a delta), or nothing.
 */
export type ActivityStep =
  | { readonly kind: "run" }
  | { readonly kind: "tool"; readonly line: string }
  | { readonly kind: "tool_end" }
  | { readonly kind: "text"; readonly delta: string }
  | { readonly kind: "text_end"; readonly text: string }
  | { readonly kind: "none" };

/** Argument fields that say most about a call, in the order they are looked for. */
const SUMMARY_KEYS = ["command", "path", "file_path", "to", "pattern", "query", "taskId", "subject", "url", "message"];

/** One line: whitespace runs become one space; cut to `max` characters with `…`. */
export function oneLine(text: string, max = ACTIVITY_MAX): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

/** The last non-empty line of `text`, as one bounded line; "" when there is none. */
export function lastLine(text: string): string {
  const lines = text.split("\n").map((l) => l.trim()).filter(Boolean);
  return oneLine(lines.at(-1) ?? "");
}

/**
 * A tool call as one line: `bash npm test`, `edit src/a.ts`, `send_message → leader`. The
 * summary is the first known argument field that is a string, else nothing.
 */
export function toolLine(toolName: string, args: unknown): string {
  if (!isRecord(args)) return toolName;
  for (const key of SUMMARY_KEYS) {
    const value = args[key];
    if (typeof value !== "string" || value.trim() === "") continue;
    return oneLine(key === "to" ? `${toolName} → ${value}` : `${toolName} ${lastLineOrFirst(value)}`);
  }
  return toolName;
}

function lastLineOrFirst(value: string): string {
  return value.split("\n").map((l) => l.trim()).find(Boolean) ?? "";
}

/** What one piece of a teammate's output means for the activity line. */
export function activityStep(output: TeammateOutput): ActivityStep {
  switch (output.kind) {
    case "run_started":
      return { kind: "run" };
    case "tool_started":
      return { kind: "tool", line: toolLine(output.tool, output.args) };
    case "tool_ended":
      return { kind: "tool_end" };
    case "model_delta":
      return output.text !== undefined ? { kind: "text", delta: output.text } : { kind: "none" };
    case "assistant_message":
      return { kind: "text_end", text: output.text };
    default:
      return { kind: "none" };
  }
}
