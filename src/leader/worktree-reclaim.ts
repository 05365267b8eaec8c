import { access, readdir } from "node:fs/promises";
import { join } from "node:path";
import { reclaimWorktrees, type WorktreeCapture } from "../isolation/index.ts";

/**
 * Worktrees left by a session whose leader is gone (R20, L23): the leader was killed, so its
 * teammates' work was never committed. Each leader, when it starts, commits that work onto the
 * kept branches and reclaims the directories: its own session's (nothing of this session runs
 * yet) and those of sessions whose runtime dir is gone (a living leader keeps its runtime dir
 * until after its teammates' worktrees were captured, so a missing runtime dir means no leader).
 * Returns what was kept; never rejects (a failure is a note, and the directory stays).
 */
export async function reclaimLeftoverWorktrees(o: {
  agentDir: string;
  ownKey: string;
  /** A worktree of a teammate of this session (spawned before the reclaim ran): never reclaimed here. */
  inUse: (dir: string) => boolean;
  note: (text: string) => void;
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
      const { captures, unclaimed } = await reclaimWorktrees({ worktreesRoot: join(root, key), keep: o.inUse });
      for (const u of unclaimed) o.note(`${u.removed ? "removed" : "left alone"}: ${u.dir}: ${u.reason}`);
      for (const cap of captures) {
        o.note(cap.kept ? `reclaimed a leftover worktree: work kept on ${cap.branch} (${cap.diffCommand})` : `reclaimed a leftover worktree of ${cap.branch} with no work`);
        if (cap.kept) kept.push(cap);
      }
    } catch (error) {
      o.note(`could not reclaim leftover worktrees in ${join(root, key)}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return kept;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(() => true, () => false);
}
