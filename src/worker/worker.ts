import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { TaskClaimParams, TaskListParams, TaskSubmitParams } from "../board/inputs.ts";
import type { Identity } from "../mail/identity.ts";
import { SendMessageParams } from "../team/send-message-schema.ts";
import { workerGuidance } from "./guidance.ts";
import { registerWorkerBoardTools } from "./board-tools.ts";
import { registerEditGuards } from "./edit-guards.ts";
import { filesChannel, streamChannel } from "./channel.ts";
import { endWithLeader } from "./orphan.ts";
import { readSpawnKey } from "./spawn-key.ts";
import { StreamLink } from "./stream-link.ts";
import { registerWorkerTools } from "./tools.ts";
import { warmWhenIdle } from "./warm.ts";

/**
 * The teammate side of the extension: its spawn key (read once from the leader's pipe), its tools, its edit guards (src/worker/edit-guards.ts: all
 * of them in the shared tree, the reduced one in a worktree), its system-prompt section, and the rule that
 * a teammate never outlives its leader, nor does what its bash started (src/worker/orphan.ts). Once idle
 * after its start, it has Pi compile its tools' argument validators (src/worker/warm.ts).
 */
export function registerWorker(pi: ExtensionAPI, me: Extract<Identity, { role: "worker" }>): void {
  // Files: sealed with the spawn key, read once from the leader's pipe; only this process holds it
  // (src/mail/seal.ts). Stream: the RPC pipe itself is the identity, so there is no key. Either
  // way the leader answers on this process's stdin, which only it writes.
  const link = new StreamLink(pi);
  const channel = me.transport === "stream" ? streamChannel(me, link) : filesChannel(me, readSpawnKey(), link);
  endWithLeader(pi, me.spawnId);
  registerWorkerTools(pi, me, channel);
  registerWorkerBoardTools(pi, channel);
  // A worktree teammate (me.worktree set) gets the scope check (team state, shared project), and the stale-write guard in the notebook only.
  registerEditGuards(pi, me, me.transport === "stream" ? { readRoster: channel.roster } : {});
  pi.on("before_agent_start", (event) => ({
    systemPrompt: `${event.systemPrompt}\n\n${workerGuidance({ name: me.name, ...(me.worktree ? { worktree: me.worktree } : {}), ...(me.notebook ? { notebook: me.notebook } : {}) })}`,
  }));
  let session: ExtensionContext | undefined;
  const warm = warmWhenIdle([
    { name: "send_message", parameters: SendMessageParams },
    { name: "task_list", parameters: TaskListParams },
    { name: "task_claim", parameters: TaskClaimParams },
    { name: "task_submit", parameters: TaskSubmitParams },
  ], () => session);
  pi.on("agent_settled", (_event, ctx) => {
    session = ctx;
    warm();
  });
  pi.on("session_start", (_event, ctx) => {
    session = ctx;
    warm();
  });
}
