/**
 * "Did you mean" ranking shared by tool grants (L5) and model pins (R6). Pure; case-insensitive.
 */

/**
 * Optimal string alignment distance (Levenshtein plus adjacent transpositions, so `gerp` → `grep`
 * is 1). Compares the strings as given; callers lower-case first. Pure; never throws.
 */
export function editDistance(a: string, b: string): number {
  const width = b.length + 1;
  const d = new Array<number>((a.length + 1) * width).fill(0);
  const at = (i: number, j: number): number => d[i * width + j] ?? 0;
  for (let i = 0; i <= a.length; i++) {
    for (let j = 0; j <= b.length; j++) {
      let best: number;
      if (i === 0 || j === 0) best = i + j;
      else {
        const cost = a[i - 1] === b[j - 1] ? 0 : 1;
        best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      }
      d[i * width + j] = best;
    }
  }
  return at(a.length, b.length);
}

/** How close a candidate is to a wanted name; lower sorts first. `undefined` means not close. */
export interface Closeness {
  /** 0 equal ignoring case, 1 one contains the other, 2 a few edits apart. */
  tier: 0 | 1 | 2;
  distance: number;
}

/** Shortest name that counts as "contained" in another, so `o` does not match everything. */
const MIN_SUBSTRING = 3;

/**
 * Whether `candidate` is a near miss for `wanted`, ignoring case: equal, one containing the other
 * (both at least 3 characters), or at most `maxEdits` edits apart (default: a third of the wanted
 * length, at least 1). Pure.
 */
export function closeness(wanted: string, candidate: string, maxEdits?: number): Closeness | undefined {
  const w = wanted.toLowerCase();
  const c = candidate.toLowerCase();
  const distance = editDistance(w, c);
  if (distance === 0) return { tier: 0, distance };
  const contained = Math.min(w.length, c.length) >= MIN_SUBSTRING && (c.includes(w) || w.includes(c));
  if (contained) return { tier: 1, distance };
  const limit = maxEdits ?? Math.max(1, Math.floor(w.length / 3));
  return distance <= limit ? { tier: 2, distance } : undefined;
}

/** Orders two closeness values: tier, then distance. */
export function compareCloseness(a: Closeness, b: Closeness): number {
  return a.tier - b.tier || a.distance - b.distance;
}

/**
 * The candidates that are near misses for `wanted` (see {@link closeness}), closest first, ties in
 * candidate order, at most `max`. Excludes an exact (case-sensitive) match. Pure.
 */
export function nearMisses(wanted: string, candidates: readonly string[], max = 3): string[] {
  return candidates
    .filter((c) => c !== wanted)
    .map((name, index) => ({ name, index, close: closeness(wanted, name) }))
    .filter((x): x is { name: string; index: number; close: Closeness } => x.close !== undefined)
    .sort((a, b) => compareCloseness(a.close, b.close) || a.index - b.index)
    .slice(0, max)
    .map((x) => x.name);
}
