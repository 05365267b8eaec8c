/**
 * Ends the processes a teammate or a verify reviewer left behind (issue 18, R21). Pi's `bash` tool
 * starts each command in its own process group and ends that group only when the call is aborted,
 * so a command that outlives its call (`cmd &`, `nohup`, `setsid`, a double fork) or the whole
 * tree of a SIGKILLed child is reparented to init and keeps running. Every one of them inherited
 * the child's environment, and with it a marker the leader gave that incarnation
 * (`PI_TEAMS_SPAWN_ID`, `PI_TEAMS_REVIEW_ID`, `PI_TEAMS_LEADER_PID`: src/mail/identity.ts): the
 * reaper scans /proc/<pid>/environ for it and ends every process that carries it (SIGTERM, then
 * SIGKILL after a short grace).
 *
 * Limits, stated for the threat model: Linux only (elsewhere it does nothing and says so in its
 * result); a process that cleared or rewrote its environment (`env -i`, exec with a new envp) no
 * longer carries the marker and is not found; a process this user may not read or signal
 * (another user's, a setuid program's) is neither; pids are not pinned between the scan and the
 * kill, which Linux makes safe in practice by handing out pids in order up to pid_max before it
 * reuses one.
 */
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { statParent, type Marker } from "./proc-parse.ts";
import { Scan, type Found, type ReapOptions } from "./scan.ts";

// termRoundsOut: a process that ignores SIGTERM and forks faster than one scan of /proc (a shell
// looping on `sleep 0.05` under load) gives every SIGTERM round a new pid, so that phase can run
// out of rounds. That is no reason to stop: SIGKILL ends the forker, and its phase then settles.
// Only the SIGKILL phases running out of rounds make a call incomplete.
//
// A trap's own commands: a shell that got SIGTERM runs its exit trap, which may fork (`rm -f lock`
// is no builtin). A later SIGTERM round would find that child, new and marked, and end it before it
// removed the lock. So after the first round a process whose parent already got SIGTERM is not sent
// SIGTERM: it is that parent's cleanup (or a forker's child), and gets SIGKILL after the grace if it
// still runs. Such a find is nothing new to signal, so it also ends the SIGTERM phase.

/** The pause before the last SIGKILL pass of `reapMarked`, in ms. */
const SETTLE_MS = 500;
/** How often the grace checks whether the signalled processes have ended, in ms (no exit event exists for a process that is not our child). */
const GRACE_STEP_MS = 50;

/** What one `reapMarked` call did. */
export interface ReapResult {
  /** False where there is no /proc to scan (not Linux, or a sandbox without it): nothing was done. */
  supported: boolean;
  /** Pids that carried a marker and were sent SIGTERM, and SIGKILL if still marked after the grace. */
  killed: number[];
  /** Pids that carried a marker but could not be signalled, with the error code (e.g. EPERM). */
  failed: { pid: number; code: string }[];
  /** False when a bound (`ReapLimits`) ended the call early: a marked process may remain. */
  complete: boolean;
}

/**
 * Ends every process that carries one of `markers` as an exact environment entry, except the
 * calling process and its ancestors: SIGTERM to each (rescanning until a scan finds nothing new,
 * for processes that forked meanwhile), up to `graceMs` for them to end, then SIGKILL to every
 * process still marked (rescanning the same way), and once more half a second later. SIGTERM first lets a shell run its exit traps
 * and release its locks; SIGKILL after the grace ends what caught or ignored it, and what forked.
 * Processes that vanish during the scan, or whose files cannot be read, are skipped. Bounded by
 * `limits`.
 * @returns the pids signalled and failed. Rejects only when a marker is not an environment entry
 *   (see `markerEntry`), before any scan.
 */
export async function reapMarked(markers: readonly Marker[], options: ReapOptions = {}): Promise<ReapResult> {
  const scan = Scan.start(markers, options);
  try {
    const result: ReapResult = { supported: false, killed: [], failed: [], complete: true };
    // The last SIGKILL pass comes a moment later: a shell that got SIGTERM may still fork its
    // queued background jobs before it dies, after the scans above (seen in the fault suite).
    for (const signal of ["SIGTERM", "SIGKILL", "SIGKILL"] as const) {
      const seen = new Set<number>();
      let over = false;
      for (let round = 0; round < scan.limits.rounds && !over; round++) over = signalFound(spareTrapChildren(await scan.next(seen), seen, signal, round, scan.procDir), seen, result, signal);
      if (!over && signal === "SIGKILL") result.complete = false; // see termRoundsOut
      if (!result.complete || result.killed.length === 0) return result;
      if (signal === "SIGTERM") await graceAsync(scan, seen);
      else await sleep(SETTLE_MS);
    }
    return result;
  } finally {
    scan.close();
  }
}

/**
 * `reapMarked` for a process that is exiting (an `exit` handler cannot wait): the same scans with
 * synchronous reads and a blocking grace. Bounded by `limits` except `timeMs`: a read that blocks
 * (see `ReapLimits`) blocks it. Never throws on what it reads.
 * @throws Error when a marker is not an environment entry (see `markerEntry`), before any scan.
 */
export function reapMarkedSync(markers: readonly Marker[], options: ReapOptions = {}): ReapResult {
  const scan = Scan.start(markers, options);
  const result: ReapResult = { supported: false, killed: [], failed: [], complete: true };
  for (const signal of ["SIGTERM", "SIGKILL"] as const) {
    const seen = new Set<number>();
    let over = false;
    for (let round = 0; round < scan.limits.rounds && !over; round++) over = signalFound(spareTrapChildren(scan.nextSync(seen), seen, signal, round, scan.procDir), seen, result, signal);
    if (!over && signal === "SIGKILL") result.complete = false; // see termRoundsOut
    if (!result.complete || seen.size === 0) return result;
    if (signal === "SIGTERM") {
      const until = Date.now() + scan.limits.graceMs;
      const pause = new Int32Array(new SharedArrayBuffer(4));
      while (Date.now() < until && [...seen].some((pid) => running(scan.procDir, pid))) Atomics.wait(pause, 0, 0, GRACE_STEP_MS);
    }
  }
  return result;
}

/** Waits up to `graceMs` (and the call's deadline) while one of `pids` still runs. */
async function graceAsync(scan: Scan, pids: ReadonlySet<number>): Promise<void> {
  const until = Date.now() + scan.limits.graceMs;
  while (Date.now() < until && [...pids].some((pid) => running(scan.procDir, pid))) await sleep(GRACE_STEP_MS);
}

/**
 * After the first SIGTERM round, drops from `found` the processes whose parent already got SIGTERM
 * (in `seen`), adding them to `seen` so the grace waits for them too (see the trap note above).
 */
function spareTrapChildren(found: Found, seen: Set<number>, signal: "SIGTERM" | "SIGKILL", round: number, procDir: string): Found {
  if (signal !== "SIGTERM" || round === 0) return found;
  const pids = found.pids.filter((pid) => {
    const parent = parentOf(procDir, pid);
    if (parent === undefined || !seen.has(parent)) return true;
    seen.add(pid);
    return false;
  });
  return { ...found, pids };
}

function parentOf(procDir: string, pid: number): number | undefined {
  try {
    return statParent(readFileSync(`${procDir}/${pid}/stat`, "utf8"));
  } catch {
    return undefined;
  }
}

/** Whether `pid` still runs: it has a /proc entry and is not a zombie (`Z`) or dead (`X`). */
function running(procDir: string, pid: number): boolean {
  try {
    const stat = readFileSync(`${procDir}/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

/**
 * Sends `signal` to the pids of one scan, recording them in `result` (once each) and `seen`. True
 * when this phase is over: the scan found nothing new, or a bound ended it (then
 * `result.complete` is false).
 */
function signalFound(found: Found, seen: Set<number>, result: ReapResult, signal: "SIGTERM" | "SIGKILL"): boolean {
  result.supported = found.supported;
  for (const pid of found.pids) {
    seen.add(pid);
    try {
      process.kill(pid, signal);
      if (!result.killed.includes(pid)) result.killed.push(pid);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      if (code !== "ESRCH" && !result.failed.some((f) => f.pid === pid)) result.failed.push({ pid, code }); // ESRCH: it ended meanwhile
    }
  }
  if (!found.complete) result.complete = false;
  return !found.complete || found.pids.length === 0;
}

/**
 * One line on what a reap did, for the harness log, or undefined when there is nothing to say
 * (nothing found, or no /proc). `whose` names the owner, e.g. "@alice (spawn 3f2a…)".
 */
export function reapNote(result: ReapResult, whose: string): string | undefined {
  const parts: string[] = [];
  if (result.killed.length > 0) parts.push(`ended ${result.killed.length} process(es) ${whose} left running (SIGTERM, then SIGKILL to those still running, pids ${result.killed.join(", ")})`);
  if (result.failed.length > 0) parts.push(`could not end ${result.failed.map((f) => `pid ${f.pid} (${f.code})`).join(", ")} left by ${whose}`);
  if (!result.complete) parts.push(`the scan for what ${whose} left running stopped at its bound; some processes may remain`);
  return parts.length > 0 ? parts.join("; ") : undefined;
}
