/**
 * A teammate's launcher in the spawn (issue 10): the pre-flight before its worktree is made, and
 * the command line once its spawn plan exists. The rules are src/launch/.
 */
import { TeamError } from "../errors.ts";
import { planLaunch, preflightLaunch, type LaunchPlan, type LaunchPreflight } from "../launch/index.ts";
import type { Member } from "../team/member.ts";
import type { SpawnPlan } from "../team/spawn-plan.ts";
import type { ResolvedHarnessOptions } from "./harness-types.ts";

/** The team's state a sandboxed teammate must not see: runtime dir, board dir, worktrees root. */
function hiddenDirs(o: ResolvedHarnessOptions): string[] {
  return [o.layout.root, o.boardDir, o.worktreesRoot];
}

/**
 * Checks `m`'s launcher (settings, binary, ssh host) and makes a bwrap teammate's private dir.
 * Run after `m` is registered and before its worktree is made.
 * @throws TeamError as `preflightLaunch`, with `teammate_spawn:` and the role in front.
 */
export async function preflightTeammate(o: ResolvedHarnessOptions, m: Member): Promise<LaunchPreflight> {
  try {
    return await preflightLaunch({ launcher: m.agent.launcher, name: m.name, agentDir: o.agentDir, env: { ...process.env, ...o.env }, hidden: hiddenDirs(o), packageDir: o.packageDir });
  } catch (error: unknown) {
    if (!(error instanceof TeamError)) throw error;
    throw new TeamError(error.code, `teammate_spawn: agent ${JSON.stringify(m.agent.name)} (${m.agent.source}): ${error.message}`, { cause: error });
  }
}

/** The command that starts `m`'s pi under its launcher, from its spawn plan. Pure. */
export function teammateLaunch(o: ResolvedHarnessOptions, m: Member, pre: LaunchPreflight, plan: SpawnPlan, extensions: readonly string[]): LaunchPlan {
  return planLaunch({
    launcher: pre.launcher,
    settings: pre.settings,
    spawn: plan,
    nodePath: process.execPath,
    piCli: o.piCli,
    packageDir: o.packageDir,
    cwd: m.cwd(o.cwd),
    project: o.cwd,
    ...(m.worktree ? { worktree: m.worktree.dir } : {}),
    hidden: hiddenDirs(o),
    extensions,
    leaderEnv: pre.launcher.kind === "local" ? o.env : { ...process.env, ...o.env },
    ...(pre.sandbox ? { sandbox: pre.sandbox } : {}),
  });
}
