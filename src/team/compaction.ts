/**
 * Compaction of a teammate's context as pure rules (issue 8): when a compaction may start (never
 * while a run is active or a prompt is on its way: Pi 1.6.0 aborts the run for a `compact`, and
 * rejects every `prompt` while it compacts), the threshold rule of the harness's automatic
 * compaction, the `PI_TEAMMATE_COMPACT_AT` variable, and the texts the console and the Mail page
 * show. No clock, no I/O.
 */
import { assertNever } from "../errors.ts";
import type { ContextGauge } from "./context.ts";
import type { TeammateState } from "./lifecycle-types.ts";

/** Default `PI_TEAMMATE_COMPACT_AT`: compact at 80% of the context window. */
export const DEFAULT_COMPACT_AT = 80;

/** The last compaction of a teammate's context: running, done (tokens before and after), or failed. */
export interface CompactionInfo {
  readonly at: number;
  readonly state: "running" | "done" | "failed";
  /** Requested by the user (`c` in the console) or by the harness at the threshold (`auto`). */
  readonly by: "user" | "auto";
  readonly tokensBefore?: number;
  readonly tokensAfter?: number;
  readonly error?: string;
}

/**
 * Reads `PI_TEAMMATE_COMPACT_AT`: a whole percentage of the context window from 0 to 100 at or
 * above which a teammate is compacted at its next assignment boundary; `0` turns automatic
 * compaction off. Unset or blank gives `DEFAULT_COMPACT_AT`; any other value keeps the default and
 * returns a warning naming the variable, the value and what is accepted (like the heartbeat vars).
 */
export function resolveCompactAt(env: NodeJS.ProcessEnv): { at: number; warnings: string[] } {
  const raw = env.PI_TEAMMATE_COMPACT_AT;
  if (raw === undefined || raw.trim() === "") return { at: DEFAULT_COMPACT_AT, warnings: [] };
  const value = raw.trim();
  if (!/^\d+$/.test(value) || Number(value) > 100) {
    const warning = `PI_TEAMMATE_COMPACT_AT="${raw}" is not a whole percentage from 0 to 100 (0 turns automatic compaction off); using ${DEFAULT_COMPACT_AT}.`;
    return { at: DEFAULT_COMPACT_AT, warnings: [warning] };
  }
  return { at: Number(value), warnings: [] };
}

/**
 * Why a compaction cannot start in this state: `starting` (no session yet), `working` (a run is
 * active: Pi would abort it), `sending` (a prompt is on its way and will start a run),
 * `compacting` (one is already running), `stopping` or `stopped`. Undefined: it may start (idle,
 * nothing in flight; pending mail is fine, it is held until the compaction ends).
 */
export type CompactBlock = "starting" | "working" | "sending" | "compacting" | "stopping" | "stopped";

/** See `CompactBlock`. */
export function compactBlock(s: TeammateState): CompactBlock | undefined {
  if (s.phase === "capturing") return "stopped";
  if (s.phase === "stopped" || s.phase === "stopping" || s.phase === "starting" || s.phase === "working") return s.phase;
  if (s.life.compacting) return "compacting";
  if (s.life.sending) return "sending";
  return undefined;
}

/** What the threshold rule looks at, once a teammate's run settled after an assignment boundary. */
export interface AutoCompactInput {
  /** `PI_TEAMMATE_COMPACT_AT`, percent; 0 is off. */
  readonly at: number;
  /** A terminal report or a board submission of this incarnation since its last quiet settle. */
  readonly boundary: boolean;
  /** The teammate's state now (`compactBlock` must allow a start). */
  readonly block: CompactBlock | undefined;
  /** Its context gauge from the `get_session_stats` read after that settle; undefined when none. */
  readonly gauge: ContextGauge | undefined;
}

/** The rule's answer: compact now, or why not. */
export type AutoCompactDecision =
  | { readonly compact: true }
  | { readonly compact: false; readonly why: "off" | "no_boundary" | "busy" | "unknown_usage" | "below_threshold" };

/**
 * The automatic compaction rule (issue 8, item 5): compact when the threshold is on, an
 * assignment boundary (a terminal report or a board submission) came before this settle, the
 * teammate is idle with nothing in flight (never mid-run), and the stats read after the settle
 * show the context at or above `at` percent of the window. A gauge without a percentage (right
 * after a compaction, before the next answer) never passes. The shell asks once per boundary, so
 * a failing compaction is not retried until the next boundary.
 */
export function shouldCompact(input: AutoCompactInput): AutoCompactDecision {
  if (input.at <= 0) return { compact: false, why: "off" };
  if (!input.boundary) return { compact: false, why: "no_boundary" };
  if (input.block !== undefined) return { compact: false, why: "busy" };
  const percent = input.gauge?.percent;
  if (percent === null || percent === undefined) return { compact: false, why: "unknown_usage" };
  return percent >= input.at ? { compact: true } : { compact: false, why: "below_threshold" };
}

/** Token counts as the console shows them: `950`, `3.6K`, `150K`, `1.2M`; `?` when unknown. */
export function formatTokens(n: number | undefined): string {
  if (n === undefined || !Number.isFinite(n) || n < 0) return "?";
  const short = (v: number, unit: string): string => `${v >= 100 ? Math.round(v) : Number(v.toFixed(1))}${unit}`;
  if (n >= 1_000_000) return short(n / 1_000_000, "M");
  if (n >= 1000) return short(n / 1000, "K");
  return String(Math.round(n));
}

/**
 * Tokens before and after in Pi's `compact` answer (`tokensBefore`, `estimatedTokensAfter`, a
 * heuristic estimate); a field that is not a non-negative number is left out.
 */
export function compactionTokens(data: unknown): { tokensBefore?: number; tokensAfter?: number } {
  const d = typeof data === "object" && data !== null ? (data as Record<string, unknown>) : {};
  const count = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : undefined);
  const before = count(d.tokensBefore);
  const after = count(d.estimatedTokensAfter);
  return { ...(before === undefined ? {} : { tokensBefore: before }), ...(after === undefined ? {} : { tokensAfter: after }) };
}

/** `150K → 32K` of a finished compaction. */
function span(info: CompactionInfo): string {
  return `${formatTokens(info.tokensBefore)} → ${formatTokens(info.tokensAfter)}`;
}

/**
 * The console's status-bar line for a compaction of `name` that ended (`done` or `failed`), e.g.
 * `@ada compacted: 150K → 32K tokens` or `@ada compaction failed: Nothing to compact (session too small)`.
 */
export function compactionLine(name: string, info: CompactionInfo): string {
  if (info.state === "done") return `@${name} compacted: ${span(info)} tokens`;
  if (info.state === "failed") return `@${name} compaction failed: ${info.error ?? "unknown error"}`;
  return `@${name} is compacting…`;
}

/** The line for a compaction that could not start (see `CompactBlock`). */
export function refusalLine(name: string, block: CompactBlock): string {
  switch (block) {
    case "starting":
      return `@${name} is still starting; nothing to compact yet.`;
    case "working":
    case "sending":
      return `@${name} is working; not compacted (Pi would abort its run). Try again once it is idle.`;
    case "compacting":
      return `@${name} is already compacting.`;
    case "stopping":
    case "stopped":
      return `@${name} is stopping; not compacted.`;
    default:
      return assertNever(block, "compaction block");
  }
}

/**
 * The Mail page's note for a compaction that ended, e.g. `compacted context 150K → 32K (auto)` or
 * `compaction failed (user): <error>`. It never goes to the leader's model.
 */
export function compactionNote(info: CompactionInfo): string {
  if (info.state === "done") return `compacted context ${span(info)} (${info.by})`;
  return `compaction failed (${info.by}): ${info.error ?? "unknown error"}`;
}

/** The receipt of that Mail row. */
export const COMPACTION_RECEIPT = "not sent to the leader's model";
