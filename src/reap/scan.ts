/**
 * Finding the processes that carry a marker (issue 18): scans of /proc/<pid>/environ for an exact
 * environment entry, bounded in bytes, rounds and time, sparing the caller and its ancestors.
 * src/reap/reaper.ts signals what these scans find.
 */
import { readdirSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { environHas, markerEntry, procPid, type Marker } from "./proc-parse.ts";
import { ancestry, readEnviron, readEnvironSync, type Environ } from "./proc-read.ts";

/** Bounds of one `reapMarked` or `findMarked` call. */
export interface ReapLimits {
  /**
   * Bytes read of one process's environment. Default 8 MiB: more than exec accepts for arguments
   * and environment together (6 MiB at most on Linux), so no real environment is cut.
   */
  environBytes: number;
  /**
   * Bytes read in one call, every process and round together (checked between batches of reads,
   * so it may be passed by one batch). Default 512 MiB.
   */
  totalBytes: number;
  /**
   * Scans of /proc in each phase of a reap (SIGTERM, SIGKILL). A scan that signalled something is
   * followed by another (a marked process may have forked while it ran); one that found nothing new
   * ends the phase. Default 16.
   */
  rounds: number;
  /**
   * Time for one call, in ms. A read of a process's environment waits for that process's memory
   * map lock, which a process stuck in the kernel can hold; past this the call gives up. Default 10 s.
   */
  timeMs: number;
  /**
   * After SIGTERM, how long the marked processes get to end before the ones still marked get
   * SIGKILL, in ms. Default 1000: time for a shell to run its exit traps (a killed shell can leave
   * a lock behind, such as pyenv's shim lock, that hangs every later shell of the user).
   */
  graceMs: number;
}

const DEFAULT_LIMITS: ReapLimits = { environBytes: 8 * 1024 * 1024, totalBytes: 512 * 1024 * 1024, rounds: 16, timeMs: 10_000, graceMs: 1000 };

/**
 * Environments read at once. Each read is a few trips between the thread pool and the event loop,
 * which a busy leader answers slowly; reading in parallel pays those trips once per batch.
 */
const BATCH = 64;

/** Options of `reapMarked` and `findMarked`. */
export interface ReapOptions {
  /** The proc file system. Default `/proc`. */
  procDir?: string;
  limits?: Partial<ReapLimits>;
}

/**
 * The pids of the processes that carry one of `markers` (as `reapMarked` finds them, one scan,
 * nothing signalled), except the calling process and its ancestors. Rejects only when a marker is
 * not an environment entry (see `markerEntry`).
 */
export async function findMarked(markers: readonly Marker[], options: ReapOptions = {}): Promise<Found> {
  const scan = Scan.start(markers, options);
  try {
    return await scan.next(new Set());
  } finally {
    scan.close();
  }
}

/** One scan's answer: `supported` false where there is no /proc; `complete` false when a bound ended it. */
export interface Found {
  supported: boolean;
  pids: number[];
  complete: boolean;
}

/** Scans of /proc for the markers, sharing one byte budget and one deadline; the caller and its ancestors are spared. */
export class Scan {
  readonly limits: ReapLimits;
  readonly procDir: string;
  readonly #entries: Buffer[];
  readonly #spared: Set<number>;
  #spent = 0;
  /** Set by the first async scan: `timeMs` from then on. */
  #deadline: { timer: NodeJS.Timeout; late: Promise<"late"> } | undefined;

  private constructor(procDir: string, entries: Buffer[], limits: ReapLimits) {
    this.limits = limits;
    this.procDir = procDir;
    this.#entries = entries;
    this.#spared = process.platform === "linux" ? ancestry(procDir) : new Set();
  }

  /** @throws Error as `markerEntry`. */
  static start(markers: readonly Marker[], options: ReapOptions): Scan {
    return new Scan(options.procDir ?? "/proc", markers.map(markerEntry), { ...DEFAULT_LIMITS, ...options.limits });
  }

  close(): void {
    clearTimeout(this.#deadline?.timer);
  }

  /** The marked pids not in `skip`. */
  async next(skip: ReadonlySet<number>): Promise<Found> {
    const names = process.platform === "linux" ? await readdir(this.procDir).catch(() => undefined) : undefined;
    if (!names) return { supported: false, pids: [], complete: true }; // no /proc here (not Linux, a sandbox without it)
    this.#deadline ??= deadline(this.limits.timeMs);
    const pids: number[] = [];
    const todo = candidates(names, this.#spared, skip);
    for (let i = 0; i < todo.length; i += BATCH) {
      if (this.#spent >= this.limits.totalBytes) return { supported: true, pids, complete: false };
      const batch = todo.slice(i, i + BATCH);
      const environs = await Promise.race([Promise.all(batch.map((pid) => readEnviron(this.#path(pid), this.#cap()))), this.#deadline.late]);
      if (environs === "late") return { supported: true, pids, complete: false };
      pids.push(...batch.filter((_, j) => this.#carries(environs[j])));
    }
    return { supported: true, pids, complete: true };
  }

  /** `next` with synchronous reads, and no deadline. */
  nextSync(skip: ReadonlySet<number>): Found {
    let names: string[] | undefined;
    try {
      names = process.platform === "linux" ? readdirSync(this.procDir) : undefined;
    } catch {
      names = undefined;
    }
    if (!names) return { supported: false, pids: [], complete: true };
    const pids: number[] = [];
    for (const pid of candidates(names, this.#spared, skip)) {
      if (this.#spent >= this.limits.totalBytes) return { supported: true, pids, complete: false };
      if (this.#carries(readEnvironSync(this.#path(pid), this.#cap()))) pids.push(pid);
    }
    return { supported: true, pids, complete: true };
  }

  #path(pid: number): string {
    return `${this.procDir}/${pid}/environ`;
  }

  /** The size bound of the next read: per process, and what is left of the call's budget. */
  #cap(): number {
    return Math.max(0, Math.min(this.limits.environBytes, this.limits.totalBytes - this.#spent));
  }

  /** Counts what was read and says whether it holds a marker; false when nothing could be read. */
  #carries(environ: Environ | undefined): boolean {
    if (!environ) return false;
    this.#spent += environ.data.length;
    return environHas(environ.data, this.#entries, environ.truncated);
  }
}

/** A promise that resolves with "late" after `ms` (its timer does not keep the process alive). */
function deadline(ms: number): { timer: NodeJS.Timeout; late: Promise<"late"> } {
  let timer!: NodeJS.Timeout;
  const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), ms).unref()));
  return { timer, late };
}

/** The pids named in a /proc listing, less the spared and the skipped ones. */
function candidates(names: readonly string[], spared: ReadonlySet<number>, skip: ReadonlySet<number>): number[] {
  return names.map(procPid).filter((pid): pid is number => pid !== undefined && !spared.has(pid) && !skip.has(pid));
}
