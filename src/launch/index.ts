/**
 * Launchers (issue 10): how a teammate's pi is started: a local child (default), in bubblewrap,
 * in a podman or docker container, over ssh, or under a command prefix from the user's settings.
 */
export { BUILTIN_LAUNCHERS, LAUNCHER_FIELD_ACCEPTED, LAUNCHER_FIELD_PATTERN, LAUNCHER_NAME_PATTERN, launcherRunsHere, launcherTransport, resolveLauncher, type Argv, type ResolvedLauncher } from "./launcher.ts";
export { checkLaunchSettings, LaunchSettingsSchema, readLaunchSettings, type LaunchSettings, type LaunchSettingsFile } from "./launch-settings.ts";
export { filterLaunchEnv, isPassedEnvName, PASSED_ENV_NAMES, PASSED_ENV_PREFIXES, PASSED_ENV_SUFFIXES } from "./launch-env.ts";
export { planLaunch, type BwrapSandbox, type LaunchPlan, type LaunchPlanInput } from "./launch-plan.ts";
export { preflightLaunch, removeLaunchDirs, type LaunchPreflight, type LaunchPreflightInput } from "./launch-preflight.ts";
