import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { Box, Text, visibleWidth, type Component } from "@earendil-works/pi-tui";
import { isRecord } from "../is-record.ts";
import { titleOf } from "../feed/index.ts";
import { at, fitSegments, oneLine, safeLines, type Segment } from "./format.ts";
import type { ThemeLike, UiFg } from "./ports.ts";

/**
 * Transcript renderers of the leader's team messages (R32): a teammate report, a harness event
 * and the finish entry, each compact (one line) until Pi's expand key shows the body. The expand
 * hint comes from the render options' `keyHint`, never an imported one or a hard-coded key, and
 * titles are cut to the real width without an SGR reset that would drop the message background
 * (L17). Odd or missing details never throw; they fall back to the message content.
 */

/** Custom message type of a teammate report (its `details` is the outbox record). */
export const TEAMMATE_REPORT_TYPE = "teammate-report";
/** Custom message type of a harness lifecycle event. */
export const HARNESS_EVENT_TYPE = "harness-event";
/** Custom entry type of the "teammate finished" line (TUI only, not in the LLM context). */
export const FINISH_ENTRY_TYPE = "agent-teams-finish";

/** The parts of Pi's message render options the renderers use. */
export interface RenderOptionsLike {
  readonly expanded: boolean;
  readonly outputPad?: number;
  keyHint(id: "app.tools.expand", description: string): string;
}

/** The parts of a Pi custom message the renderers read. */
export interface MessageLike {
  readonly content: string | readonly { readonly type: string; readonly text?: string }[];
  readonly details?: unknown;
}

/**
 * One line of plain segments plus a styled `hint` (Pi's key hint) kept at the end while at least
 * 8 columns remain for the segments, which are cut without SGR resets (so the message background
 * stays unbroken).
 */
class HintLine implements Component {
  private readonly segments: readonly Segment[];
  private readonly hint: string;
  constructor(segments: readonly Segment[], hint = "") {
    this.segments = segments;
    this.hint = hint;
  }
  render(width: number): readonly string[] {
    if (width <= 0) return [""];
    if (this.hint === "") return [fitSegments(this.segments, width)];
    const hintWidth = visibleWidth(this.hint) + 1;
    if (width - hintWidth >= 8) return [`${fitSegments(this.segments, width - hintWidth)} ${this.hint}`];
    return [fitSegments(this.segments, width)];
  }
  invalidate(): void {}
}

function record(v: unknown): Record<string, unknown> {
  return isRecord(v) ? v : {};
}

function str(v: unknown): string | undefined {
  return typeof v === "string" && v.trim() !== "" ? v : undefined;
}

function contentText(content: MessageLike["content"]): string {
  if (typeof content === "string") return content;
  return Array.isArray(content) ? content.map((c) => (c.type === "text" && typeof c.text === "string" ? c.text : "")).join("\n") : "";
}

/** `text` without the lines of a `<tag ...>` wrapper and its closing tag, when present. */
export function stripWrapper(text: string, tag: string): string {
  const lines = text.split(/\r\n|\n|\r/);
  const open = lines.findIndex((l) => l.trimStart().startsWith(`<${tag}`));
  const close = lines.findIndex((l, i) => i > open && l.trim() === `</${tag}>`);
  if (open < 0 || close < 0) return text;
  return lines.slice(open + 1, close).join("\n");
}

/** The message box: the header segments then the title, and when expanded the full body below. */
function card(theme: ThemeLike, options: RenderOptionsLike, head: readonly Segment[], body: string): Component {
  const box = new Box(options.outputPad ?? 1, 0, (s) => theme.bg("customMessageBg", s));
  const dot: Segment = { text: " · ", style: (t) => theme.fg("dim", t) };
  const line = [...head.flatMap((h) => [h, dot]), { text: oneLine(titleOf(body)) }];
  if (options.expanded) {
    const text = body.trim() === "" ? "(no content)" : safeLines(body.replace(/\s+$/, "")).join("\n");
    box.addChild(new Text(`${fitSegments(line, Number.MAX_SAFE_INTEGER)}\n${text}`, 0, 0));
  } else {
    box.addChild(new HintLine(line, theme.fg("dim", `(${options.keyHint("app.tools.expand", "to expand")})`)));
  }
  return box;
}

const REPORT_TONE: Record<string, UiFg> = { completed: "success", failed: "error", in_progress: "accent" };

/**
 * A `teammate-report` message: collapsed `@from · status · title` (title = first line of the body
 * with text, 120 characters, R32) plus the dim expand hint; expanded the header and the full
 * body. `details` is the outbox record `{ from, status, body, ... }`; without it the content's
 * `<teammate-report>` wrapper is stripped and used.
 */
export function renderTeammateReport(message: MessageLike, options: RenderOptionsLike, theme: ThemeLike): Component {
  const d = record(message.details);
  const body = typeof d["body"] === "string" ? d["body"] : stripWrapper(contentText(message.content), "teammate-report");
  const from = str(d["from"]);
  const status = str(d["status"]);
  const head: Segment[] = [{ text: from ? at(from) : "report", style: (t) => theme.bold(theme.fg("accent", t)) }];
  if (status) head.push({ text: oneLine(status), style: (t) => theme.fg((Object.hasOwn(REPORT_TONE, status) ? REPORT_TONE[status] : undefined) ?? "muted", t) });
  return card(theme, options, head, body);
}

/** The teammates an event names: `details.teammate` (may be comma-joined) or `details.teammates`. */
function eventTeammates(d: Record<string, unknown>): string[] {
  const list = Array.isArray(d["teammates"]) ? d["teammates"].filter((t): t is string => typeof t === "string") : [];
  const one = str(d["teammate"]);
  const names = list.length > 0 ? list : one ? one.split(",") : [];
  return names.map((n) => n.trim()).filter((n) => n !== "");
}

/**
 * A `harness-event` message: collapsed `⚑ type · @teammate · title` plus the expand hint;
 * expanded the header and the body (the content without its `<harness-event>` wrapper lines).
 */
export function renderHarnessEvent(message: MessageLike, options: RenderOptionsLike, theme: ThemeLike): Component {
  const d = record(message.details);
  const body = stripWrapper(contentText(message.content), "harness-event");
  const head: Segment[] = [{ text: `⚑ ${oneLine(str(d["type"]) ?? "event")}`, style: (t) => theme.bold(theme.fg("warning", t)) }];
  const names = eventTeammates(d);
  if (names.length > 0) head.push({ text: names.map(at).join(", "), style: (t) => theme.fg("accent", t) });
  return card(theme, options, head, body);
}

/** An end-of-life text that says the incarnation failed, for entries written before `ok` was stored. */
const FAILURE_END = /\bcrashed\b|\(failed\)/;

/**
 * The `agent-teams-finish` entry (`data: { text, teammate, ok }`): one dim line, `✓ Teammate @x
 * finished (completed).` or `✓ Teammate @x shut down.`, and `✗` in the error tone for a failure
 * end (`ok: false`: a crash, a `failed` report), the same collapsed or expanded (R55). An entry
 * without `ok` (an older session) is judged by its text.
 */
export function renderFinishEntry(entry: { readonly data?: unknown }, _options: { readonly expanded: boolean }, theme: ThemeLike): Component {
  const d = record(entry.data);
  const name = str(d["teammate"]);
  const text = oneLine(str(d["text"]) ?? (name ? `Teammate ${at(name)} finished.` : "A teammate finished.")).replace(/^[✓✗]\s*/, "");
  const ok = typeof d["ok"] === "boolean" ? d["ok"] : !FAILURE_END.test(text);
  const box = new Box(1, 0, (s) => theme.bg("customMessageBg", s));
  box.addChild(new HintLine([
    { text: ok ? "✓ " : "✗ ", style: (t) => theme.fg(ok ? "dim" : "error", t) },
    { text, style: (t) => theme.fg("dim", t) },
  ]));
  return box;
}

/** Registers the three renderers with Pi (call once from the extension factory). */
export function registerTeamRenderers(pi: Pick<ExtensionAPI, "registerMessageRenderer" | "registerEntryRenderer">): void {
  pi.registerMessageRenderer(TEAMMATE_REPORT_TYPE, (m, o, t) => renderTeammateReport(m, o, t));
  pi.registerMessageRenderer(HARNESS_EVENT_TYPE, (m, o, t) => renderHarnessEvent(m, o, t));
  pi.registerEntryRenderer(FINISH_ENTRY_TYPE, (e, o, t) => renderFinishEntry(e, o, t));
}
