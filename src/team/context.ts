/**
 * A teammate's context window, from its child's `get_session_stats` answer (Pi RPC): the gauge
 * the console shows (R61). Pure.
 */
import { isRecord } from "../is-record.ts";

/** A teammate's context window use, from its child's `get_session_stats` (null right after a compaction). */
export interface ContextGauge {
  /** Tokens in the current context; null until a fresh answer after a compaction. */
  readonly tokens: number | null;
  /** The model's context window in tokens. */
  readonly window: number;
  /** 0–100; null like `tokens`. */
  readonly percent: number | null;
}

function count(v: unknown): number | null | undefined {
  if (v === null) return null;
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : undefined;
}

/**
 * The gauge in a `get_session_stats` answer's `contextUsage` (`{ tokens, contextWindow, percent }`;
 * tokens and percent are null right after a compaction). Undefined when the answer has none
 * (no model or window) or its fields are not numbers.
 */
export function gaugeFromStats(data: unknown): ContextGauge | undefined {
  if (!isRecord(data) || !isRecord(data.contextUsage)) return undefined;
  const u = data.contextUsage;
  const window = count(u.contextWindow);
  const tokens = count(u.tokens);
  const percent = count(u.percent);
  if (typeof window !== "number" || window <= 0 || tokens === undefined || percent === undefined) return undefined;
  return { tokens, window, percent };
}
