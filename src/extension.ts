import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { errorText } from "./error-text.ts";
import { ENV, readIdentity } from "./mail/identity.ts";

/**
 * Composition root. Our own environment variables say which side this process is: a teammate
 * (set by teammate_spawn), a one-shot reviewer (tools only, no team), or else the leader.
 * Nothing starts here; each side starts its resources in `session_start` (style practice 1).
 * Each side is imported only when this process is that side: every module a child loads adds
 * to each teammate's spawn time. A teammate never loads the harness or the board host; it loads
 * its worker side as one prebuilt module when the leader found one fresh (src/process/worker-bundle.ts),
 * and never chokidar (bench/leader-pi.ts, docs/benchmarks.md). Pi awaits the factory.
 */
export default async function extension(pi: ExtensionAPI): Promise<void> {
  const me = readIdentity(process.env);
  if (me.role === "worker") {
    const { registerWorker } = await loadWorker(process.env[ENV.workerBundle]);
    registerWorker(pi, me);
  } else if (me.role === "leader") {
    const { registerLeader } = await import("./leader/leader.ts");
    registerLeader(pi);
  }
}

type WorkerModule = typeof import("./worker/worker.ts");

/**
 * The worker side: the bundle at `bundle` (built from these very sources), else the sources. A
 * bundle that fails to load is said on stderr (the teammate's log) and the sources load instead.
 */
async function loadWorker(bundle: string | undefined): Promise<WorkerModule> {
  if (bundle) {
    try {
      return (await import(bundle)) as WorkerModule;
    } catch (error) {
      process.stderr.write(`pi-resident-teams: the worker bundle ${bundle} did not load (${errorText(error)}); loading src/worker instead\n`);
    }
  }
  return import("./worker/worker.ts");
}
