import { randomUUID } from "node:crypto";
import { link, readFile, rename, rm, writeFile } from "node:fs/promises";
import { TeamError } from "../errors.ts";
import { errnoCode, pidAlive } from "../store/index.ts";

/** A held session lock; `release` removes it (idempotent, never rejects). */
export interface SessionLock {
  release(): Promise<void>;
}

/**
 * Makes this process the one leader of a session's team: creates `path` exclusively with our
 * pid. A lock left by a dead leader is taken over. Two leaders on one session key (two
 * `--no-session` leaders in one cwd, or one session resumed twice) would otherwise read each
 * other's mailboxes, overwrite each other's board and delete each other's runtime dir.
 * @throws TeamError `locked` naming the other leader's pid and the session dir, when it lives.
 */
export async function acquireSessionLock(path: string, root: string, pid: number = process.pid): Promise<SessionLock> {
  // A complete file linked into place: exclusive like "wx", and a leader racing us never reads it
  // empty (an empty read looked like a dead holder, and both leaders took the lock).
  const temp = `${path}.${pid}.${randomUUID()}.tmp`;
  await writeFile(temp, String(pid), { mode: 0o600 });
  try {
    await link(temp, path);
  } catch (error) {
    if (errnoCode(error) !== "EEXIST") throw error;
    const holder = Number.parseInt(await readFile(path, "utf8").catch(() => ""), 10);
    if (Number.isInteger(holder) && holder > 0 && holder !== pid && pidAlive(holder)) {
      throw new TeamError(
        "locked",
        `Another leader (pid ${holder}) is running this session's team in ${root}. Two leaders on one session would corrupt each other's mail and board, so the team tools are off in this one. Stop the other leader, or use another session (with --no-session, another working directory).`,
      );
    }
    await rename(temp, path); // stale: its leader is gone; replaced whole, never seen empty
  } finally {
    await rm(temp, { force: true });
  }
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      await rm(path, { force: true });
    },
  };
}
