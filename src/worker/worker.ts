import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { TaskClaimParams, TaskListParams, TaskSubmitParams } from "../board/inputs.ts";
import { reapMarked } from "../process/reaper.ts";
import { ENV, type Identity } from "../team/identity.ts";
import { SendMessageParams } from "../team/send-message-schema.ts";
import { workerGuidance } from "./guidance.ts";
import { registerWorkerBoardTools } from "./board-tools.ts";
import { registerEditGuards } from "./edit-guards.ts";
import { filesChannel, streamChannel } from "./channel.ts";
import { readSpawnKey } from "./spawn-key.ts";
import { StreamLink } from "./stream-link.ts";
import { registerWorkerTools } from "./tools.ts";
import { warmWhenIdle } from "./warm.ts";

/** After the leader's pipe closes, how long a teammate may finish up before it exits, in ms. */
export const ORPHAN_EXIT_MS = 1500;
/** How long that forced exit waits for the reap of its leftover processes, in ms. */
const ORPHAN_REAP_MS = 1000;

/**
 * The teammate side of the extension: its spawn key (read once from the leader's pipe), its tools, its edit guards (src/worker/edit-guards.ts: all
 * of them in the shared tree, the reduced one in a worktree), its system-prompt section, and the rule that
 * a teammate never outlives its leader (R21): when the leader's end of stdin closes (the leader
 * quit or was killed), Pi shuts down on EOF; if a run keeps it alive, it exits anyway. Nor does
 * what its `bash` started: on the way out it SIGKILLs every other process carrying its spawn id
 * (src/process/reaper.ts). Pi's shutdown ends only the process group of a bash call still
 * running; a command left in the background, or started with `setsid`/`nohup` or double-forked,
 * would survive a leader that died without reaping (the leader reaps too, after every close). Once idle
 * after its start, it has Pi compile its tools' argument validators (src/worker/warm.ts).
 */
export function registerWorker(pi: ExtensionAPI, me: Extract<Identity, { role: "worker" }>): void {
  // Files: sealed with the spawn key, read once from the leader's pipe; only this process holds it
  // (src/mail/seal.ts). Stream: the RPC pipe itself is the identity, so there is no key.
  const channel = me.transport === "stream" ? streamChannel(me, new StreamLink(pi)) : filesChannel(me, readSpawnKey());
  let reaping: Promise<unknown> | undefined;
  const reapOwn = () => (reaping ??= reapMarked([{ key: ENV.spawnId, value: me.spawnId }]).catch(() => undefined));
  pi.on("session_shutdown", async () => {
    channel.close();
    await reapOwn();
  });
  registerWorkerTools(pi, me, channel);
  registerWorkerBoardTools(pi, channel);
  // A worktree teammate (me.worktree set) gets only the scope check: team state, shared project.
  registerEditGuards(pi, me, me.transport === "stream" ? { readRoster: channel.roster } : {});
  pi.on("before_agent_start", (event) => ({
    systemPrompt: `${event.systemPrompt}\n\n${workerGuidance({ name: me.name, ...(me.worktree ? { worktree: me.worktree } : {}) })}`,
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
    process.stdin.once("end", () => {
      setTimeout(() => {
        void Promise.race([reapOwn(), new Promise((r) => setTimeout(r, ORPHAN_REAP_MS))]).then(() => process.exit(0));
      }, ORPHAN_EXIT_MS).unref();
    });
  });
}
