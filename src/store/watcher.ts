import { basename, join, resolve } from "node:path";
import type { FSWatcher } from "chokidar";
import { ensurePrivateDir } from "./fs-modes.ts";

/** Options of {@link watchDirs}; every field has a default. */
export interface WatchDirsOptions {
  /**
   * Interval of the safety poll in ms: every `safetyPollMs` `onChange(dir)` is called for each
   * watched dir, so an event the OS dropped is caught late rather than never (W6). Default
   * 5000; 0 disables. The timer is unref'd: it never keeps the process alive.
   */
  safetyPollMs?: number;
  /**
   * Receives watcher errors and exceptions thrown by `onChange`. Default: ignore them (the
   * safety poll still runs). Must not throw.
   */
  onError?: (error: unknown) => void;
}

/** A running watch; see {@link watchDirs}. */
export interface DirWatch {
  /** Resolves once the initial scan is done and every existing file was reported. */
  readonly ready: Promise<void>;
  /**
   * Stops the watcher and the safety poll. Idempotent; after it resolves `onChange` is not
   * called again.
   */
  close(): Promise<void>;
}

/**
 * Watches the direct children of `dirs` (outbox, inbox and intent dirs) and calls `onChange`
 * with the absolute path of a file that was added or changed, including every file already
 * present at start (initial scan). Subdirectories (`rotated/`, `done/`) and dot-prefixed temp
 * files are ignored. The dirs are created (mode 0700) first if missing, since a missing dir
 * cannot be watched.
 *
 * `onChange` may also receive a watched dir's own path: from the safety poll, meaning "rescan
 * this dir". Callers treat every call as a hint and read with a cursor; a call may be spurious
 * or coalesce several appends. awaitWriteFinish is off: readers take only complete lines.
 * Event-driven (fs.watch via chokidar); the only timer is the slow safety poll. No busy polling.
 *
 * Every append to a known file is reported, however close together: chokidar drops a file's
 * `change` events for 50 ms after one it emitted (and raw fs events for 5 ms), with no trailing
 * event, so the second of two appends 1-49 ms apart would wait for the safety poll (seconds).
 * Chokidar's unthrottled `raw` events for files it already reported are therefore hints too,
 * coalesced per file to one call per event-loop turn (measured by bench/route-latency.ts).
 *
 * Returns at once; `ready` rejects if a dir cannot be created (TeamError `io_error`).
 */
export function watchDirs(dirs: readonly string[], onChange: (path: string) => void, options: WatchDirsOptions = {}): DirWatch {
  const safetyPollMs = options.safetyPollMs ?? 5000;
  if (!(Number.isFinite(safetyPollMs) && safetyPollMs >= 0)) {
    throw new TypeError(`watchDirs option safetyPollMs must be a finite number of ms >= 0, got ${String(safetyPollMs)}`);
  }
  const onError = options.onError ?? (() => undefined);
  const roots = dirs.map((dir) => resolve(dir));
  const rootSet = new Set(roots);
  let closed = false;
  const notify = (path: string): void => {
    if (closed) return;
    try {
      onChange(path);
    } catch (error) {
      onError(error);
    }
  };

  let watcher: FSWatcher | undefined;
  let endScan: (() => void) | undefined;

  const timer =
    safetyPollMs > 0
      ? setInterval(() => {
          for (const root of roots) notify(root);
        }, safetyPollMs)
      : undefined;
  timer?.unref();

  const ready = (async () => {
    for (const root of roots) await ensurePrivateDir(root);
    // Loaded at the first watch, not with this module: only the leader watches, and a teammate
    // loads this module with the store's others, where chokidar would add to every start.
    const { watch } = await import("chokidar");
    if (closed) return;
    const active = watch(roots, {
      depth: 0,
      ignoreInitial: false,
      awaitWriteFinish: false,
      ignored: (path) => !rootSet.has(path) && basename(path).startsWith("."),
    });
    watcher = active;
    const raw = rawHints(rootSet, notify);
    active.on("add", raw.known);
    active.on("change", raw.changed);
    active.on("unlink", raw.forget);
    active.on("raw", raw.onRaw);
    active.on("error", (error) => {
      if (!closed) onError(error);
    });
    await new Promise<void>((resolveReady) => {
      endScan = resolveReady;
      active.once("ready", () => resolveReady());
    });
  })();
  // Callers that only close() must not get an unhandled rejection; `ready` still rejects for them.
  ready.catch(() => undefined);

  return {
    ready,
    async close() {
      if (closed) return;
      closed = true;
      if (timer) clearInterval(timer);
      endScan?.();
      await watcher?.close();
    },
  };
}

/**
 * Turns chokidar's `raw` fs events into change hints for files chokidar has reported (add or
 * change). `add` passes straight through so `ready` still means "every existing file was
 * reported"; `change` is dropped once raw events are seen to flow for a file (they cover it,
 * unthrottled), so polling fallbacks without raw events still get chokidar's `change`.
 */
function rawHints(roots: ReadonlySet<string>, notify: (path: string) => void) {
  const files = new Set<string>();
  const rawSeen = new Set<string>();
  const pending = new Set<string>();
  const hint = (path: string): void => {
    if (pending.has(path)) return;
    pending.add(path);
    setImmediate(() => {
      pending.delete(path);
      notify(path);
    });
  };
  return {
    known(path: string): void {
      files.add(path);
      notify(path);
    },
    changed(path: string): void {
      files.add(path);
      if (!rawSeen.has(path)) notify(path);
    },
    forget(path: string): void {
      files.delete(path);
      rawSeen.delete(path);
    },
    onRaw(_event: string, evPath: string, details: unknown): void {
      const watched = (details as { watchedPath?: unknown } | undefined)?.watchedPath;
      if (typeof watched !== "string") return;
      // A dir watcher names the entry; a file watcher's own path is the file.
      const path = roots.has(watched) && evPath ? join(watched, evPath) : watched;
      if (!files.has(path)) return;
      rawSeen.add(path);
      hint(path);
    },
  };
}
