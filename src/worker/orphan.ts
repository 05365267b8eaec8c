import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { reapMarkedSync } from "../reap/index.ts";
import { ENV } from "../mail/identity.ts";

/** After the leader's pipe closes, how long a teammate may finish up before it exits, in ms. */
export const ORPHAN_EXIT_MS = 1500;

/**
 * A teammate never outlives its leader (R21), nor does what its `bash` started (issue 18). When
 * the leader's end of stdin closes (it quit or was killed), Pi shuts down on EOF; if a run keeps
 * it alive, it exits anyway after `ORPHAN_EXIT_MS`. Whichever way the process exits (those, a
 * stop, or a crash such as the EPIPE Pi dies of when it writes to a dead leader; not SIGKILL,
 * after which the leader reaps), its `exit` handler SIGKILLs every other process carrying its
 * spawn id (src/reap/reaper.ts, synchronously: an exit handler cannot wait). Pi's own shutdown
 * ends only the process group of a bash call still running, so a command left in the background,
 * started with `setsid`/`nohup` or double-forked would otherwise survive a leader that died.
 */
export function endWithLeader(pi: ExtensionAPI, spawnId: string): void {
  process.once("exit", () => {
    try {
      reapMarkedSync([{ key: ENV.spawnId, value: spawnId }]);
    } catch {
      // nothing more can be done on the way out
    }
  });
  pi.on("session_start", () => {
    process.stdin.once("end", () => {
      setTimeout(() => process.exit(0), ORPHAN_EXIT_MS).unref();
    });
  });
}
