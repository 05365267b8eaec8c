/**
 * Bringing back the team a resumed or reloaded session had living when it ended (issue 20): each
 * teammate of the session's last team record is spawned again under its name and role, idle, from
 * a copy of its own session file (its context), a worktree teammate on its kept branch. An idle
 * teammate makes no model call, so a restored team costs nothing until mail or a notice wakes it.
 * A teammate that cannot come back (its role file gone, its launcher unavailable) is named with
 * the reason; none is dropped silently.
 */
import { basename, dirname, join } from "node:path";
import { errorText } from "../error-text.ts";
import type { SpawnRequest, SpawnResult } from "../harness/index.ts";
import { harnessEventText } from "../team/prompts.ts";
import type { RecordedTeammate, TeamRecord } from "./team-record.ts";

/** Custom type of the leader's next-turn message naming who came back (also `details.type`). */
export const TEAMMATES_RESTORED_EVENT = "teammates_restored";

/** What one restore did. */
export interface RestoreOutcome {
  back: SpawnResult[];
  failed: Array<{ name: string; reason: string }>;
}

/** What `restoreTeam` needs. */
export interface RestoreDeps {
  /** The harness's spawn (refusals throw, as for teammate_spawn). */
  spawn(req: SpawnRequest): Promise<SpawnResult>;
  /** Whether `branch` is a local branch of the project. */
  branchExists(branch: string): Promise<boolean>;
  /** The board dir: a recorded session dir must be its `sessions/<name>-…`. */
  boardDir: string;
}

/**
 * `PI_TEAMMATE_RESTORE`: `off` (also `0`, `false`, `no`) turns restoring off; anything else, or
 * unset, leaves it on.
 */
export function restoreEnabled(env: NodeJS.ProcessEnv): boolean {
  const v = env.PI_TEAMMATE_RESTORE?.trim().toLowerCase();
  return !(v === "off" || v === "0" || v === "false" || v === "no");
}

/** Spawns every teammate of `record` again, in parallel. Never rejects. */
export async function restoreTeam(record: TeamRecord, d: RestoreDeps): Promise<RestoreOutcome> {
  const settled = await Promise.allSettled(record.teammates.map((t) => restoreOne(t, d)));
  const out: RestoreOutcome = { back: [], failed: [] };
  settled.forEach((s, i) => {
    if (s.status === "fulfilled") out.back.push(s.value);
    else out.failed.push({ name: record.teammates[i]!.name, reason: errorText(s.reason) });
  });
  return out;
}

async function restoreOne(t: RecordedTeammate, d: RestoreDeps): Promise<SpawnResult> {
  // The record is the leader's, but its session file is the user's: only a dir where this team
  // keeps that teammate's sessions is used.
  const own = new RegExp(`^${t.name.replace(/[^A-Za-z0-9_]/g, "\\$&")}-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`);
  const session = t.session && dirname(t.session) === join(d.boardDir, "sessions") && own.test(basename(t.session)) ? t.session : undefined;
  const branch = t.worktree && (await d.branchExists(t.worktree.branch)) ? { name: t.worktree.branch, base: t.worktree.base } : undefined;
  return d.spawn({ name: t.name, agent: t.agent, restore: { ...(session ? { session } : {}), ...(branch ? { branch } : {}), ...(t.boxed ? { boxed: true } : {}) } });
}

/** One line per teammate, e.g. "@ann (agent worker): its context is back; on branch pi-team/ann-1a2b3c4d". Pure. */
function backLine(r: SpawnResult): string {
  const context = r.restored === "context" ? "its context is back" : "it starts fresh (no session file of it to start from)";
  return `@${r.name} (agent ${r.agent}): ${context}${r.worktree ? `; its worktree is on branch ${r.worktree.branch}` : ""}`;
}

/**
 * The leader model's one message after a restore (a `<harness-event>`, delivered with its next
 * turn), or undefined when the record named nobody. `why` is how the session came back. Pure.
 */
export function restoredLeaderText(outcome: RestoreOutcome, why: string): string | undefined {
  const { back, failed } = outcome;
  if (back.length === 0 && failed.length === 0) return undefined;
  const lines = [`${why}, so the team that was living when the session ended was started again.`];
  if (back.length > 0) {
    lines.push("Back, idle until a message or a board notice wakes them (an idle teammate costs nothing):", ...back.map((r) => `- ${backLine(r)}`));
    lines.push("Tasks they held went back to the board when the session ended. Send a message to continue an assignment.");
  }
  if (failed.length > 0) lines.push("Could not be restored:", ...failed.map((f) => `- @${f.name}: ${f.reason}`));
  return harnessEventText({ type: TEAMMATES_RESTORED_EVENT, teammate: [...back.map((r) => r.name), ...failed.map((f) => f.name)].join(","), body: lines.join("\n") });
}

/** The user's notification after a restore, or undefined when the record named nobody. Pure. */
export function restoredUserText(outcome: RestoreOutcome): string | undefined {
  const { back, failed } = outcome;
  if (back.length === 0 && failed.length === 0) return undefined;
  const parts = [];
  if (back.length > 0) parts.push(`restored ${back.map((r) => `@${r.name}`).join(", ")} (idle, with their context)`);
  if (failed.length > 0) parts.push(`could not restore ${failed.map((f) => `@${f.name} (${f.reason})`).join("; ")}`);
  return `pi-resident-teams: ${parts.join("; ")}`;
}
