/**
 * Counting what a team left running (issue 18: nothing outlives its teammate): the processes
 * that still carry a team's markers in their environment, found the way the leader's reaper finds
 * them (src/reap/reaper.ts). /proc has no event for a process's end, so this polls.
 */
import { readFileSync } from "node:fs";
import { findMarked, type Marker } from "../../src/reap/index.ts";
import { ENV } from "../../src/mail/identity.ts";

export type { Marker };

/** The marker of one teammate incarnation. */
export const spawnMarker = (spawnId: string): Marker => ({ key: ENV.spawnId, value: spawnId });

/** The marker every child of the leader with pid `pid` carries (teammates and reviewers). */
export const leaderMarker = (pid: number): Marker => ({ key: ENV.leaderPid, value: String(pid) });

/** The pids carrying one of `markers` now. @throws Error on a system without /proc (the caller checks the platform). */
export async function markedPids(markers: Marker[]): Promise<number[]> {
  const found = await findMarked(markers);
  if (!found.supported) throw new Error("no /proc: cannot count marked processes here");
  return found.pids;
}

/**
 * Polls every 50 ms, for at most `budgetMs`, until no process carries one of `markers`.
 * @returns the pids still carrying one at the end, the same with their command lines (for
 *   messages), and the ms waited.
 */
export async function waitNoneMarked(markers: Marker[], budgetMs: number): Promise<{ pids: number[]; left: string[]; ms: number }> {
  const t0 = Date.now();
  for (;;) {
    const pids = await markedPids(markers);
    const ms = Date.now() - t0;
    if (pids.length === 0 || ms >= budgetMs) return { pids, left: pids.map(describePid), ms };
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** `pid: command line`, or the pid alone once it is gone. */
export function describePid(pid: number): string {
  try {
    return `${pid}: ${readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim()}`;
  } catch {
    return String(pid);
  }
}
