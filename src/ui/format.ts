import { truncateToWidth, visibleWidth } from "@earendil-works/pi-tui";
import { oneLine } from "../feed/index.ts";
import type { CompactionInfo } from "../team/compaction.ts";
import type { ContextGauge } from "../team/context.ts";

/**
 * Shared formatters of the console, the summary and the widget (R61, R62). All pure; widths are
 * terminal columns as pi-tui's `visibleWidth` counts them (wide characters count 2, L19).
 */

export { oneLine, safeLines } from "../feed/index.ts";

const GRAPHEMES = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/**
 * A duration in ms as its largest whole unit: `12s`, `3m`, `2h`, `4d`. Negative or NaN counts as
 * `0s`.
 */
export function formatDuration(ms: number): string {
  const s = Number.isFinite(ms) && ms > 0 ? Math.floor(ms / 1000) : 0;
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86_400)}d`;
}

/** A token count: `850`, `1.5K`, `45K`, `200K`, `1.2M`. */
export function formatTokens(n: number): string {
  if (!Number.isFinite(n) || n < 0) return "?";
  if (n < 1000) return String(Math.round(n));
  if (n < 10_000) return `${trimZero((n / 1000).toFixed(1))}K`;
  if (n < 1_000_000) return `${Math.round(n / 1000)}K`;
  return `${trimZero((n / 1_000_000).toFixed(1))}M`;
}

function trimZero(s: string): string {
  return s.endsWith(".0") ? s.slice(0, -2) : s;
}

/** A cost in USD: `$0.12`, `$12.50`, `$120`. */
export function formatCost(usd: number): string {
  if (!Number.isFinite(usd) || usd < 0) return "$?";
  return usd >= 100 ? `$${Math.round(usd)}` : `$${usd.toFixed(2)}`;
}

/** Tokens and cost in one cell: `12K $0.05`. */
export function formatUsage(tokens: number, cost: number): string {
  return `${formatTokens(tokens)} ${formatCost(cost)}`;
}

/**
 * The context gauge `45K/200K 22%`: `compacting…` while a compaction runs, `—` when unknown,
 * `?/200K` right after a compaction (no fresh count yet).
 */
export function formatGauge(context: ContextGauge | undefined, compaction?: CompactionInfo): string {
  if (compaction?.state === "running") return "compacting…";
  if (!context) return "—";
  const window = formatTokens(context.window);
  if (context.tokens === null) return `?/${window}`;
  const percent = context.percent === null ? "" : ` ${Math.round(context.percent)}%`;
  return `${formatTokens(context.tokens)}/${window}${percent}`;
}

/**
 * Fits an (ANSI-styled) line to exactly `width` columns: truncated with `…` and padded with
 * spaces (L19). `width <= 0` gives "".
 */
export function fit(line: string, width: number): string {
  if (width <= 0) return "";
  return truncateToWidth(line, width, "…", true);
}

/**
 * Clips plain text (no ANSI) to `width` columns: cut at a grapheme with `…` as the last column,
 * then (with `pad`, the default) padded with spaces to exactly `width`. Adds no SGR reset
 * (unlike `truncateToWidth`), so a styled selection bar or message background stays unbroken.
 */
export function clip(text: string, width: number, pad = true): string {
  if (width <= 0) return "";
  const w = visibleWidth(text);
  if (w <= width) return pad ? text + " ".repeat(width - w) : text;
  let out = "";
  let used = 0;
  for (const { segment } of GRAPHEMES.segment(text)) {
    const g = visibleWidth(segment);
    if (used + g > width - 1) break;
    out += segment;
    used += g;
  }
  return pad ? `${out}…${" ".repeat(Math.max(0, width - used - 1))}` : `${out}…`;
}

/**
 * Clips plain text (no ANSI) to `width` columns keeping both ends: `#add-mu…tion-2`. Ids that
 * differ at the end (a `-2` sibling) or the start stay apart. Padded like `clip`.
 */
export function clipMiddle(text: string, width: number, pad = true): string {
  if (width <= 0) return "";
  const w = visibleWidth(text);
  if (w <= width) return pad ? text + " ".repeat(width - w) : text;
  const graphemes = [...GRAPHEMES.segment(text)].map((g) => g.segment);
  const room = width - 1;
  const tailRoom = Math.floor(room / 2);
  let tail = "";
  let tailUsed = 0;
  for (let i = graphemes.length - 1; i >= 0; i--) {
    const g = graphemes[i] ?? "";
    if (tailUsed + visibleWidth(g) > tailRoom) break;
    tail = g + tail;
    tailUsed += visibleWidth(g);
  }
  let head = "";
  let used = tailUsed;
  for (const g of graphemes) {
    if (used + visibleWidth(g) > room) break;
    head += g;
    used += visibleWidth(g);
  }
  const out = `${head}…${tail}`;
  return pad ? out + " ".repeat(Math.max(0, width - used - 1)) : out;
}

/** A run of plain text with an optional style applied after it is cut. */
export interface Segment {
  readonly text: string;
  readonly style?: (text: string) => string;
}

/**
 * Plain segments laid end to end within `width` columns: the first that does not fit is cut
 * with `…` and the rest are dropped; each is styled after cutting, so no SGR reset lands
 * inside the line (a message background stays unbroken). No padding.
 */
export function fitSegments(segments: readonly Segment[], width: number): string {
  let room = width;
  let out = "";
  for (const seg of segments) {
    if (room <= 0) break;
    const w = visibleWidth(seg.text);
    const text = w <= room ? seg.text : clip(seg.text, room, false);
    out += seg.style ? seg.style(text) : text;
    if (w > room) break;
    room -= w;
  }
  return out;
}

/** A teammate name as the UI writes it: `@name`. */
export function at(name: string): string {
  return `@${oneLine(name)}`;
}
