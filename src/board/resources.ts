/**
 * Path-like resource tags and their overlap rule (R14, R50): two tags overlap when they are equal
 * or one is an ancestor of the other at a "/" boundary. `a/b` overlaps `a/b/c` but not `a/bc`.
 * Tags are advisory to the filesystem and enforced by the board.
 */

/** Who holds a tag: a board task's holder, or a teammate's direct assignment. */
export interface ResourceOwner {
  /** Teammate name. */
  readonly name: string;
  /** The task id, or undefined for a direct assignment. */
  readonly taskId?: string;
}

/** A normalised tag, or why the raw tag was refused. */
export type NormalizedResource = { ok: true; tag: string } | { ok: false; message: string };

const GLOB = /[*?[\]{}]/;

/**
 * Normalises one tag: trims, turns "\" into "/", drops a leading "./", collapses "//" and drops a
 * trailing "/". Rejects (W13) empty tags, absolute paths ("/x", "C:/x", "~/x"), ".." or "."
 * segments and glob characters, with a message naming the tag and the expected form.
 */
export function normalizeResource(raw: string): NormalizedResource {
  const tag = raw
    .trim()
    .replace(/\\/g, "/")
    .replace(/^(\.\/)+/, "")
    .replace(/\/{2,}/g, "/")
    .replace(/\/+$/, "");
  const expected = 'expected a relative path-like tag such as "packages/api/auth"';
  if (tag === "") return { ok: false, message: `resource ${JSON.stringify(raw)} is empty; ${expected}` };
  if (tag.startsWith("/") || tag.startsWith("~") || /^[a-zA-Z]:/.test(tag)) {
    return { ok: false, message: `resource ${JSON.stringify(raw)} is absolute; ${expected}` };
  }
  if (tag.split("/").some((part) => part === ".." || part === ".")) {
    return { ok: false, message: `resource ${JSON.stringify(raw)} contains "." or ".." segments (only a leading "./" is allowed, and dropped); ${expected}` };
  }
  if (GLOB.test(tag)) return { ok: false, message: `resource ${JSON.stringify(raw)} contains glob characters; ${expected}` };
  return { ok: true, tag };
}

/** True when `a` and `b` are equal or one is a "/"-boundary ancestor of the other (R50). */
export function resourcesOverlap(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  return long.startsWith(short) && long.charCodeAt(short.length) === 47; /* "/" */
}

/** True when any tag of `a` overlaps any tag of `b`. O(|a|·|b|); for small lists only. */
export function anyOverlap(a: readonly string[], b: readonly string[]): boolean {
  for (const x of a) for (const y of b) if (resourcesOverlap(x, y)) return true;
  return false;
}

/**
 * Index of held tags answering "does this tag overlap anything held?" in O(depth of the tag),
 * independent of how many tags are held. `exact` maps a held tag to its owners; `below` counts
 * held tags strictly under each proper ancestor prefix.
 */
export interface HeldResources {
  readonly exact: Map<string, ResourceOwner[]>;
  readonly below: Map<string, number>;
}

/** An empty index. */
export function createHeldResources(): HeldResources {
  return { exact: new Map(), below: new Map() };
}

function forEachProperPrefix(tag: string, visit: (prefix: string) => void): void {
  let at = tag.indexOf("/");
  while (at !== -1) {
    visit(tag.slice(0, at));
    at = tag.indexOf("/", at + 1);
  }
}

/** Records that `owner` holds `tags`. */
export function holdResources(index: HeldResources, tags: readonly string[], owner: ResourceOwner): void {
  for (const tag of tags) {
    const owners = index.exact.get(tag);
    if (owners) owners.push(owner);
    else index.exact.set(tag, [owner]);
    forEachProperPrefix(tag, (p) => index.below.set(p, (index.below.get(p) ?? 0) + 1));
  }
}

/** Undoes `holdResources` for the same owner (matched by name and task id). */
export function releaseResources(index: HeldResources, tags: readonly string[], owner: ResourceOwner): void {
  for (const tag of tags) {
    const owners = index.exact.get(tag);
    if (!owners) continue;
    const at = owners.findIndex((o) => o.name === owner.name && o.taskId === owner.taskId);
    if (at === -1) continue;
    owners.splice(at, 1);
    if (owners.length === 0) index.exact.delete(tag);
    forEachProperPrefix(tag, (p) => {
      const n = (index.below.get(p) ?? 0) - 1;
      if (n <= 0) index.below.delete(p);
      else index.below.set(p, n);
    });
  }
}

function heldAtOrAbove(index: HeldResources, tag: string): string | undefined {
  if (index.exact.has(tag)) return tag;
  let found: string | undefined;
  forEachProperPrefix(tag, (p) => {
    if (found === undefined && index.exact.has(p)) found = p;
  });
  return found;
}

/** True when any of `tags` overlaps a held tag. O(sum of tag depths). */
export function overlapsHeld(index: HeldResources, tags: readonly string[]): boolean {
  for (const tag of tags) {
    if (heldAtOrAbove(index, tag) !== undefined || index.below.has(tag)) return true;
  }
  return false;
}

/** A conflict found by `findHeldConflict`: the requested tag, the held tag and its owners. */
export interface ResourceConflict {
  readonly tag: string;
  readonly heldTag: string;
  readonly owners: readonly ResourceOwner[];
}

/**
 * The first held tag overlapping one of `tags`, for a rejection message. Descendant lookups scan
 * the held tags, so call this only after `overlapsHeld` said yes.
 */
export function findHeldConflict(index: HeldResources, tags: readonly string[]): ResourceConflict | undefined {
  for (const tag of tags) {
    const above = heldAtOrAbove(index, tag);
    if (above !== undefined) return { tag, heldTag: above, owners: index.exact.get(above) ?? [] };
    if (!index.below.has(tag)) continue;
    for (const [heldTag, owners] of index.exact) {
      if (resourcesOverlap(tag, heldTag)) return { tag, heldTag, owners };
    }
  }
  return undefined;
}
