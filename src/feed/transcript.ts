/**
 * A teammate's transcript for the console (issue 20): its Pi session file, read when the user
 * opens it (and again while the teammate works), turned into plain, terminal-safe lines. The file
 * is the teammate's to write, so the read is bounded (its last TRANSCRIPT_BYTES), never follows a
 * symlink or blocks on a FIFO, and every line is made safe with `safeLines`.
 */
import { isRecord } from "../is-record.ts";
import { readTail } from "../store/index.ts";
import { safeLines } from "./safe-text.ts";

/** Bytes read from the end of a session file for its transcript (2 MiB). */
export const TRANSCRIPT_BYTES = 2 * 1024 * 1024;
/** A tool result shows at most this many of its lines. */
const RESULT_LINES = 8;
/** A tool call's arguments are cut to this many characters. */
const ARGS_CHARS = 300;
/** A user or assistant message shows at most this many lines, each of at most TEXT_CHARS characters. */
const TEXT_LINES = 200;
const TEXT_CHARS = 2000;

/**
 * The transcript lines of session entries (`type: "message"` entries of Pi's session format;
 * others, and messages of unknown shape, are skipped): `user:`, `assistant:` with its text, each
 * tool call as `→ name {arguments}`, each result as `← name:` and its first lines, a compaction as
 * one marker; long messages and lines are cut. Pure.
 */
export function transcriptLines(entries: readonly unknown[]): string[] {
  const out: string[] = [];
  for (const entry of entries) {
    if (isRecord(entry) && entry.type === "compaction") out.push("", "— context compacted —");
    if (!isRecord(entry) || entry.type !== "message" || !isRecord(entry.message)) continue;
    const m = entry.message;
    const parts = typeof m.content === "string" ? [{ type: "text", text: m.content }] : Array.isArray(m.content) ? m.content.filter(isRecord) : [];
    const text = parts.filter((p) => p.type === "text" && typeof p.text === "string").map((p) => String(p.text)).join("\n");
    if (m.role === "user") out.push("", "user:", ...indent(capped(text)));
    else if (m.role === "assistant") {
      out.push("", "assistant:");
      if (text.trim()) out.push(...indent(capped(text)));
      for (const call of parts.filter((p) => p.type === "toolCall")) {
        const args = JSON.stringify(call.arguments ?? {});
        out.push(...indent(safeLines(`→ ${String(call.name)} ${args.length > ARGS_CHARS ? `${args.slice(0, ARGS_CHARS)}…` : args}`)));
      }
    } else if (m.role === "toolResult") {
      const lines = safeLines(text);
      const more = lines.length > RESULT_LINES ? [`… (${lines.length - RESULT_LINES} more lines)`] : [];
      out.push(...indent([`← ${safeLines(String(m.toolName))[0]}${m.isError === true ? " (error)" : ""}:`, ...indent([...lines.slice(0, RESULT_LINES), ...more])]));
    }
  }
  return out;
}

/** `safeLines` of a message's text, at most TEXT_LINES lines of TEXT_CHARS characters (a huge line would stall the wrap). */
function capped(text: string): string[] {
  const lines = safeLines(text).map((l) => (l.length > TEXT_CHARS ? `${l.slice(0, TEXT_CHARS)}… (cut)` : l));
  return lines.length > TEXT_LINES ? [...lines.slice(0, TEXT_LINES), `… (${lines.length - TEXT_LINES} more lines)`] : lines;
}

/**
 * The transcript of the session file at `file`: its last TRANSCRIPT_BYTES, the first (cut) line
 * of a partial read dropped and said so, each line parsed as JSON (a line that is not is skipped).
 * @throws Error when `file` cannot be opened as a regular file (missing, a symlink, a FIFO).
 */
export async function readTranscript(file: string): Promise<string[]> {
  const { text, cut } = await readTail(file, TRANSCRIPT_BYTES);
  const lines = text.split("\n");
  if (cut) lines.shift();
  const entries = lines.flatMap((line) => {
    try {
      return [JSON.parse(line) as unknown];
    } catch {
      return [];
    }
  });
  return [...(cut ? [`(earlier entries not shown: only the last ${TRANSCRIPT_BYTES / 1024 / 1024} MiB of the session file)`] : []), ...transcriptLines(entries)];
}

function indent(lines: readonly string[]): string[] {
  return lines.map((l) => `  ${l}`);
}
