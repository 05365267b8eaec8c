/**
 * Helpers for the worktree end-to-end tests: git in the project repo, a teammate script that
 * answers its model calls in order, and the leader's harness events and spawn results.
 */
import { execFileSync } from "node:child_process";
import { expect } from "vitest";
import type { Reply, ReplyToolCall } from "./scripted-model.ts";
import type { AgentScript, Team } from "./team.ts";

/** Git config for the team's processes: no global or system config, so no user identity either. */
export const NO_GIT_IDENTITY = { GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" };

/** The fixed identity worktree captures commit with (src/isolation/worktree-naming.ts). */
export const CAPTURE_AUTHOR = "pi-resident-teams\nteammates@pi-resident-teams.invalid";

/** Runs `git -C <dir> ...args` and returns its stdout, trimmed. @throws when git fails. */
export function git(dir: string, ...args: string[]): string {
  return execFileSync("git", ["-C", dir, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}

/** True when `refs/heads/<branch>` exists in the repo at `dir`. */
export function branchExists(dir: string, branch: string): boolean {
  try {
    git(dir, "rev-parse", "--verify", "--quiet", `refs/heads/${branch}`);
    return true;
  } catch {
    return false;
  }
}

/**
 * A teammate that gives `replies[n]` to its n-th model call (n = assistant messages so far),
 * and "done" to any call after them.
 */
export function steps(...replies: Reply[]): AgentScript {
  return (c) => replies[c.messages.filter((m) => m.role === "assistant").length] ?? { text: "done" };
}

export const readCall = (path: string): ReplyToolCall => ({ name: "read", arguments: { path } });
export const writeCall = (path: string, content: string): ReplyToolCall => ({ name: "write", arguments: { path, content } });
export const shutdownCall = (name: string): ReplyToolCall => ({ name: "teammate_shutdown", arguments: { name } });

/** The leader's `<harness-event>` messages of `type` (about `teammate`, when given). */
export function harnessEvents(t: Pick<Team, "leader">, type: string, teammate?: string): string[] {
  const head = `<harness-event type="${type}"${teammate === undefined ? "" : ` teammate="${teammate}"`}`;
  return t.leader.customMessages("harness-event").map((m) => m.content).filter((c) => c.includes(head));
}

/** What a successful `teammate_spawn` of a worktree role returned. */
export interface WorktreeSpawn {
  name: string;
  spawnId: string;
  pid: number;
  worktree: { dir: string; branch: string; base: string };
}

/** The latest successful spawn of `name`, with its worktree. Fails the test when there is none. */
export function worktreeSpawn(t: Team, name: string): WorktreeSpawn {
  const end = t.toolEnds("teammate_spawn").filter((e) => !e.isError && e.details.name === name).at(-1);
  expect(end, `a successful teammate_spawn of ${name}`).toBeDefined();
  const d = end!.details as unknown as WorktreeSpawn;
  expect(d.worktree, `the worktree of ${name} in its spawn result`).toMatchObject({ dir: expect.any(String), branch: expect.any(String), base: expect.any(String) });
  return d;
}
