import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import type { Identity } from "../team/identity.ts";
import { workerGuidance } from "./guidance.ts";
import { registerWorkerBoardTools } from "./board-tools.ts";
import { registerEditGuards } from "./edit-guards.ts";
import { readSpawnKey } from "./spawn-key.ts";
import { registerWorkerTools } from "./tools.ts";

/** After the leader's pipe closes, how long a teammate may finish up before it exits, in ms. */
export const ORPHAN_EXIT_MS = 1500;

/**
 * The teammate side of the extension: its spawn key (read once from the leader's pipe), its tools, its edit guards (src/worker/edit-guards.ts: all
 * of them in the shared tree, the reduced one in a worktree), its system-prompt section, and the rule that
 * a teammate never outlives its leader (R21): when the leader's end of stdin closes (the leader
 * quit or was killed), Pi shuts down on EOF; if a run keeps it alive, it exits anyway.
 */
export function registerWorker(pi: ExtensionAPI, me: Extract<Identity, { role: "worker" }>): void {
  const key = readSpawnKey(); // from the leader's pipe; only this process holds it (src/mail/seal.ts)
  registerWorkerTools(pi, me, key);
  registerWorkerBoardTools(pi, me, key);
  // A worktree teammate (me.worktree set) gets only the scope check: team state, shared project.
  registerEditGuards(pi, me);
  pi.on("before_agent_start", (event) => ({
    systemPrompt: `${event.systemPrompt}\n\n${workerGuidance({ name: me.name, ...(me.worktree ? { worktree: me.worktree } : {}) })}`,
  }));
  pi.on("session_start", () => {
    process.stdin.once("end", () => {
      setTimeout(() => process.exit(0), ORPHAN_EXIT_MS).unref();
    });
  });
}
