import { access, readdir } from "node:fs/promises";
import { join } from "node:path";
import { errorText } from "../error-text.ts";
import { reclaimWorktrees, type WorktreeCapture, type WorktreeLocks } from "../isolation/index.ts";
import { captureHasNews, captureNote } from "./worktree-report.ts";

/**
 * Worktrees left by a session whose leader is gone (R20, L23): the leader was killed, so its
 * teammates' work was never committed. Each leader, when it starts, commits that work onto the
 * kept branches and reclaims the directories: its own session's (nothing of this session runs
 * yet) and those of sessions whose runtime dir is gone (a living leader keeps its runtime dir
 * until after its teammates' worktrees were captured, so a missing runtime dir means no leader).
 * Captures run under `locks` (the session's `WorktreeLocks`), so none races a spawn's reclaim or a
 * teammate's exit capture of the same dir. Returns the captures the leader must hear of
 * (`captureHasNews`: work kept anywhere, or a dir left in place); every capture is also a note.
 * Never rejects (a failure is a note, and the directory stays).
 */
export async function reclaimLeftoverWorktrees(o: {
  agentDir: string;
  ownKey: string;
  /** A worktree of a teammate of this session (spawned before the reclaim ran): never reclaimed here. */
  inUse: (dir: string) => boolean;
  note: (text: string) => void;
  locks?: WorktreeLocks;
}): Promise<WorktreeCapture[]> {
  const root = join(o.agentDir, "worktrees");
  let keys: string[];
  try {
    keys = await readdir(root);
  } catch {
    return []; // no worktree was ever made here
  }
  const kept: WorktreeCapture[] = [];
  for (const key of keys) {
    if (key !== o.ownKey && (await exists(join(o.agentDir, "teammate", key)))) continue;
    try {
      const { captures, unclaimed } = await reclaimWorktrees({ worktreesRoot: join(root, key), keep: o.inUse, locks: o.locks });
      for (const u of unclaimed) o.note(`${u.removed ? "removed" : "left alone"}: ${u.dir}: ${u.reason}`);
      for (const cap of captures) {
        o.note(`reclaimed a leftover worktree: ${captureNote(cap)}`);
        if (captureHasNews(cap)) kept.push(cap);
      }
    } catch (error) {
      o.note(`could not reclaim leftover worktrees in ${join(root, key)}: ${errorText(error)}`);
    }
  }
  return kept;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(() => true, () => false);
}
