import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { readIdentity } from "./team/identity.ts";

/**
 * Composition root. Our own environment variables say which side this process is: a teammate
 * (set by teammate_spawn), a one-shot reviewer (tools only, no team), or else the leader.
 * Nothing starts here; each side starts its resources in `session_start` (style practice 1).
 * Each side is imported only when this process is that side: every module a child loads adds
 * to each teammate's spawn time, and a teammate never needs the harness, the board or chokidar
 * (bench/route-latency.ts, docs/benchmarks.md "Spawn to ready"). Pi awaits the factory.
 */
export default async function extension(pi: ExtensionAPI): Promise<void> {
  const me = readIdentity(process.env);
  if (me.role === "worker") {
    const { registerWorker } = await import("./worker/worker.ts");
    registerWorker(pi, me);
  } else if (me.role === "leader") {
    const { registerLeader } = await import("./leader/leader.ts");
    registerLeader(pi);
  }
}
