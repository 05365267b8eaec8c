/**
 * The teammate lifecycle's starting state and the questions the shell asks of a state: the
 * status others see, whether the name is still taken, whether the board may offer it work.
 * Pure; the rules that change a state are in lifecycle.ts.
 */
import type { TeammateState } from "./lifecycle-types.ts";
import type { TeammateStatus } from "./routing.ts";

/** A new incarnation, `starting`, its silence counted from `now` (ms). */
export function initialState(spawnId: string, now: number): TeammateState {
  return {
    phase: "starting",
    life: {
      gate: { spawnId, closed: false },
      direct: "none",
      reminder: { step: "none" },
      rolePending: true,
      mail: [],
      sending: undefined,
      activity: { lastOutputAt: now, modelOutput: false, toolsRunning: 0, tokens: 0, cost: 0, noticed: false },
      lastText: "",
      tickets: 0,
      finished: false,
      failedSends: 0,
      compacting: false,
    },
  };
}

/** The status routing, the roster and the board see (a stopping teammate is no longer a target). */
export function statusOf(s: TeammateState): TeammateStatus {
  return s.phase === "stopping" ? "stopped" : s.phase;
}

/** True until the child has closed: the name and a place among the 8 stay taken (R19, R22). */
export function occupies(s: TeammateState): boolean {
  return s.phase !== "stopped";
}

/**
 * Idle with nothing in flight or waiting: the board may offer it work (R36). Mail the child
 * refused does not count as waiting: nothing would end that wait, and a task offered to it must
 * lapse to another teammate. A compaction in progress is not quiet: it ends with a board offer.
 */
export function isQuiet(s: TeammateState): boolean {
  return s.phase === "idle" && s.life.sending === undefined && !s.life.compacting && (s.life.mail.length === 0 || s.life.failedSends > 0);
}
