/**
 * What a teammate's steps mean for its counters: a report that reached the leader, an accepted
 * board submission or a newly held claim resets its peer pairs under the cap (W19) and starts a
 * new streak of model calls (src/team/model-call-rate.ts); a terminal report or an accepted
 * submission is an assignment boundary, where its context may be compacted (issue 8). Heard on
 * the session's bus; the compactor hears of quiet idles before the board offers work.
 */
import type { Member } from "../team/member.ts";
import type { HeldClaim } from "../team/prompts.ts";
import type { Compactor } from "./compactor.ts";
import type { TeamDriver } from "./team-driver.ts";

/** What the step listeners need of the harness. */
export interface TeamStepsDeps {
  readonly team: TeamDriver;
  readonly compactor: Compactor<Member>;
  /** The board port's claims of `m` (task ids it holds now). */
  readonly heldClaims: ((m: Member) => HeldClaim[]) | undefined;
}

/**
 * Subscribes the step listeners on `d.team.bus`. Call first, before the session's listeners: the
 * compactor must hear of a boundary and an idle before the board offers work.
 */
export function hearTeamSteps(d: TeamStepsDeps): void {
  const { team, compactor } = d;
  /** The living teammate `who` names, if it is still that incarnation. */
  const incarnation = (who: { name: string; spawnId: string }): Member | undefined => {
    const m = team.living(who.name);
    return m?.spawnId === who.spawnId ? m : undefined;
  };
  team.bus.on("delivery", ({ delivery: d }) => {
    if (d.kind !== "report") return;
    const m = incarnation({ name: d.record.from, spawnId: d.record.spawnId });
    team.peers.reset(d.record.from, "its report reached the leader");
    if (m) team.newStreak(m);
    if (m && d.record.status !== "in_progress") compactor.boundary(m);
  });
  team.bus.on("idle", ({ member }) => compactor.idle(member));
  team.bus.on("submitted", ({ holder }) => {
    const m = incarnation(holder);
    if (!m) return;
    team.peers.reset(m.name, "a board submission");
    team.newStreak(m);
    compactor.boundary(m);
  });
  // A task a living teammate holds now and did not before is an accepted claim.
  team.bus.on("board_changed", () => {
    const held = (m: Member): string[] => (d.heldClaims?.(m) ?? []).map((c) => c.id);
    for (const m of team.members.values()) if (m.living && team.peers.held(m, held(m))) team.newStreak(m);
  });
}
