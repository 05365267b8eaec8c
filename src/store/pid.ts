import { errnoCode } from "./fs-modes.ts";

/**
 * Whether a process with that pid exists (`kill -0`). EPERM means it exists but belongs to
 * another user, so it counts as alive. A pid that was reused by an unrelated process also counts
 * as alive: callers must treat `true` as "maybe alive" and only act on `false`.
 */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errnoCode(error) === "EPERM";
  }
}
