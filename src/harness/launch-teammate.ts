/**
 * A teammate's launcher in the spawn (issue 10): the pre-flight before its worktree is made, and
 * the command line once its spawn plan exists. The rules are src/launch/.
 */
import { TeamError } from "../errors.ts";
import { planLaunch, type LaunchPlan, type LaunchPreflight } from "../launch/index.ts";
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
    return await o.files.preflightLaunch({ launcher: m.agent.launcher, name: m.name, agentDir: o.agentDir, env: { ...process.env, ...o.env }, hidden: hiddenDirs(o), packageDir: o.packageDir, project: o.cwd });
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
    ...(plan.session ? { session: plan.session } : {}),
    ...(plan.notebook ? { notebook: plan.notebook } : {}),
  });
}

/**
 * The spawn error when a launched teammate's pi never answered on its pipe (exited at once, or
 * not ready in time): most likely the launcher's setup, so it names the launcher, the settings
 * file and the log, and does not read as a crash to respawn. A local teammate's error is kept.
 */
export function launchFailure(m: Member, pre: LaunchPreflight | undefined, error: unknown): unknown {
  if (!pre || pre.launcher.kind === "local" || !(error instanceof TeamError)) return error;
  const where = pre.settingsPath ? ` and the piTeams settings in ${pre.settingsPath}` : "";
  return new TeamError(
    error.code,
    `teammate_spawn: ${m.name} (launcher ${JSON.stringify(m.agent.launcher)}) was started, but no pi answered on its pipe: ${error.message} ` +
      `This is most likely the launcher's setup, not a crash: check that node, pi and this package are where it runs them${where}; its output is in ${m.facts.log}.`,
    { cause: error },
  );
}
