/**
 * Ends the processes a teammate or a verify reviewer left behind (issue 18, R21). Pi's `bash` tool
 * starts each command in its own process group and ends that group only when the call is aborted,
 * so a command that outlives its call (`cmd &`, `nohup`, `setsid`, a double fork) or the whole
 * tree of a SIGKILLed child is reparented to init and keeps running. Every one of them inherited
 * the child's environment, and with it a marker the leader gave that incarnation
 * (`PI_TEAMS_SPAWN_ID`, `PI_TEAMS_REVIEW_ID`, `PI_TEAMS_LEADER_PID`: src/team/identity.ts): the
 * reaper scans /proc/<pid>/environ for it and SIGKILLs every process that carries it.
 *
 * Limits, stated for the threat model: Linux only (elsewhere it does nothing and says so in its
 * result); a process that cleared or rewrote its environment (`env -i`, exec with a new envp) no
 * longer carries the marker and is not found; a process this user may not read or signal
 * (another user's, a setuid program's) is neither; pids are not pinned between the scan and the
 * kill, which Linux makes safe in practice by handing out pids in order up to pid_max before it
 * reuses one.
 */
import { open, readdir, readFile } from "node:fs/promises";
import { environHas, markerEntry, procPid, statParent, type Marker } from "./proc-parse.ts";

export type { Marker } from "./proc-parse.ts";

/** Bounds of one `reapMarked` call. */
export interface ReapLimits {
  /**
   * Bytes read of one process's environment. Default 8 MiB: more than exec accepts for arguments
   * and environment together (6 MiB at most on Linux), so no real environment is cut.
   */
  environBytes: number;
  /** Bytes read in one call, every process and round together. Default 512 MiB. */
  totalBytes: number;
  /**
   * Scans of /proc in one call. A scan that killed something is followed by another (a marked
   * process may have forked while it ran); one that killed nothing new ends the call. Default 16.
   */
  rounds: number;
}

const DEFAULT_LIMITS: ReapLimits = { environBytes: 8 * 1024 * 1024, totalBytes: 512 * 1024 * 1024, rounds: 16 };
/** How far up the parent chain the caller's ancestors are looked up (they are never killed). */
const MAX_ANCESTORS = 64;

/** Options of `reapMarked`. */
export interface ReapOptions {
  /** The proc file system. Default `/proc`. */
  procDir?: string;
  limits?: Partial<ReapLimits>;
}

/** What one `reapMarked` call did. */
export interface ReapResult {
  /** False where there is no /proc to scan (not Linux, or a sandbox without it): nothing was done. */
  supported: boolean;
  /** Pids that carried a marker and were sent SIGKILL. */
  killed: number[];
  /** Pids that carried a marker but could not be signalled, with the error code (e.g. EPERM). */
  failed: { pid: number; code: string }[];
  /** False when a bound (`ReapLimits`) ended the call early: a marked process may remain. */
  complete: boolean;
}

/**
 * Sends SIGKILL to every process that carries one of `markers` as an exact environment entry,
 * except the calling process and its ancestors. SIGKILL at once, not SIGTERM first: the owner of
 * these processes is gone, and a grace period would let them fork or catch the signal. Processes
 * that vanish during the scan, or whose files cannot be read, are skipped. Bounded by `limits`.
 * @returns the pids killed and failed; never rejects.
 * @throws Error when a marker is not an environment entry (see `markerEntry`), before any scan.
 */
export async function reapMarked(markers: readonly Marker[], options: ReapOptions = {}): Promise<ReapResult> {
  const scan = await Scan.start(markers, options);
  const result: ReapResult = { supported: false, killed: [], failed: [], complete: true };
  const seen = new Set<number>();
  for (let round = 0; round < scan.limits.rounds; round++) {
    const found = await scan.next(seen);
    result.supported = found.supported;
    for (const pid of found.pids) {
      seen.add(pid);
      try {
        process.kill(pid, "SIGKILL");
        result.killed.push(pid);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? String(error);
        if (code !== "ESRCH") result.failed.push({ pid, code }); // ESRCH: it ended meanwhile
      }
    }
    if (!found.complete) return { ...result, complete: false };
    if (found.pids.length === 0) return result;
  }
  return { ...result, complete: false };
}

/**
 * The pids of the processes that carry one of `markers` (as `reapMarked` finds them, one scan,
 * nothing signalled), except the calling process and its ancestors. Never rejects.
 * @throws Error when a marker is not an environment entry (see `markerEntry`).
 */
export async function findMarked(markers: readonly Marker[], options: ReapOptions = {}): Promise<Found> {
  return (await Scan.start(markers, options)).next(new Set());
}

/** One scan's answer: `supported` false where there is no /proc; `complete` false when the byte budget ran out. */
export interface Found {
  supported: boolean;
  pids: number[];
  complete: boolean;
}

/** Scans of /proc for the markers, sharing one byte budget; the caller and its ancestors are spared. */
class Scan {
  readonly limits: ReapLimits;
  readonly #procDir: string;
  readonly #entries: Buffer[];
  readonly #spared: Set<number>;
  readonly #reader: EnvironReader;

  private constructor(procDir: string, entries: Buffer[], limits: ReapLimits, spared: Set<number>) {
    this.limits = limits;
    this.#procDir = procDir;
    this.#entries = entries;
    this.#spared = spared;
    this.#reader = new EnvironReader(limits);
  }

  /** @throws Error as `markerEntry`. */
  static async start(markers: readonly Marker[], options: ReapOptions): Promise<Scan> {
    const entries = markers.map(markerEntry);
    const procDir = options.procDir ?? "/proc";
    const spared = process.platform === "linux" ? await ancestry(procDir) : new Set<number>();
    return new Scan(procDir, entries, { ...DEFAULT_LIMITS, ...options.limits }, spared);
  }

  /** The marked pids not in `skip`. */
  async next(skip: ReadonlySet<number>): Promise<Found> {
    if (process.platform !== "linux") return { supported: false, pids: [], complete: true };
    let names: string[];
    try {
      names = await readdir(this.#procDir);
    } catch {
      return { supported: false, pids: [], complete: true }; // no /proc here (a sandbox without it)
    }
    const pids: number[] = [];
    if (this.#entries.length === 0) return { supported: true, pids, complete: true };
    for (const name of names) {
      const pid = procPid(name);
      if (pid === undefined || this.#spared.has(pid) || skip.has(pid)) continue;
      if (this.#reader.exhausted) return { supported: true, pids, complete: false };
      const environ = await this.#reader.read(`${this.#procDir}/${pid}/environ`);
      if (environ && environHas(environ.data, this.#entries, environ.truncated)) pids.push(pid);
    }
    return { supported: true, pids, complete: true };
  }
}

/**
 * One line on what a reap did, for the harness log, or undefined when there is nothing to say
 * (nothing found, or no /proc). `whose` names the owner, e.g. "@alice (spawn 3f2a…)".
 */
export function reapNote(result: ReapResult, whose: string): string | undefined {
  const parts: string[] = [];
  if (result.killed.length > 0) parts.push(`ended ${result.killed.length} process(es) ${whose} left running (SIGKILL to pids ${result.killed.join(", ")})`);
  if (result.failed.length > 0) parts.push(`could not end ${result.failed.map((f) => `pid ${f.pid} (${f.code})`).join(", ")} left by ${whose}`);
  if (!result.complete) parts.push(`the scan for what ${whose} left running stopped at its bound; some processes may remain`);
  return parts.length > 0 ? parts.join("; ") : undefined;
}

/** The calling process and its ancestors (up to `MAX_ANCESTORS`), by their /proc stat files. */
async function ancestry(procDir: string): Promise<Set<number>> {
  const spared = new Set([process.pid, process.ppid]);
  let pid = process.ppid;
  for (let i = 0; i < MAX_ANCESTORS && pid > 1; i++) {
    const parent = await readFile(`${procDir}/${pid}/stat`, "utf8").then(statParent, () => undefined);
    if (parent === undefined || spared.has(parent)) break;
    spared.add(parent);
    pid = parent;
  }
  return spared;
}

/** Reads environ files into one growing buffer, within the per-process and per-call byte bounds. */
class EnvironReader {
  readonly #limits: ReapLimits;
  #buffer = Buffer.allocUnsafe(64 * 1024);
  #spent = 0;

  constructor(limits: ReapLimits) {
    this.#limits = limits;
  }

  /** True once the call's byte budget is spent. */
  get exhausted(): boolean {
    return this.#spent >= this.#limits.totalBytes;
  }

  /** The file's bytes (a view into the shared buffer, valid until the next read), or undefined when it cannot be read. */
  async read(path: string): Promise<{ data: Buffer; truncated: boolean } | undefined> {
    const cap = Math.min(this.#limits.environBytes, this.#limits.totalBytes - this.#spent);
    let handle;
    try {
      handle = await open(path, "r");
    } catch {
      return undefined; // vanished, or not ours to read
    }
    let length = 0;
    try {
      for (;;) {
        if (length === this.#buffer.length) {
          if (length >= cap) break;
          const bigger = Buffer.allocUnsafe(Math.min(cap, this.#buffer.length * 2));
          this.#buffer.copy(bigger, 0, 0, length);
          this.#buffer = bigger;
        }
        const { bytesRead } = await handle.read(this.#buffer, length, Math.min(this.#buffer.length, cap) - length, null);
        if (bytesRead === 0) break;
        length += bytesRead;
        if (length >= cap) break;
      }
    } catch {
      return undefined; // it exited while we read
    } finally {
      await handle.close().catch(() => undefined);
    }
    this.#spent += length;
    return { data: this.#buffer.subarray(0, length), truncated: length >= cap };
  }
}
