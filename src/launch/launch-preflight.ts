/**
 * The I/O a launch needs before anything is started (issue 10): the user's settings, the
 * launcher's binary on PATH, an ssh host that answers, and a bwrap teammate's private dir.
 */
import { execa } from "execa";
import { rm } from "node:fs/promises";
import which from "which";
import { TeamError } from "../errors.ts";
import type { BwrapSandbox } from "./launch-plan.ts";
import { readLaunchSettings, type LaunchSettings } from "./launch-settings.ts";
import { resolveLauncher, type ResolvedLauncher } from "./launcher.ts";
import { prepareBox } from "./bwrap-box.ts";

/** Inputs of {@link preflightLaunch}. */
export interface LaunchPreflightInput {
  /** The role's `launcher` field; `undefined` is `local`. */
  launcher: string | undefined;
  /** The teammate's name, for messages and the sandbox dir's name. */
  name: string;
  /** Pi's agent dir: `<agentDir>/settings.json` is read (never the project's settings). */
  agentDir: string;
  /** The leader's environment: its PATH finds the binaries; ssh runs with it. */
  env: Readonly<Record<string, string | undefined>>;
  /** Dirs a bwrap teammate must not see; created (0700) if missing, so bwrap can cover them. */
  hidden: readonly string[];
  /** This package's dir: a bwrap box gets copies of its transpile cache entries (transpile-cache.ts). */
  packageDir?: string;
  /** The leader's cwd: a shared-tree bwrap box gets its `.git` and `.pi` read-only (bwrap-box.ts). */
  project?: string;
  /** Budget of the ssh reachability probe in ms. Default 20000 (its ConnectTimeout is 5 s). */
  sshProbeTimeoutMs?: number;
}

/** What the pre-flight found, for `planLaunch`. */
export interface LaunchPreflight {
  launcher: ResolvedLauncher;
  /** `piTeams` of the user's settings; `{}` for `local` (not read). */
  settings: LaunchSettings;
  settingsPath: string | undefined;
  /** Set for `bwrap`: its private dir, to remove with {@link removeLaunchDirs} when done. */
  sandbox?: BwrapSandbox;
}

/** How to install each built-in launcher's binary, for the missing-binary error. */
const INSTALL: Readonly<Record<string, string>> = {
  bwrap: "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap)",
  podman: "install Podman (Debian/Ubuntu: apt-get install podman; Fedora: dnf install podman)",
  docker: "install Docker Engine and its CLI (see Docker's installation guide for your system)",
  ssh: "install the OpenSSH client (Debian/Ubuntu: apt-get install openssh-client; Fedora: dnf install openssh-clients)",
};

/**
 * Checks that the teammate's launcher can start, before any worktree, file or process exists
 * for it. `local` needs nothing (the settings are not even read). Otherwise: reads the user's
 * settings, resolves the launcher, finds its binary on the leader's PATH, probes an ssh host
 * (`ssh -T -o BatchMode=yes -o ConnectTimeout=5 <options> <host> true`), and for `bwrap`
 * creates the hidden dirs and the teammate's private dir.
 * @throws TeamError `invalid_input` (unknown launcher, bad settings, missing binary, missing image),
 *   `io_error` (settings unreadable, ssh host unreachable, private dir not creatable).
 */
export async function preflightLaunch(input: LaunchPreflightInput): Promise<LaunchPreflight> {
  if (input.launcher === undefined || input.launcher === "local") return { launcher: { kind: "local" }, settings: {}, settingsPath: undefined };
  const { path, settings } = await readLaunchSettings(input.agentDir);
  const launcher = resolveLauncher(input.launcher, settings, path);
  const binary = launcher.kind === "custom" ? (launcher.prefix[0] ?? "") : launcher.kind;
  const found = await which(binary, { path: input.env.PATH ?? "", nothrow: true });
  if (found === null) {
    const how = launcher.kind === "custom" ? `install it, or fix piTeams.launchers.${launcher.name}.prefix in ${path}` : INSTALL[binary];
    throw new TeamError("invalid_input", `launcher ${JSON.stringify(input.launcher)} needs ${JSON.stringify(binary)}, which is not on PATH (${input.env.PATH ?? "unset"}); ${how}.`);
  }
  if (launcher.kind === "ssh") await probeSsh(launcher.host, launcher.options, input);
  const sandbox = launcher.kind === "bwrap" ? await prepareBox({
    name: input.name, realAgentDir: input.agentDir, hidden: input.hidden,
    ...(input.project ? { project: input.project } : {}), ...(input.packageDir ? { packageDir: input.packageDir } : {}),
  }) : undefined;
  return { launcher, settings, settingsPath: path, ...(sandbox ? { sandbox } : {}) };
}

/**
 * Removes the dirs a launch made (the bwrap sandbox dir). Never throws; a failure is returned as
 * text for the caller's log.
 */
export async function removeLaunchDirs(dirs: readonly string[]): Promise<string | undefined> {
  const failed: string[] = [];
  for (const dir of dirs) await rm(dir, { recursive: true, force: true, maxRetries: 3 }).catch((e: unknown) => failed.push(`${dir}: ${String(e)}`));
  return failed.length > 0 ? `could not remove ${failed.join("; ")}` : undefined;
}

async function probeSsh(host: string, options: readonly string[], input: LaunchPreflightInput): Promise<void> {
  const args = ["-T", "-o", "BatchMode=yes", "-o", "ConnectTimeout=5", ...options, host, "true"];
  const result = await execa("ssh", args, { env: input.env, extendEnv: true, stdin: "ignore", reject: false, timeout: input.sshProbeTimeoutMs ?? 20_000 });
  if (result.exitCode === 0) return;
  const tail = String(result.stderr ?? "").trim().split("\n").slice(-5).join(" | ");
  const why = result.timedOut ? "timed out" : `exit ${result.exitCode ?? result.signal ?? "?"}`;
  throw new TeamError(
    "io_error",
    `launcher "ssh:${host}" cannot reach ${host}: \`ssh ${args.join(" ")}\` failed (${why}): ${tail || "no output"}. ` +
      "Check the host name, piTeams.ssh.options in your Pi settings, and that a key logs in without a password prompt.",
  );
}
