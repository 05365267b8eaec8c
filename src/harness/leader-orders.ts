import { TeamError } from "../errors.ts";
import { LEADER_NAME, makeInboxRecord, USER_NAME } from "../mail/index.ts";
import type { Member } from "../team/member.ts";
import { routeFromLeader, type SendRequest } from "../team/routing.ts";
import type { LeaderSendResult, ResolvedHarnessOptions } from "./harness-types.ts";
import type { TeamDriver } from "./team-driver.ts";

/**
 * The leader's `send_message` (R24, R25): a working teammate is steered through its control
 * stream (`steered` only when the child accepted it); otherwise the message goes to its inbox
 * (`queued`) and is delivered at its next wake. `reopen` starts a new assignment after a
 * terminal report: the report gate opens again and the board is open to the teammate (R15);
 * the board's `reopen` note (one more attempt of its parked tasks, R45) joins the result.
 * `from` is `user` for the user's own message from the console (issue 21): the same routing and
 * receipts, marked as the user's.
 * @throws TeamError `invalid_input` when the recipient is not a living teammate.
 */
export async function sendFromLeader(team: TeamDriver, o: ResolvedHarnessOptions, req: SendRequest, from: typeof LEADER_NAME | typeof USER_NAME = LEADER_NAME): Promise<LeaderSendResult> {
  const statuses = new Map([...team.members.values()].map((m) => [m.name, { name: m.name, status: m.status }]));
  const route = routeFromLeader(req, statuses);
  if (route.kind === "error") throw new TeamError("invalid_input", route.message);
  const m = team.living(route.to)!;
  team.peers.reset(m.name, `a ${from} message`); // W19
  team.newStreak(m); // of model calls (issue 18)
  const id = team.waits.nextMessageId();
  const record = makeInboxRecord({ from, to: m.name, body: req.message }, o.clock.now());
  let reopened: string | undefined;
  if (req.reopen) reopened = team.hook(() => o.board.reopen?.(m), m);
  const result = team.waits.leaderResult(m, id);
  void team.enqueue(m, () => [{ type: "leader_message", id, record, reopen: req.reopen === true }]);
  const notes = [route.note, reopened].filter((n): n is string => n !== undefined && n !== "");
  return { to: m.name, result: await result, ...(notes.length > 0 ? { note: notes.join(" ") } : {}) };
}

/**
 * Stops one teammate on request (R21): stdin EOF, then SIGTERM, then SIGKILL, each after a
 * bounded wait. The teammate ends `stopped` and no leader turn is started (R30). Resolves once
 * its close was handled, with how its child ended.
 * @throws TeamError `not_found` when no living teammate has that name.
 */
export async function shutdownTeammate(team: TeamDriver, o: ResolvedHarnessOptions, name: string): Promise<{ name: string; exit: string }> {
  const m = livingOrRefuse(team, name, `teammate_shutdown: name "${name}"`);
  team.stop(m); // at once, not queued: no close may pass for a crash (L22)
  const exit = await m.proc?.stop({ graceMs: o.stopGraceMs, termGraceMs: o.stopGraceMs });
  await m.closed;
  return { name: m.name, exit: exit ? `${exit.reason}${exit.signal ? ` (${exit.signal})` : ` (code ${exit.code})`}` : "never started" };
}

/** How long the user's interrupt waits for Pi to answer `abort` (it answers once the run ended), in ms. */
export const INTERRUPT_TIMEOUT_MS = 30_000;

/**
 * The user's interrupt from the console (issue 21): Pi's RPC `abort` ends the teammate's current
 * run (a pending model call is abandoned) without ending the process; it goes idle with its
 * context and claims. The run's settle sends no reminder and no leader event (the lifecycle's
 * `user_interrupt`), and nothing wakes the leader. Resolves once Pi answered.
 * @throws TeamError `not_found` for a name that is not a living teammate, `invalid_input` for
 * one that is not working (nothing to interrupt).
 */
export async function interruptTeammate(team: TeamDriver, name: string): Promise<string> {
  const m = livingOrRefuse(team, name, `interrupt: "${name}"`);
  if (m.status !== "working" || !m.proc) throw new TeamError("invalid_input", `@${m.name} is ${m.status}: it has no run to interrupt.`);
  await team.enqueue(m, () => [{ type: "user_interrupt" }]);
  await m.proc.child.send({ type: "abort" }, { timeoutMs: INTERRUPT_TIMEOUT_MS });
  return `@${m.name} interrupted: idle, with its context and claims`;
}

/**
 * The living teammate called `name` that is not already stopping, for an order to it.
 * @throws TeamError `not_found` starting with `subject` (e.g. `compact: "x"`) and listing the living.
 */
export function livingOrRefuse(team: TeamDriver, name: string, subject: string): Member {
  const m = team.living(name);
  if (!m || m.state.phase === "stopping") {
    const living = [...team.members.values()].filter((x) => x.living).map((x) => x.name);
    throw new TeamError("not_found", `${subject} is not a living teammate. Living: ${living.join(", ") || "(none)"}.`);
  }
  return m;
}
