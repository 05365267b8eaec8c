/**
 * The command line that starts one teammate's pi under its launcher (issue 10). Pure: the I/O
 * (settings, binaries, the bwrap sandbox dir) is src/launch/launch-preflight.ts.
 */
import { join, relative, sep } from "node:path";
import { quote } from "shell-quote";
import { TeamError } from "../errors.ts";
import { ENV, type Transport } from "../mail/identity.ts";
import { filterLaunchEnv } from "./launch-env.ts";
import type { LaunchSettings } from "./launch-settings.ts";
import { launcherTransport, type Argv, type ResolvedLauncher } from "./launcher.ts";

/** The private dir the leader made for a bwrap teammate (`prepareSandbox`). */
export interface BwrapSandbox {
  /** The dir itself, bound read-write; removed after the child closed. */
  dir: string;
  /** Its TMPDIR: `<dir>/tmp`. */
  tmp: string;
  /** Its PI_CODING_AGENT_DIR: `<dir>/agent`, where pi may create its lock dirs. */
  agentDir: string;
  /** The user's real agent dir, whose entries are bound read-only into `agentDir`. */
  realAgentDir: string;
  /** The names in `realAgentDir` at spawn time. */
  agentEntries: readonly string[];
  /**
   * Paths in the project bound back read-only over a shared-tree box's read-write project: its
   * `.git` (hooks and config are code the leader's and the user's git runs outside the box), its
   * `.pi` (role files pick the launcher; extensions), and the agent dir if it lies inside.
   */
  protect: readonly string[];
  /**
   * Dirs hidden behind an empty tmpfs: the parent of every box's private dir (a box must not read
   * a peer box's temp files) and the user's usual socket dirs (a socket connects even on a
   * read-only mount: tmux, D-Bus, an ssh agent, X11).
   */
  hide: readonly string[];
}

/** Inputs of {@link planLaunch}. All paths absolute. */
export interface LaunchPlanInput {
  launcher: ResolvedLauncher;
  /** `piTeams` of the user's settings (its `env` names are passed too). */
  settings: LaunchSettings;
  /** What `planSpawn` made: the arguments after the pi CLI and the identity variables. */
  spawn: { args: readonly string[]; env: Readonly<Record<string, string>> };
  /** The Node binary running the leader (`process.execPath`) and the pi CLI script. */
  nodePath: string;
  piCli: string;
  /** This package, as `planSpawn` passed it with `-e`. */
  packageDir: string;
  /** Where the teammate's pi runs (its worktree's cwd, or the project). */
  cwd: string;
  /** The leader's cwd; bound read-write unless the teammate has a worktree. */
  project: string;
  /** The teammate's own worktree dir, bound read-write instead of the project. */
  worktree?: string;
  /** Dirs a bwrap teammate must not see: the runtime dir, the board dir, the worktrees root. */
  hidden: readonly string[];
  /** The role's extensions, mounted read-only into a container. */
  extensions: readonly string[];
  /** The leader's environment (`local` inherits it; the others get a filtered copy). */
  leaderEnv: Readonly<Record<string, string | undefined>>;
  /** Required for `bwrap`. */
  sandbox?: BwrapSandbox;
  /** The teammate's session dir (bound read-write into a bwrap box) and the file it forks (read-only). */
  session?: { dir: string; fork?: string };
  /** The team notebook, bound read-write into a bwrap box (it lies in the hidden board dir). */
  notebook?: string;
}

/** How to start the teammate: `execa(file, args, { env, extendEnv })`. */
export interface LaunchPlan {
  file: string;
  args: string[];
  /** Merged over `process.env` when `extendEnv`; a key set to `undefined` is removed. */
  env: Record<string, string | undefined>;
  extendEnv: boolean;
  transport: Transport;
  /** Dirs to remove once the child has closed (the bwrap sandbox dir). */
  removeAfterClose: string[];
}

/** Variables whose host values mean nothing on the far side of ssh, a container or a custom prefix. */
const HOST_ONLY_ENV = ["PATH", "HOME", "USER", "TMPDIR"];

/**
 * Plans the launch of one teammate. `local` is today's child: `nodePath piCli ...args` with the
 * leader's environment plus the identity. Every other launcher gets transport `stream`, a
 * filtered environment (src/launch/launch-env.ts) and no spawn key. Pure.
 * @throws TeamError `invalid_input` for `bwrap` without `sandbox` (a caller bug), and for a
 *   container mount path containing `:` (the engines' `-v` cannot carry it).
 */
export function planLaunch(input: LaunchPlanInput): LaunchPlan {
  const { launcher } = input;
  const transport = launcherTransport(launcher);
  if (launcher.kind === "local") {
    return { file: input.nodePath, args: [input.piCli, ...input.spawn.args], env: { ...input.leaderEnv, ...input.spawn.env }, extendEnv: true, transport, removeAfterClose: [] };
  }
  const env: Record<string, string> = { ...filterLaunchEnv(input.leaderEnv, input.settings.env), ...input.spawn.env, [ENV.transport]: "stream" };
  if (launcher.kind === "bwrap") return planBwrap(input, env);
  const overridden = launcher.kind !== "podman" && launcher.kind !== "docker" && launcher.pi !== undefined;
  if (overridden || launcher.package !== undefined) delete env[ENV.workerBundle]; // its path is this machine's
  for (const name of HOST_ONLY_ENV) delete env[name];
  const args = launcher.package === undefined ? [...input.spawn.args] : withPackage(input.spawn.args, input.packageDir, launcher.package);
  const pi: Argv = launcher.kind === "podman" || launcher.kind === "docker" ? launcher.pi : (launcher.pi ?? [input.nodePath, input.piCli]);
  const command = [...pi, ...args];
  const assignments = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  if (launcher.kind === "ssh") {
    // One remote command, quoted for the remote shell. The remote pi exits on stdin EOF, which
    // it gets when this ssh closes (stopped, or killed with SIGTERM / SIGKILL).
    const remote = `cd ${quote([input.cwd])} && exec env ${quote([...assignments, ...command])}`;
    return { file: "ssh", args: ["-T", ...launcher.options, launcher.host, remote], env: {}, extendEnv: true, transport, removeAfterClose: [] };
  }
  if (launcher.kind === "custom") {
    const [file = "", ...rest] = launcher.prefix;
    return { file, args: [...rest, "env", ...assignments, ...command], env: {}, extendEnv: true, transport, removeAfterClose: [] };
  }
  delete env.PI_CODING_AGENT_DIR; // the image's own agent dir, not a host path
  return planEngine(input, launcher, env, command);
}

function planBwrap(input: LaunchPlanInput, env: Record<string, string>): LaunchPlan {
  const box = input.sandbox;
  if (!box) throw new TeamError("invalid_input", "planLaunch: launcher bwrap needs the sandbox dir made by prepareSandbox");
  env.TMPDIR = box.tmp;
  env.PI_CODING_AGENT_DIR = box.agentDir;
  const rw = input.worktree ?? input.project;
  const hidden = [...new Set(input.hidden)].sort();
  const inside = hidden.filter((h) => h !== rw && contains(rw, h));
  const args = [
    "--die-with-parent", "--new-session", "--unshare-pid", "--unshare-ipc",
    // As root bwrap keeps every capability unless told: with CAP_SYS_ADMIN the box could unmount
    // the tmpfs that hides the team's state and socket dirs, or remount a read-only bind writable.
    "--cap-drop", "ALL",
    "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
    // The team's state goes first, so a worktree inside the worktrees root is bound back after it.
    ...hidden.filter((h) => !inside.includes(h)).flatMap((h) => ["--tmpfs", h]),
    "--bind", rw, rw,
    ...(rw === input.project ? box.protect.flatMap((p) => ["--ro-bind", p, p]) : []),
    // After the protected paths: one of them (the agent dir, in a project that holds it) may
    // contain the team's state, which a read-only bind would show again.
    ...inside.flatMap((h) => ["--tmpfs", h]),
    ...box.hide.flatMap((h) => ["--tmpfs", h]),
    "--bind", box.dir, box.dir,
    // Its own session dir inside the hidden board dir, and the predecessor's file it forks.
    ...(input.session ? ["--bind", input.session.dir, input.session.dir] : []),
    ...(input.session?.fork ? ["--ro-bind", input.session.fork, input.session.fork] : []),
    ...(input.notebook ? ["--bind", input.notebook, input.notebook] : []),
    // Pi takes lock dirs next to trust.json, settings.json and auth.json (`<file>.lock`), and
    // writes models-store.json and an empty auth.json when missing, all in its agent dir at start.
    // So its agent dir is the private `box.agentDir`, writable, with each entry of the user's agent
    // dir bound read-only into it: it reads the user's models, settings and credentials but can
    // change none of them. The team's state (teammate/, tasks/, worktrees/) is left out.
    ...box.agentEntries
      .filter((name) => !hidden.some((h) => contains(join(box.realAgentDir, name), h)))
      .flatMap((name) => ["--ro-bind", join(box.realAgentDir, name), join(box.agentDir, name)]),
    "--chdir", input.cwd,
    "--", input.nodePath, input.piCli, ...input.spawn.args,
  ];
  // The environment goes through bwrap's own (extendEnv false: only `env`), not `--setenv`, so no
  // credential appears on a command line that `ps` shows every user.
  return { file: "bwrap", args, env, extendEnv: false, transport: "stream", removeAfterClose: [box.dir] };
}

function planEngine(input: LaunchPlanInput, launcher: Extract<ResolvedLauncher, { kind: "podman" | "docker" }>, env: Record<string, string>, command: string[]): LaunchPlan {
  const rw = input.worktree ?? input.project;
  const ro = [...(launcher.package === undefined ? [input.packageDir] : []), ...input.extensions];
  for (const path of [rw, ...ro]) {
    if (path.includes(":")) throw new TeamError("invalid_input", `launcher ${launcher.kind}: the path ${JSON.stringify(path)} contains ":", which ${launcher.kind} -v cannot mount; move it or use another launcher.`);
  }
  const image = launcher.rootfs !== undefined ? ["--rootfs", launcher.rootfs] : [launcher.image ?? ""];
  const args = [
    "run", "-i", "--rm", "--init", "--network", "host",
    "-v", `${rw}:${rw}`,
    ...ro.flatMap((path) => ["-v", `${path}:${path}:ro`]),
    "-w", input.cwd,
    // `--env NAME` takes the value from the engine client's environment: none is on its command line.
    ...Object.keys(env).flatMap((name) => ["--env", name]),
    ...image,
    ...command,
  ];
  return { file: launcher.kind, args, env, extendEnv: true, transport: "stream", removeAfterClose: [] };
}

/** `args` with the value of `-e <packageDir>` replaced by `replacement`. */
function withPackage(args: readonly string[], packageDir: string, replacement: string): string[] {
  const out = [...args];
  const at = out.findIndex((a, i) => a === packageDir && out[i - 1] === "-e");
  if (at >= 0) out[at] = replacement;
  return out;
}

/** True when `inner` is `outer` or below it. */
function contains(outer: string, inner: string): boolean {
  const rel = relative(outer, inner);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !rel.startsWith(sep));
}
