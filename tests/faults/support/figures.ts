/**
 * Figures of the fault suite: each case writes what it measured to `.tmp/faults/<case>.json`,
 * and tests/faults/run.ts prints them all and, with `--write`, puts them into docs/reliability.md.
 * A case writes its figures before it asserts, so a failing run still shows what it saw.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_DIR } from "../../support/leader.ts";

/** Where the cases leave their figures (gitignored `.tmp/`). */
export const FIGURES_DIR = join(PACKAGE_DIR, ".tmp", "faults");

/** One case's figures: a title, summary lines, and optional table rows (first row = header). */
export interface CaseFigures {
  /** Case number in the issue (1-7), for ordering. */
  order: number;
  title: string;
  /** Plain lines for the printed summary and the doc, e.g. "lost 0 of 812 records". */
  lines: string[];
  /** A Markdown table: header row, then data rows. */
  table?: string[][];
  /** Wall time of the case (shown, never asserted). */
  seconds: number;
  /** The PRNG seed the case ran with (replay with FAULTS_SEED). */
  seed?: number;
}

/** Writes `figures` for case `id` (a file name stem, e.g. "peer-burst"). */
export function recordFigures(id: string, figures: CaseFigures): void {
  mkdirSync(FIGURES_DIR, { recursive: true });
  writeFileSync(join(FIGURES_DIR, `${id}.json`), `${JSON.stringify(figures, null, 2)}\n`);
}

/**
 * A small seeded PRNG (mulberry32) so a run's random timings can be replayed: the seed comes
 * from FAULTS_SEED, else from the clock, and the case prints it with its figures.
 */
export function seededRandom(seed = Number(process.env.FAULTS_SEED ?? Date.now() % 2 ** 31)): { seed: number; next(): number; int(lo: number, hi: number): number } {
  console.log(`seeded random: FAULTS_SEED=${seed} replays this case's draws`); // shown when the case fails before its figures
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { seed, next, int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)) };
}

/** Counts of ids: how many of `expected` were seen 0 times (lost) or more than once (duplicated). */
export function countById(expected: Iterable<string>, seen: Iterable<string>): { expected: number; lost: string[]; duplicated: string[]; foreign: string[] } {
  const counts = new Map<string, number>();
  for (const id of seen) counts.set(id, (counts.get(id) ?? 0) + 1);
  const want = new Set(expected);
  const lost = [...want].filter((id) => !counts.has(id));
  const duplicated = [...want].filter((id) => (counts.get(id) ?? 0) > 1);
  const foreign = [...counts.keys()].filter((id) => !want.has(id));
  return { expected: want.size, lost, duplicated, foreign };
}

/** Milliseconds since `t0`, as seconds with one decimal. */
export function secondsSince(t0: number): number {
  return Math.round((Date.now() - t0) / 100) / 10;
}
