/**
 * The team most fault cases run: real leader and teammate pis of one role, `worker` (read
 * only), and a leader model that answers the case's command prompts and otherwise only notes.
 */
import { agentFile } from "../../support/leader.ts";
import type { Reply } from "../../support/scripted-model.ts";
import { startTeam, type AgentScript, type Team } from "../../support/team.ts";

/** The fault suite's role: `worker`, with the `read` tool only. */
export const WORKER_AGENTS = { "worker.md": agentFile("worker", "You are a worker.", { tools: "read" }) };

/**
 * Starts a team for a fault case, with automatic compaction off (no compaction turn may change
 * its counts), the peer-pair cap off (W19; it would refuse case 4's 57 messages per pair: the
 * cases measure delivery, tests/e2e/peer-cap.test.ts the cap) and the model-call rate off (a
 * flooded teammate answers its mail as fast as the scripted model does; no leader turn may come of
 * it: tests/e2e/model-call-rate.test.ts tests the rule). The leader's model answers a prompt that is a key of `orders` (e.g. "SETUP") with
 * that order's reply, and a tool result or any other prompt with "Noted."; each teammate named
 * in `teammates` runs its script, any other answers "ok".
 */
export function startWorkerTeam(orders: Record<string, () => Reply>, teammates: Record<string, AgentScript>): Promise<Team> {
  return startTeam({
    agents: WORKER_AGENTS,
    leaderEnv: { PI_TEAMMATE_COMPACT_AT: "0", PI_TEAMMATE_PEER_PAIR_CAP: "0", PI_TEAMMATE_LOOP_CALLS: "0" },
    scripts: {
      leader: (c) => (c.toolResults.length === 0 && Object.hasOwn(orders, c.lastUser) ? orders[c.lastUser]!() : { text: "Noted." }),
      ...teammates,
    },
  });
}
