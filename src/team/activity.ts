/**
 * What a teammate is doing, as one line for the console and the widget (R61, R62), read from its
 * child's RPC events: the tool it runs with an argument summary, or the last line of its text.
 * Pure; the shell (src/feed/team-feed.ts) keeps the state between events.
 */
import { isRecord } from "../is-record.ts";
import type { RpcEvent } from "../process/index.ts";

/** Longest activity line kept, in characters. */
export const ACTIVITY_MAX = 160;

/**
 * What one RPC event changes: a new run began (`run`: the last run's line is stale), a tool
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

function textOf(content: unknown): string {
  if (!Array.isArray(content)) return "";
  return content.map((p: unknown) => (typeof p === "object" && p !== null && "text" in p && typeof p.text === "string" ? p.text : "")).join("");
}

/** What `event` means for the activity line. */
export function activityStep(event: RpcEvent): ActivityStep {
  switch (event.type) {
    case "agent_start":
      return { kind: "run" };
    case "tool_execution_start":
      return { kind: "tool", line: toolLine(event.toolName, event.args) };
    case "tool_execution_end":
      return { kind: "tool_end" };
    case "message_update": {
      const e = event.assistantMessageEvent;
      return e.type === "text_delta" && typeof e.delta === "string" ? { kind: "text", delta: e.delta } : { kind: "none" };
    }
    case "message_end":
      return event.message.role === "assistant" ? { kind: "text_end", text: textOf(event.message.content) } : { kind: "none" };
    default:
      return { kind: "none" };
  }
}
