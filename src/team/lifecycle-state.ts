/**
 * The teammate lifecycle's starting state and the questions the shell asks of a state: the
 * status others see, whether the name is still taken, whether it is busy, working or quiet,
 * whether it owes a report. Defined here once; pure. The rules that change a state are in
 * lifecycle.ts.
 */
import type { Holdings, Life, TeammatePhase, TeammateState } from "./lifecycle-types.ts";
import type { TeammateStatus } from "./routing.ts";

/** Holdings of a new incarnation: nothing acquired yet; `assignment` its kickoff, if any (R16). */
export function initialHoldings(assignment?: string): Holdings {
  return {
    worktree: undefined,
    launchDirs: [],
    proc: undefined,
    transport: "files",
    session: undefined,
    persisted: undefined,
    kept: undefined,
    leftAt: undefined,
    assignment: assignment === undefined ? undefined : { text: assignment, open: true },
    reports: [],
    claimsAtStop: [],
  };
}

/** A new incarnation, `starting`, its silence counted from `now` (ms); `assignment` its kickoff, if any. */
export function initialState(spawnId: string, now: number, assignment?: string): TeammateState {
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
    holdings: initialHoldings(assignment),
  };
}

/** The living part of a state; undefined once its child closed. */
export function lifeOf(s: TeammateState): Life | undefined {
  return "life" in s ? s.life : undefined;
}

/** The status routing, the roster and the board see (a stopping or capturing teammate is no longer a target). */
export function statusOf(s: TeammateState): TeammateStatus {
  return s.phase === "stopping" || s.phase === "capturing" ? "stopped" : s.phase;
}

/** True until the child has closed: the name and a place among the 8 stay taken (R19, R22). */
export function occupies(s: TeammateState): boolean {
  return s.phase !== "stopped" && s.phase !== "capturing";
}

/**
 * Idle with nothing in flight or waiting: the board may offer it work (R36). Mail the child
 * refused does not count as waiting: nothing would end that wait, and a task offered to it must
 * lapse to another teammate. A compaction in progress is not quiet: it ends with a board offer.
 */
export function isQuiet(s: TeammateState): boolean {
  return s.phase === "idle" && s.life.sending === undefined && !s.life.compacting && (s.life.mail.length === 0 || s.life.failedSends > 0);
}

/** Starting or in a run (a status or a phase): the widget's rows (R62). */
export function isActive(status: TeammateStatus | TeammatePhase): boolean {
  return status === "starting" || status === "working";
}

/** Active, or idle with mail or a prompt still on its way in: the board does not settle meanwhile. */
export function isWorking(s: TeammateState): boolean {
  return isActive(statusOf(s)) || (s.phase === "idle" && !isQuiet(s));
}

/**
 * Owes the leader something (headless runs wait for it): starting or in a run, a prompt in
 * flight, or a compaction running (it ends with a board offer or a settle). Mail left on an idle
 * teammate after a failed wake does not count: nothing would ever end that wait.
 */
export function isBusy(s: TeammateState): boolean {
  const life = lifeOf(s);
  return s.phase === "starting" || s.phase === "working" || (life !== undefined && (life.sending !== undefined || life.compacting));
}

/** It owes a report at a settle (L31): its direct assignment is open, or it holds a claimed board task. */
export function owesReport(life: Life, openClaim: string | undefined): boolean {
  return life.direct === "open" || openClaim !== undefined;
}
