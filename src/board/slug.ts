/**
 * Readable task ids derived from the subject (1.I in references/contract.md: settled in favour of slugs).
 * Scheme, documented in references/board-format.md:
 *   1. Unicode NFKD, combining marks dropped ("Über" → "uber"), lower case.
 *   2. Every run of characters outside [a-z0-9] becomes one "-"; leading/trailing "-" trimmed.
 *   3. Cut to 48 chars, preferring the last "-" boundary in the second half, then trimmed.
 *   4. Empty result → "task".
 *   5. On a clash the id gets "-2", "-3", ... ; the base is shortened so the whole id stays ≤ 48.
 */

/** Maximum length of a task id, suffix included. */
export const MAX_ID_LENGTH = 48;

/** Fallback slug for subjects without a single latin letter or digit. */
const EMPTY_SLUG = "task";

function cut(slug: string, max: number): string {
  if (slug.length <= max) return slug;
  const head = slug.slice(0, max);
  const boundary = head.lastIndexOf("-");
  // Prefer a word boundary, but never throw away more than half the room for it.
  const trimmed = boundary >= max / 2 ? head.slice(0, boundary) : head;
  return trimmed.replace(/-+$/, "");
}

/**
 * The base slug of a subject (steps 1–4 above), at most `MAX_ID_LENGTH` chars. Pure, never throws.
 */
export function slugify(subject: string): string {
  const ascii = subject
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return cut(ascii, MAX_ID_LENGTH) || EMPTY_SLUG;
}

/** A free id plus what to remember so the next clash on the same base starts at `next`. */
export interface AllocatedId {
  readonly id: string;
  readonly base: string;
  /** The suffix number to try first next time, or undefined when the base itself was free. */
  readonly next?: number;
}

/**
 * A free id for `subject`: its slug, else the slug with `-2`, `-3`, ... (step 5).
 * `taken(id)` says whether an id is in use. `hints` (optional, read only here) gives the suffix
 * to try first per base, so repeated subjects cost O(1) instead of a walk over earlier suffixes;
 * the caller stores `next` under `base` once the id is really used.
 */
export function allocateTaskId(subject: string, taken: (id: string) => boolean, hints?: ReadonlyMap<string, number>): AllocatedId {
  const base = slugify(subject);
  if (!taken(base)) return { id: base, base };
  for (let n = Math.max(2, hints?.get(base) ?? 2); ; n += 1) {
    const suffix = `-${n}`;
    const id = `${cut(base, MAX_ID_LENGTH - suffix.length)}${suffix}`;
    if (!taken(id)) return { id, base, next: n + 1 };
  }
}

/** `allocateTaskId(...).id`: the id alone, for callers that keep no hints. */
export function uniqueTaskId(subject: string, taken: (id: string) => boolean): string {
  return allocateTaskId(subject, taken).id;
}
