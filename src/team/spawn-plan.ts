import { ENV } from "../mail/identity.ts";
import { trustFlag } from "../process/trust.ts";

/** A model as `--provider`/`--model` flags name it. */
export interface ModelRef {
  provider: string;
  id: string;
}

/** Everything needed to start one teammate child. */
export interface SpawnPlan {
  /** Arguments after the pi CLI script. */
  args: string[];
  /** Identity variables added to the leader's environment. */
  env: Record<string, string>;
  /** Effective tool grant: role tools, then capability tools. */
  tools: string[];
  /** The model the child is pinned to, or undefined for Pi's own default. */
  model: ModelRef | undefined;
  /** Its session dir and the file it forks, as given (the launch binds them into a bwrap box). */
  session?: { dir: string; fork?: string };
  /** The team notebook, as given (bound read-write into a bwrap box). */
  notebook?: string;
}

/** Inputs of `planSpawn`. */
export interface SpawnPlanInput {
  name: string;
  spawnId: string;
  /** The checked effective grant: role tools, then the capability tools (L5). */
  tools: string[];
  /** The resolved model (R6): `undefined` model means Pi's own default (no flag). */
  model: { model: ModelRef | undefined; thinking: string | undefined };
  /** The leader's trust decision for this project, inherited by the child. */
  trusted: boolean;
  /** Directory of this package, loaded into the child with `-e`. */
  packageDir: string;
  /** The role's extensions (absolute paths, checked to exist), each loaded with `-e` after the package. */
  extensions?: readonly string[];
  runtimeDir: string;
  boardDir: string;
  leaderPid: number;
  /** The teammate's own worktree (R20); it gets the reduced edit guard. */
  worktree?: string;
  /** Absolute path of the shared project (the leader's cwd), passed as ENV.project. */
  project: string;
  /** The fresh worker bundle the child loads instead of the sources (ENV.workerBundle). */
  workerBundle?: string;
  /**
   * Its own session (issue 20): Pi keeps its transcript in `dir` (`--session-dir`), started from a
   * copy of the `fork` session file when given (`--fork`). Without it: `--no-session`.
   */
  session?: { dir: string; fork?: string };
  /** The team notebook, given to a teammate whose pi runs here (ENV.notebook). */
  notebook?: string;
}

/**
 * Builds the child command line (R13, R19): `--mode rpc`, its session (`--session-dir <dir>`, plus
 * `--fork <file>` for a context-carrying successor; `--no-session` without one), `--no-extensions -e
 * <package>`, then `-e <path>` for each of the role's `extensions` in field order, `--tools <grant>` plus the trust flag the leader decided (`-a` / `-na`: a teammate
 * never has more trust than its leader), `--provider/--model` when a model was resolved and
 * `--thinking` when `inherit` carried the leader's level. No model flag means Pi's default.
 */
export function planSpawn(input: SpawnPlanInput): SpawnPlan {
  const { model, thinking } = input.model;
  const args = [
    "--mode", "rpc",
    ...sessionArgs(input.session),
    "--no-extensions",
    "-e", input.packageDir,
    ...(input.extensions ?? []).flatMap((path) => ["-e", path]),
    "--tools", input.tools.join(","),
    "--name", `team:${input.name}`,
    trustFlag(input.trusted),
  ];
  if (model) args.push("--provider", model.provider, "--model", model.id);
  if (thinking) args.push("--thinking", thinking);
  const env: Record<string, string> = {
    [ENV.role]: "worker",
    [ENV.name]: input.name,
    [ENV.spawnId]: input.spawnId,
    [ENV.runtimeDir]: input.runtimeDir,
    [ENV.boardDir]: input.boardDir,
    [ENV.leaderPid]: String(input.leaderPid),
    [ENV.project]: input.project,
  };
  if (input.worktree) env[ENV.worktree] = input.worktree;
  if (input.workerBundle) env[ENV.workerBundle] = input.workerBundle;
  if (input.notebook) env[ENV.notebook] = input.notebook;
  return { args, env, tools: input.tools, model, ...(input.session ? { session: input.session } : {}), ...(input.notebook ? { notebook: input.notebook } : {}) };
}

function sessionArgs(session: SpawnPlanInput["session"]): string[] {
  if (!session) return ["--no-session"];
  return ["--session-dir", session.dir, ...(session.fork ? ["--fork", session.fork] : [])];
}
