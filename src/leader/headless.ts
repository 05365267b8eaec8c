/**
 * Headless runs (`pi -p`, `pi --mode json`): the leader's run stays open while the team works.
 *
 * Pi's print mode awaits one `session.prompt()` and then disposes the runtime (Pi 1.6.0
 * dist/modes/print-mode.js:114-151), so without help the team dies one turn after its spawn.
 * Here an `agent_before_settle` handler, installed only in print and json modes, waits until the
 * team is settled or a delivery to the leader is queued. A follow-up queued while the handler
 * waits makes Pi continue the same run with it (dist/core/agent-session.js:1640-1660), so each
 * owed report is one more leader turn; a settled team lets the run end, and session_shutdown
 * stops the team as before. TUI and RPC modes never install anything.
 *
 * Signals: Pi's SIGTERM/SIGHUP handler aborts the session and waits for it to go idle before
 * session_shutdown (dist/core/agent-session-runtime.js:328-333), which a waiting handler would
 * block forever; so the wait is released on those signals. Print mode has no SIGINT handler (the
 * default kills the process at once and skips session_shutdown). Here SIGINT stops the team and
 * then exits 130 (128 + SIGINT), without session_shutdown, as before; a second SIGINT exits at
 * once. The run is held meanwhile: released, it could settle and exit 0 first, or hand a queued
 * report to the leader's model while the team is being stopped.
 */
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { ActivityChange, TeamActivity } from "../team/team-activity.ts";

/** Why a wait ended: the team is settled, a delivery is queued for the leader, or `signal` aborted. */
export type WaitOutcome = "settled" | "delivered" | "aborted";

/** Pi modes that run one prompt and exit (ExtensionMode). Only these hold the run open. */
export const HEADLESS_MODES: readonly ExtensionContext["mode"][] = ["print", "json"];

/** Exit code after SIGINT: 128 + 2, what a shell reports for a process the signal killed. */
export const SIGINT_EXIT_CODE = 130;

/** Exit code of a run that ended on a stuck board (W21): pending work no living teammate can take. */
export const STUCK_EXIT_CODE = 3;

/** Default period of the safety re-check of busy() during a wait (only catches a missed change), ms. */
export const SAFETY_RECHECK_MS = 10_000;

/**
 * Waits until no activity is busy, one reports a delivery, or `signal` aborts; resolves at once
 * when nothing is busy. Event-driven; an unref'd timer re-checks busy() every `safetyMs` in case a
 * change was missed. Never rejects; releases every listener and timer when it resolves.
 */
export function waitForTeam(activities: readonly TeamActivity[], signal: AbortSignal, safetyMs = SAFETY_RECHECK_MS): Promise<WaitOutcome> {
  const busy = () => activities.some((a) => a.busy());
  if (signal.aborted) return Promise.resolve("aborted");
  if (!busy()) return Promise.resolve("settled");
  return new Promise((resolve) => {
    const check = (change: ActivityChange) => {
      if (change === "delivery") done("delivered");
      else if (!busy()) done("settled");
    };
    const unsubscribes = activities.map((a) => a.subscribe(check));
    const onAbort = () => done("aborted");
    const timer = setInterval(() => check("status"), safetyMs);
    timer.unref();
    signal.addEventListener("abort", onAbort, { once: true });
    function done(outcome: WaitOutcome): void {
      clearInterval(timer);
      signal.removeEventListener("abort", onAbort);
      for (const unsubscribe of unsubscribes) unsubscribe();
      resolve(outcome);
    }
  });
}

/** The part of `process` the hold listens on; injected by tests. */
export interface HeadlessProcess {
  on(event: "SIGINT" | "SIGTERM" | "SIGHUP" | "beforeExit", listener: () => void): unknown;
  off(event: "SIGINT" | "SIGTERM" | "SIGHUP" | "beforeExit", listener: () => void): unknown;
  exit(code: number): void;
  /** The code Pi exits with when its run succeeded (`process.exitCode`). */
  exitCode?: number | string | null | undefined;
  readonly stderr: { write(text: string): unknown };
}

/** Wiring of `registerHeadless`. */
export interface HeadlessOptions {
  /** The running team's activities, read at each wait; [] while no team runs. */
  activities: () => TeamActivity[];
  /** Stops the team (what session_shutdown does), used on SIGINT. Must not reject. */
  stopTeam: () => Promise<void>;
  /** The stuck board's summary (W21), read when the run is about to end; undefined when not stuck. */
  stuck?: () => string | undefined;
  /** Default `process`. */
  proc?: HeadlessProcess;
  /** Default SAFETY_RECHECK_MS. */
  safetyMs?: number;
}

/**
 * Holds a headless leader run open while the team works (see the file comment). Registers only
 * session hooks; the wait and the signal listeners exist from a print/json session_start to its
 * session_shutdown.
 */
export function registerHeadless(pi: ExtensionAPI, options: HeadlessOptions): void {
  const proc: HeadlessProcess = options.proc ?? process;
  let uninstall: (() => void) | undefined;

  pi.on("session_start", (_event, ctx) => {
    if (uninstall || !HEADLESS_MODES.includes(ctx.mode)) return;
    uninstall = install(pi, proc, options);
  });
  pi.on("session_shutdown", () => {
    uninstall?.();
    uninstall = undefined;
  });
}

function install(pi: ExtensionAPI, proc: HeadlessProcess, options: HeadlessOptions): () => void {
  // Aborted for good by SIGTERM/SIGHUP or the session's end: no wait starts again.
  // `drained` releases only the current wait.
  const stopped = new AbortController();
  let drained: AbortController | undefined;
  let interrupted = false;

  // After SIGINT the process exits from onInterrupt: the run must neither settle nor go on.
  const held = () => new Promise<never>(() => undefined);
  const offSettle = pi.on("agent_before_settle", async (event) => {
    if (interrupted) return held();
    // With a delivery queued before this handler ran, Pi continues with it anyway.
    if (event.context.pendingMessages.length === 0) {
      drained = new AbortController();
      const outcome = await waitForTeam(options.activities(), AbortSignal.any([stopped.signal, drained.signal]), options.safetyMs);
      drained = undefined;
      if (outcome === "settled" && !interrupted) endIfStuck();
    }
    if (interrupted) return held();
    return undefined; // a follow-up queued meanwhile continues the run; else it settles
  });
  // The run ends now: a stuck board says why on stderr and makes the exit code non-zero (W21).
  const endIfStuck = () => {
    const summary = options.stuck?.();
    if (summary === undefined) return;
    proc.stderr.write(`pi-resident-teams: ${summary}\nExit code ${STUCK_EXIT_CODE}: the board is stuck.\n`);
    proc.exitCode = STUCK_EXIT_CODE;
  };
  // Nothing left that could ever wake the wait: let the run end instead of exiting silently.
  const onBeforeExit = () => drained?.abort();
  const onTerm = () => stopped.abort(); // Pi's own handler then disposes, i.e. stops the team
  const onInterrupt = () => {
    if (interrupted) return proc.exit(SIGINT_EXIT_CODE);
    interrupted = true;
    void options.stopTeam().finally(() => proc.exit(SIGINT_EXIT_CODE));
  };
  const listeners = [["SIGTERM", onTerm], ["SIGHUP", onTerm], ["SIGINT", onInterrupt], ["beforeExit", onBeforeExit]] as const;
  for (const [event, listener] of listeners) proc.on(event, listener);
  return () => {
    stopped.abort();
    offSettle();
    for (const [event, listener] of listeners) proc.off(event, listener);
  };
}
