import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { lstat, open, readdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { errorText } from "../error-text.ts";
import { assertNever } from "../errors.ts";
import { errnoCode } from "./fs-modes.ts";
import { SESSION_LOCK_FILE } from "./layout.ts";
import { pidAlive } from "./pid.ts";

/**
 * Sweep of the runtime dirs (`<agent dir>/teammate/<session key>/`, R57) whose leader is gone.
 * A leader removes its own dir at session shutdown; one that was killed, or crashed, never gets
 * there, and its dir (mailboxes, logs, roster) would stay forever. Each leader therefore sweeps
 * the others' leftovers when it starts. The rules are the pure `decideSweep`; `sweepRuntimeDirs`
 * is the thin I/O around it. Documented in references/runtime-state.md ("Sweep").
 */

/**
 * How long a runtime dir WITHOUT a readable session lock must have been untouched before it is
 * swept: 10 minutes, counted from the newest mtime of the dir and its direct entries. A living
 * leader always holds its lock, except for the instant between creating its dir and creating the
 * lock (and between creating the lock and writing its pid into it), so the grace only has to
 * cover that instant; 10 minutes keeps a wide margin for slow disks and clock steps while still
 * cleaning up dirs of older versions or half-finished removals on the next start.
 */
export const SWEEP_GRACE_MS = 10 * 60_000;

/** A session dir name: 16 lower-case hex characters (`sessionKey`). Anything else is not ours. */
const SESSION_DIR = /^[0-9a-f]{16}$/;
/** A dir being removed by a sweep: `.swept-<key>-<sweeper pid>-<hex>`. */
const TOMBSTONE = /^\.swept-[0-9a-f]{16}-(\d+)-[0-9a-f]+$/;
/** The stop notice one leader instance leaves for the next one in its process: `.stopped-<pid>.json`. */
const STOP_NOTICE = /^\.stopped-(\d+)\.json$/;
/** A lock file holds a pid: a few digits. Anything longer is not a lock we wrote. */
const LOCK_READ_LIMIT = 64;

/** What a session dir's `leader.lock` says. */
export type LockState =
  | { kind: "none" }
  | { kind: "held"; pid: number; alive: boolean }
  /** Empty (a leader between creating and filling it), not a regular file, or not a pid. */
  | { kind: "unreadable"; reason: string };

/** One entry of `<agent dir>/teammate/`, as inspected (never through a symlink). */
export type RuntimeEntry =
  | { name: string; kind: "session"; lock: LockState; newestMtimeMs: number }
  | { name: string; kind: "tombstone"; sweeperPid: number; sweeperAlive: boolean }
  | { name: string; kind: "stop_notice"; pid: number; alive: boolean }
  /** A symlink, a file, or a name we never create: left alone. */
  | { name: string; kind: "foreign"; what: string };

/** Why an entry is removed. */
export type SweepRemoval =
  | { name: string; action: "remove"; why: "leader_gone"; pid: number }
  | { name: string; action: "remove"; why: "abandoned"; idleMs: number; lock: "none" | "unreadable" }
  | { name: string; action: "remove"; why: "stale_tombstone"; pid: number }
  | { name: string; action: "remove"; why: "stale_stop_notice"; pid: number };

/** Why an entry is kept. */
export type SweepKeep = {
  name: string;
  action: "keep";
  why: "own" | "leader_alive" | "recent" | "foreign" | "sweep_in_progress" | "notice_owner_alive";
};

export type SweepDecision = SweepRemoval | SweepKeep;

/** Inputs of `decideSweep` besides the entries. */
export interface SweepContext {
  /** Our own session key: its dir is never swept, whatever it holds. */
  ownKey: string;
  /** Now, in ms since the epoch. */
  now: number;
  /** Default `SWEEP_GRACE_MS`. */
  graceMs?: number;
}

/**
 * The sweep rules, one decision per entry (pure). A session dir is removed when its lock names
 * a dead pid, or when it has no readable lock and was untouched for `graceMs`; a living lock
 * holder always keeps its dir, and so does our own key. Tombstones and stop notices of dead
 * processes are removed. Anything else (symlinks, files, other names) is left alone.
 */
export function decideSweep(entries: readonly RuntimeEntry[], ctx: SweepContext): SweepDecision[] {
  return entries.map((entry) => decideOne(entry, ctx));
}

function decideOne(entry: RuntimeEntry, ctx: SweepContext): SweepDecision {
  const { name } = entry;
  const keep = (why: SweepKeep["why"]): SweepKeep => ({ name, action: "keep", why });
  switch (entry.kind) {
    case "foreign":
      return keep("foreign");
    case "tombstone":
      return entry.sweeperAlive ? keep("sweep_in_progress") : { name, action: "remove", why: "stale_tombstone", pid: entry.sweeperPid };
    case "stop_notice":
      return entry.alive ? keep("notice_owner_alive") : { name, action: "remove", why: "stale_stop_notice", pid: entry.pid };
    case "session": {
      if (name === ctx.ownKey) return keep("own");
      const { lock } = entry;
      if (lock.kind === "held") return lock.alive ? keep("leader_alive") : { name, action: "remove", why: "leader_gone", pid: lock.pid };
      const idleMs = ctx.now - entry.newestMtimeMs;
      if (idleMs < (ctx.graceMs ?? SWEEP_GRACE_MS)) return keep("recent");
      return { name, action: "remove", why: "abandoned", idleMs, lock: lock.kind };
    }
    default:
      return assertNever(entry, "sweep entry");
  }
}

/** Options of `sweepRuntimeDirs`. */
export interface SweepOptions extends Partial<Omit<SweepContext, "now">> {
  /** `<agent dir>`; the sweep touches nothing outside `<agent dir>/teammate/`. */
  agentDir: string;
  ownKey: string;
  /** Our pid, written into tombstone names. Default `process.pid`. */
  pid?: number;
  now?: () => number;
  /** Default `pidAlive` (`kill -0`). */
  isAlive?: (pid: number) => boolean;
}

/** What one sweep did. */
export interface SweepReport {
  removed: SweepRemoval[];
  /** Entries whose removal failed, with the error. */
  failed: { name: string; error: string }[];
  /** Set when `<agent dir>/teammate` itself was not swept (e.g. it is a symlink). */
  skipped?: string;
}

/**
 * Inspects `<agent dir>/teammate/`, decides with `decideSweep`, and removes what it decided
 * to remove. Each removal re-inspects its entry first, so a leader that took a dir over since the
 * first look keeps it; a session dir is then renamed to a tombstone (one atomic step: no leader
 * can see it half-deleted) and the tombstone removed. Symlinks are never followed: entries are
 * `lstat`ed, locks opened with O_NOFOLLOW, and `rm` removes links, not their targets.
 * Never rejects: an error of one entry goes to `failed`, the rest go on.
 */
export async function sweepRuntimeDirs(options: SweepOptions): Promise<SweepReport> {
  const root = join(options.agentDir, "teammate");
  const report: SweepReport = { removed: [], failed: [] };
  const isAlive = options.isAlive ?? pidAlive;
  const now = options.now ?? Date.now;
  const ctx = (): SweepContext => ({ ownKey: options.ownKey, now: now(), ...(options.graceMs === undefined ? {} : { graceMs: options.graceMs }) });
  let names: string[];
  try {
    const top = await lstat(root);
    if (!top.isDirectory()) return { ...report, skipped: `${root} is not a directory (a symlink is never followed); not swept` };
    names = await readdir(root);
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return report;
    return { ...report, skipped: `${root} unreadable, not swept: ${errorText(error)}` };
  }
  const entries = await Promise.all(names.map((name) => inspectEntry(root, name, isAlive)));
  for (const first of decideSweep(entries, ctx())) {
    if (first.action !== "remove") continue;
    try {
      // Decide again from a fresh look: the first one may be stale by now.
      const [again] = decideSweep([await inspectEntry(root, first.name, isAlive)], ctx());
      if (again?.action !== "remove") continue;
      if (await removeEntry(root, again, options.pid ?? process.pid)) report.removed.push(again);
    } catch (error) {
      report.failed.push({ name: first.name, error: errorText(error) });
    }
  }
  return report;
}

/** Removes one entry; false when it was already gone. */
async function removeEntry(root: string, d: SweepRemoval, pid: number): Promise<boolean> {
  let target = join(root, d.name);
  if (d.why === "leader_gone" || d.why === "abandoned") {
    const tombstone = join(root, `.swept-${d.name}-${pid}-${randomBytes(4).toString("hex")}`);
    try {
      await rename(target, tombstone);
    } catch (error) {
      if (errnoCode(error) === "ENOENT") return false;
      throw error;
    }
    target = tombstone;
  }
  await rm(target, { recursive: true, force: true });
  return true;
}

/** Inspects one entry of the teammate dir without following symlinks. */
export async function inspectEntry(root: string, name: string, isAlive: (pid: number) => boolean): Promise<RuntimeEntry> {
  const path = join(root, name);
  let st;
  try {
    st = await lstat(path);
  } catch (error) {
    return { name, kind: "foreign", what: `unreadable (${errnoCode(error) ?? errorText(error)})` };
  }
  const notice = STOP_NOTICE.exec(name);
  if (notice && st.isFile()) {
    const pid = Number(notice[1]);
    return { name, kind: "stop_notice", pid, alive: isAlive(pid) };
  }
  if (!st.isDirectory()) return { name, kind: "foreign", what: st.isSymbolicLink() ? "symlink" : "not a directory" };
  const tomb = TOMBSTONE.exec(name);
  if (tomb) {
    const pid = Number(tomb[1]);
    return { name, kind: "tombstone", sweeperPid: pid, sweeperAlive: isAlive(pid) };
  }
  if (!SESSION_DIR.test(name)) return { name, kind: "foreign", what: "not a session key" };
  let newest = st.mtimeMs;
  for (const child of await readdir(path).catch(() => [] as string[])) {
    const cst = await lstat(join(path, child)).catch(() => undefined);
    if (cst && cst.mtimeMs > newest) newest = cst.mtimeMs;
  }
  return { name, kind: "session", lock: await readLock(join(path, SESSION_LOCK_FILE), isAlive), newestMtimeMs: newest };
}

/** Reads a `leader.lock` without following a symlink and without blocking on a FIFO. */
async function readLock(path: string, isAlive: (pid: number) => boolean): Promise<LockState> {
  let text: string;
  try {
    const st = await lstat(path);
    if (!st.isFile()) return { kind: "unreadable", reason: st.isSymbolicLink() ? "a symlink" : "not a regular file" };
    const file = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      const buf = Buffer.alloc(LOCK_READ_LIMIT);
      const { bytesRead } = await file.read(buf, 0, LOCK_READ_LIMIT, 0);
      text = buf.subarray(0, bytesRead).toString("utf8").trim();
    } finally {
      await file.close();
    }
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return { kind: "none" };
    return { kind: "unreadable", reason: errnoCode(error) ?? errorText(error) };
  }
  if (!/^\d{1,10}$/.test(text)) return { kind: "unreadable", reason: text === "" ? "empty" : "not a pid" };
  const pid = Number(text);
  if (pid <= 0) return { kind: "unreadable", reason: "not a pid" };
  return { kind: "held", pid, alive: isAlive(pid) };
}

/** One line per removal or failure, for the harness note log. */
export function sweepNotes(report: SweepReport): string[] {
  const lines = report.removed.map((d) => `swept teammate/${d.name}: ${removalReason(d)}`);
  for (const f of report.failed) lines.push(`could not sweep teammate/${f.name}: ${f.error}`);
  if (report.skipped) lines.push(`sweep skipped: ${report.skipped}`);
  return lines;
}

function removalReason(d: SweepRemoval): string {
  switch (d.why) {
    case "leader_gone":
      return `its leader (pid ${d.pid}) is gone`;
    case "abandoned":
      return `${d.lock === "none" ? "no leader.lock" : "an unreadable leader.lock"} and untouched for ${Math.round(d.idleMs / 60_000)} min`;
    case "stale_tombstone":
      return `left half-removed by a sweep of pid ${d.pid}, which is gone`;
    case "stale_stop_notice":
      return `stop notice of pid ${d.pid}, which is gone`;
    default:
      return assertNever(d, "sweep removal reason");
  }
}
