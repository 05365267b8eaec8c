/**
 * Stall heartbeats (R51–R53, L4, L28) as pure rules: what counts as output, when a working or
 * starting teammate's silence deserves a notice, and what the notice says. Notice, never kill:
 * nothing here caps turns or time.
 */
import type { Activity, HeartbeatConfig, OutputKind, TeammateFacts } from "./lifecycle-types.ts";
import type { TeammateOutput } from "./teammate-output.ts";

/** Tier 1 default: 30 minutes without any RPC output (R52). */
export const DEFAULT_STALL_NOTICE_MS = 30 * 60_000;
/** Tier 2 default: 5 minutes with zero lifetime model output and no tool running (R53). */
export const DEFAULT_SILENT_STALL_MS = 5 * 60_000;

/**
 * Reads `PI_TEAMMATE_STALL_NOTICE_MS` and `PI_TEAMMATE_SILENT_STALL_MS` (non-negative integer ms).
 * `0` for the first disables both tiers; `0` for the second only tier 2 (R53). A bad value keeps
 * the default and returns a warning naming the variable, the value and what is accepted.
 */
export function resolveHeartbeat(env: NodeJS.ProcessEnv): { config: HeartbeatConfig; warnings: string[] } {
  const warnings: string[] = [];
  const read = (key: string, fallback: number): number => {
    const raw = env[key];
    if (raw === undefined || raw.trim() === "") return fallback;
    if (!/^\d+$/.test(raw.trim())) {
      warnings.push(`${key}="${raw}" is not a whole number of milliseconds (0 disables); using ${fallback}.`);
      return fallback;
    }
    return Number(raw.trim());
  };
  const stallMs = read("PI_TEAMMATE_STALL_NOTICE_MS", DEFAULT_STALL_NOTICE_MS);
  const silentMs = read("PI_TEAMMATE_SILENT_STALL_MS", DEFAULT_SILENT_STALL_MS);
  return { config: { stallMs, silentMs: stallMs === 0 ? 0 : silentMs }, warnings };
}

/**
 * What one piece of output is for the heartbeat (L4): `model` for anything the model produced (a
 * streamed delta, an assistant message with content or usage), tool starts and ends, else
 * `other`. An empty assistant message (seen at RPC startup) is not model output.
 */
export function classifyOutput(output: TeammateOutput): OutputKind {
  switch (output.kind) {
    case "model_delta":
      return "model";
    case "assistant_message":
      return output.produced ? "model" : "other";
    case "tool_started":
      return "tool_start";
    case "tool_ended":
      return "tool_end";
    default:
      return "other";
  }
}

/** The heartbeat after one piece of output at `now` (ms): the silence episode ends. */
export function afterOutput(a: Activity, kind: OutputKind, now: number): Activity {
  const toolsRunning = kind === "tool_start" ? a.toolsRunning + 1 : kind === "tool_end" ? Math.max(0, a.toolsRunning - 1) : a.toolsRunning;
  return { ...a, lastOutputAt: now, noticed: false, modelOutput: a.modelOutput || kind === "model", toolsRunning };
}

/** Which tier a silence falls in. `silent`: no model output ever and no tool running (R53). */
export type StallTier = "silent" | "stalled";

function dueTimes(a: Activity, cfg: HeartbeatConfig): { tier: StallTier; at: number }[] {
  if (a.noticed || cfg.stallMs <= 0) return [];
  const due: { tier: StallTier; at: number }[] = [{ tier: "stalled", at: a.lastOutputAt + cfg.stallMs }];
  if (cfg.silentMs > 0 && !a.modelOutput && a.toolsRunning === 0) due.push({ tier: "silent", at: a.lastOutputAt + cfg.silentMs });
  return due;
}

/**
 * When this heartbeat next needs a look (ms), or undefined when no notice can come (already
 * noticed this episode, or disabled). Only working and starting teammates are asked: the shell
 * arms one team timer for the earliest answer, and none while nobody works.
 */
export function nextDue(a: Activity, cfg: HeartbeatConfig): number | undefined {
  const times = dueTimes(a, cfg).map((d) => d.at);
  return times.length > 0 ? Math.min(...times) : undefined;
}

/** The tier due at `now`, if any (tier 2 wins when both are due). One notice per episode. */
export function stallDue(a: Activity, cfg: HeartbeatConfig, now: number): StallTier | undefined {
  const due = dueTimes(a, cfg).filter((d) => d.at <= now);
  if (due.length === 0) return undefined;
  return due.some((d) => d.tier === "silent") ? "silent" : "stalled";
}

/** A duration as people read it: `45s`, `31m`, `2h 5m`. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  return m % 60 === 0 ? `${h}h` : `${h}h ${m % 60}m`;
}

/**
 * The health notice (R31, R52, R53): a title `[agent] @name stalled · silent 31m` and a body
 * with silence, spawn age, lifetime tokens and cost, and the remedy. Never part of a routing result.
 */
export function stallNotice(f: TeammateFacts, a: Activity, tier: StallTier, now: number): { title: string; body: string } {
  const silence = formatDuration(now - a.lastOutputAt);
  const title = `[agent] @${f.name} stalled · silent ${silence}`;
  const lines = [
    title,
    `Silent for ${silence} (no RPC output); spawned ${formatDuration(now - f.startedAt)} ago; lifetime usage ${a.tokens} tokens, $${a.cost.toFixed(4)}.`,
    tier === "silent"
      ? `It has produced no model output at all and runs no tool: the request is likely stuck at the provider, and steering will not unstick it. Remedy: teammate_shutdown({ name: "${f.name}" }), then teammate_spawn it again.`
      : `It may be in a long tool call or stuck. Steer it with send_message, wait, or shut it down with teammate_shutdown and respawn it.`,
    "Nothing was stopped: this is a notice, and the only one for this silence.",
  ];
  return { title, body: lines.join("\n") };
}
