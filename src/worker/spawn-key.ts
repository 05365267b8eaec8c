import { closeSync, readFileSync } from "node:fs";
import { errorText } from "../error-text.ts";
import { SPAWN_KEY_BYTES } from "../mail/seal.ts";

/** The fd on which the leader's spawner hands a teammate its spawn key (src/process/spawner.ts). */
export const SPAWN_KEY_FD = 3;

/**
 * Reads this teammate's spawn key from the pipe on `fd` (hex plus LF, then EOF) and closes the
 * fd, so the key lives only in this process's memory and no later child (a `bash` tool call)
 * inherits the pipe. Called once, when the worker side registers.
 * @throws Error naming the fd and what was found, when the pipe is missing or holds no key (the
 *   process was not started by teammate_spawn): a teammate without its key could only write
 *   records the leader refuses.
 */
export function readSpawnKey(fd: number = SPAWN_KEY_FD): Buffer {
  let text: string;
  try {
    text = readFileSync(fd, "utf8");
  } catch (error) {
    throw new Error(`no spawn key on fd ${fd} (${errorText(error)}); a teammate gets it from teammate_spawn`);
  } finally {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
  }
  const hex = text.trim();
  if (!new RegExp(`^[0-9a-f]{${SPAWN_KEY_BYTES * 2}}$`).test(hex)) {
    throw new Error(`fd ${fd} held ${text.length} characters, not a spawn key (${SPAWN_KEY_BYTES * 2} hex digits); a teammate gets it from teammate_spawn`);
  }
  return Buffer.from(hex, "hex");
}
