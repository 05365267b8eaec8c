/**
 * Resource guard for shared-tree teammates: an `edit` or `write` into a path another living
 * teammate holds as a resource tag is refused. Pure rules over plain data (project-relative
 * paths, tags, holdings from roster.json); the I/O lives in src/worker/edit-guards.ts.
 *
 * The rule (R14, R50 applied to files): a tag names a path relative to the project root (the
 * teammate's cwd). A target path is guarded by a tag when it equals the tag or lies under it at a
 * "/" boundary: tag `a/b` guards `a/b` and `a/b/c.ts`, not `a/bc`. Paths outside the project root
 * are not guarded by tags. A file with more than one hard link is refused outright
 * (`checkHardLinks`): its other name would carry a write past the tag check.
 */
import { isAbsolute, relative, sep } from "node:path";
import type { RosterFile } from "../mail/roster-file.ts";
import { normalizeResource } from "../board/resources.ts";

/** One resource tag a teammate holds, as roster.json `holds` lists it. */
export interface Holding {
  /** Name of the holding teammate. */
  readonly holder: string;
  /** The normalised tag (normalizeResource). */
  readonly tag: string;
  /** The board task the tag comes from; undefined for the holder's direct assignment. */
  readonly taskId?: string;
}

/**
 * The holdings of every living teammate (status not `stopped`) other than `me`, in roster
 * order. Names compare case-insensitively (R22). Tags are normalised again; a tag that does not
 * normalise (the leader validated it, so this is only a defence) is skipped. Never throws.
 */
export function othersHoldings(roster: RosterFile, me: string): Holding[] {
  const self = me.toLowerCase();
  const out: Holding[] = [];
  for (const entry of roster.teammates) {
    if (entry.status === "stopped" || entry.name.toLowerCase() === self) continue;
    for (const held of entry.holds ?? []) {
      const tag = normalizeResource(held.tag);
      if (!tag.ok) continue;
      out.push({ holder: entry.name, tag: tag.tag, ...(held.taskId !== undefined ? { taskId: held.taskId } : {}) });
    }
  }
  return out;
}

/**
 * `target` relative to `root`, with "/" separators, or undefined when `target` is the root
 * itself or outside it. Both must be absolute and already resolved (no `..`, symlinks handled
 * by the caller); this is string math only.
 */
export function projectRelative(root: string, target: string): string | undefined {
  const rel = relative(root, target);
  if (rel === "" || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return rel.split(sep).join("/");
}

/** True when the project-relative `path` is `tag` or lies under it at a "/" boundary (R50). */
export function pathUnderTag(path: string, tag: string): boolean {
  return path === tag || (path.length > tag.length && path.startsWith(tag) && path.charCodeAt(tag.length) === 47 /* "/" */);
}

/** The roster as the guard could read it: the parsed file, or why it could not be read. */
export type RosterRead = { ok: true; roster: RosterFile } | { ok: false; message: string };

/** The holdings to check against, and what to remember and report. */
export interface HoldingsChoice {
  readonly holdings: readonly Holding[];
  /** The holdings to pass as `last` next time. */
  readonly last: readonly Holding[] | undefined;
  /** True when `holdings` are the remembered ones (the roster could not be read now). */
  readonly fromLastKnown: boolean;
  /** A line for the teammate's log when the roster could not be read; undefined otherwise. */
  readonly note?: string;
}

/**
 * Which holdings the resource guard uses, given this read of roster.json and the holdings of
 * the last valid one (`last`, undefined before any). A valid roster is used (and remembered).
 * An unreadable or invalid one after a valid one keeps the last holdings (fail closed to what
 * was last known: the leader writes the roster atomically, so a bad one means tampering or a
 * broken disk, and clearing the guard is what an attacker would want). With no valid roster
 * seen yet, nothing is checked (fail open, the board still refuses overlapping claims). Pure.
 */
export function chooseHoldings(read: RosterRead, me: string, last: readonly Holding[] | undefined): HoldingsChoice {
  if (read.ok) {
    const holdings = othersHoldings(read.roster, me);
    return { holdings, last: holdings, fromLastKnown: false };
  }
  if (last !== undefined) {
    return { holdings: last, last, fromLastKnown: true, note: `[edit-guards] roster.json cannot be read, using the holdings it last showed: ${read.message}` };
  }
  return { holdings: [], last, fromLastKnown: false, note: `[edit-guards] resource holdings not checked (fail open, the board still enforces claims): ${read.message}` };
}

/** What `checkResourceGuard` looks at. */
export interface ResourceCheckInput {
  /** The guarded tool. */
  readonly tool: "edit" | "write";
  /** The target as the message names it (project-relative when inside the project). */
  readonly display: string;
  /**
   * Every project-relative form of the target ("/"-separated; e.g. the lexical path and the
   * symlink-resolved one). The target is guarded when any of them is. Empty when it is outside
   * the project.
   */
  readonly paths: readonly string[];
  /** Tags held by other living teammates (`othersHoldings`). */
  readonly holdings: readonly Holding[];
  /**
   * True when `holdings` are the last valid ones seen because roster.json cannot be read now;
   * the block message then says so.
   */
  readonly fromLastKnown?: boolean;
}

/** The resource guard's answer: pass, or the first holding that blocks and the block message. */
export type ResourceVerdict = { ok: true } | { ok: false; holding: Holding; message: string };

/**
 * Decides one `edit`/`write`: blocked when any form of the target is at or under a tag another
 * living teammate holds; the first such holding (roster order) is named. Never throws.
 */
export function checkResourceGuard(input: ResourceCheckInput): ResourceVerdict {
  for (const holding of input.holdings) {
    if (input.paths.some((path) => pathUnderTag(path, holding.tag))) {
      const message = resourceBlockMessage(input.tool, input.display, holding);
      return { ok: false, holding, message: input.fromLastKnown === true ? `${message} ${LAST_KNOWN_NOTE}` : message };
    }
  }
  return { ok: true };
}

/** Appended to a block decided on the last valid holdings. */
export const LAST_KNOWN_NOTE =
  "(roster.json cannot be read right now, so this uses the holdings it last showed; if the holder is done, tell the leader.)";

/**
 * The block message: which file, which tag, who holds it and for what, and how to coordinate.
 * Example: `edit blocked: src/api/auth.ts is inside resource "src/api", which teammate "bob"
 * holds for task t-3. ...`
 */
export function resourceBlockMessage(tool: "edit" | "write", display: string, holding: Holding): string {
  const what = holding.taskId !== undefined ? `task ${holding.taskId}` : "its direct assignment";
  const where = display === holding.tag ? "is resource" : "is inside resource";
  return (
    `${tool} blocked: ${display} ${where} "${holding.tag}", which teammate "${holding.holder}" holds for ${what}. ` +
    `Coordinate first: send_message to "${holding.holder}" (ask it to make the change, or to tell you when it is done), ` +
    `or wait until "${holding.holder}" releases "${holding.tag}". Do not work around this with bash or another tool.`
  );
}

/**
 * The hard-link rule (issue 18): an `edit` or `write` to an existing regular file with more than
 * one hard link (`links`, its st_nlink) is refused for every teammate. Each guard judges a path,
 * but Pi's tools write a file in place, so the same bytes reached under a second name (a hard
 * link inside the project, in /tmp, or in a worktree) would change a resource another teammate
 * holds, the team's state or the shared tree without any path rule seeing it. Refusing the link
 * itself needs one stat of the target, where matching (device, inode) against held files would
 * mean walking every held tree at each call; it also covers links whose other name lies outside
 * the project. Git never makes hard links in a work tree, so ordinary checkouts do not meet it.
 * `links` is undefined when the target is missing or not a regular file: that passes. Pure.
 */
export function checkHardLinks(input: { readonly tool: "edit" | "write"; readonly display: string; readonly links: number | undefined }): { ok: true } | { ok: false; message: string } {
  if (input.links === undefined || input.links <= 1) return { ok: true };
  return {
    ok: false,
    message:
      `${input.tool} blocked: ${input.display} has ${input.links} hard links, so the same file also exists under another name (a resource another teammate holds, the team's state, another tree), ` +
      `and a change here would change it there without the edit guards seeing it. Nothing was changed. ` +
      `Write your change to a new file, or tell the leader (send_message) which file needs it. Do not work around this with bash or another tool.`,
  };
}
