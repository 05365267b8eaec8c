import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { registerLeader } from "./leader/leader.ts";
import { readIdentity } from "./team/identity.ts";
import { registerWorker } from "./worker/worker.ts";

/**
 * Composition root. Our own environment variables say which side this process is: a teammate
 * (set by teammate_spawn), a one-shot reviewer (tools only, no team), or else the leader.
 * Nothing starts here; each side starts its resources in `session_start` (style practice 1).
 */
export default function extension(pi: ExtensionAPI): void {
  const me = readIdentity(process.env);
  if (me.role === "worker") registerWorker(pi, me);
  else if (me.role === "leader") registerLeader(pi);
}
