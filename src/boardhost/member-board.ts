/**
 * A teammate as the board sees it (R15, R36, R49, L31): what it holds, what it owes, whether it
 * works. Pure reads of the board and the member, for the team session's wiring.
 */
import { heldBy, holderOf, type Board, type Task } from "../board/index.ts";
import { isWorking } from "../team/lifecycle-state.ts";
import type { Member } from "../team/member.ts";
import type { BoardMate } from "./board-host-types.ts";

/**
 * The board task `m` owes a submission for (L31): one it holds as `claimed`, or a parked one the
 * leader allowed one more attempt of.
 */
export function openClaimOf(board: Board, m: Member): string | undefined {
  for (const task of board.tasks.values()) {
    const s = task.state;
    const owed = s.status === "claimed" || (s.status === "parked" && s.allowance !== undefined);
    if (owed && s.holding.holder.name === m.name && s.holding.holder.spawnId === m.spawnId) return task.id;
  }
  return undefined;
}

/** The board tasks `m` (this incarnation) holds: claimed, in review, parked, or superseded with its lock. */
export function heldTasks(board: Board, m: Member): Task[] {
  return heldBy(board, m.name)
    .map((id) => board.tasks.get(id))
    .filter((t): t is Task => {
      const h = t && holderOf(t.state);
      return h !== undefined && h.spawnId === m.spawnId;
    });
}

/**
 * The resource tags `m` holds now, for the roster (the shared-tree edit guards read them): its
 * open direct assignment's resources and its board tasks' resources.
 */
export function holdingsOf(board: Board, m: Member): Array<{ tag: string; taskId?: string }> {
  const direct = m.direct === "open" ? m.resources.map((tag) => ({ tag })) : [];
  return [...direct, ...heldTasks(board, m).flatMap((t) => t.resources.map((tag) => ({ tag, taskId: t.id })))];
}

/** Starting, working, or idle with mail or a prompt still on its way in. */
export function working(m: Member): boolean {
  return isWorking(m.state);
}

/** The board's view of a living teammate. */
export function boardMate(m: Member): BoardMate {
  return {
    name: m.name,
    spawnId: m.spawnId,
    // A wake in flight (or mail waiting for one) means the teammate is busy with that mail, e.g.
    // a notice: until it really idles, its offered task must not go to another teammate (R36).
    idle: m.quiet,
    hasAssignment: m.direct !== "none",
    assignmentResources: m.direct === "open" ? m.resources : undefined,
    roleVerify: m.agent.verify,
  };
}
