/**
 * The ports of the leader's harness: what it asks of the world outside its own objects. The
 * production values are the real clock, `spawnPiChild` and the git, launcher and reaper modules;
 * unit tests pass fakes (tests/support/fake-pi-child.ts) and drive a real harness in milliseconds.
 */
import { persistDefinition } from "../agents/persist.ts";
import { captureWorktree, discardWorktree, prepareWorktree } from "../isolation/index.ts";
import { preflightLaunch, removeLaunchDirs } from "../launch/index.ts";
import { ensureWorkerBundle } from "../process/worker-bundle.ts";
import { reapMarked } from "../reap/index.ts";
import { ensurePrivateDir } from "../store/index.ts";

/** Time for the harness: epoch milliseconds, and one-shot timers that never keep the process alive. */
export interface Clock {
  now(): number;
  /** Calls `fn` once after `ms` milliseconds; returns the cancel (idempotent). */
  setTimer(fn: () => void, ms: number): () => void;
}

/** The real clock: `Date.now` and unref'd `setTimeout`. */
export const SYSTEM_CLOCK: Clock = Object.freeze({
  now: () => Date.now(),
  setTimer: (fn: () => void, ms: number) => {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
});

/**
 * The file-system and process operations a teammate's life needs besides its child: the
 * launcher's pre-flight, its worktree (R20), its session dir (issue 20), an inline role's file,
 * the worker bundle, the dirs a launch made, and the reaper of what it left running. Each has the signature of the
 * module function it defaults to.
 */
export interface TeammateFiles {
  readonly preflightLaunch: typeof preflightLaunch;
  readonly prepareWorktree: typeof prepareWorktree;
  readonly captureWorktree: typeof captureWorktree;
  readonly discardWorktree: typeof discardWorktree;
  readonly ensurePrivateDir: typeof ensurePrivateDir;
  readonly removeLaunchDirs: typeof removeLaunchDirs;
  readonly persistDefinition: typeof persistDefinition;
  readonly ensureWorkerBundle: typeof ensureWorkerBundle;
  readonly reapMarked: typeof reapMarked;
}

/** The production `TeammateFiles`. */
export const TEAMMATE_FILES: TeammateFiles = Object.freeze({
  preflightLaunch,
  prepareWorktree,
  captureWorktree,
  discardWorktree,
  ensurePrivateDir,
  removeLaunchDirs,
  persistDefinition,
  ensureWorkerBundle,
  reapMarked,
});
