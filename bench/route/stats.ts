/** Percentiles and small formatting helpers for the route-latency benchmark. */

/** Summary of a sample set, in the unit of the samples (ms here). */
export interface Stats {
  n: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

/** Nearest-rank percentiles (p99 of 1,000 samples is the 990th smallest). Empty input gives NaN. */
export function stats(samples: readonly number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? NaN;
  const mean = sorted.length === 0 ? NaN : sorted.reduce((s, x) => s + x, 0) / sorted.length;
  return { n: sorted.length, p50: at(0.5), p90: at(0.9), p99: at(0.99), max: sorted.at(-1) ?? NaN, mean };
}

/** Median of a small set (mean of the two middle values for an even count). */
export function median(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return NaN;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** "1.23 ms" (3 significant digits below 10 ms, whole ms above 1 s). */
export function ms(value: number): string {
  if (!Number.isFinite(value)) return "n/a";
  if (value >= 1000) return `${value.toFixed(0)} ms`;
  if (value >= 100) return `${value.toFixed(0)} ms`;
  if (value >= 10) return `${value.toFixed(1)} ms`;
  return `${value.toFixed(2)} ms`;
}

/** How many samples exceed `limit`. */
export function countAbove(samples: readonly number[], limit: number): number {
  return samples.filter((s) => s > limit).length;
}

/** Resolves after `ms` milliseconds without keeping the process alive on its own. */
export function pause(msDelay: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, msDelay));
}

/**
 * Polls `done` every `everyMs` until it returns true.
 * @throws Error naming `what` after `timeoutMs`.
 */
export async function waitUntil(done: () => boolean, what: string, timeoutMs = 30_000, everyMs = 1): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!done()) {
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await pause(everyMs);
  }
}
