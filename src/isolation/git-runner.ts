/**
 * One way to run git for the worktree module: simple-git `raw` with strict exit codes, a bounded
 * silence timeout, and a cleaned environment. Failures become TeamError `io_error` naming the
 * command and dir.
 *
 * Timing: simple-git resolves a command that printed nothing (on stdout or stderr) only 50 ms after
 * it exited (its completion plugin, `deferClose`), against ~10 ms for one that printed. Callers
 * prefer forms that print: no `--quiet`, `rev-parse --verify` without `-q` for refs expected to be
 * missing, `add --verbose`.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { GitError, simpleGit, type SimpleGitOptions } from "simple-git";
import { errorText } from "../error-text.ts";
import { TeamError } from "../errors.ts";
import {  } from "../store/fs-modes.ts";

/** Options shared by every public worktree function. */
export interface GitRunOptions {
  /**
   * Environment of every git child (default `process.env`). Tests pass a HOME without `.gitconfig`,
   * `GIT_CONFIG_GLOBAL=/dev/null` and `GIT_CONFIG_NOSYSTEM=1` so that no user identity exists. The
   * variables that point git at another repository (`GIT_DIR`, `GIT_WORK_TREE`, `GIT_INDEX_FILE`,
   * ...) are always dropped: every command addresses its repository by dir.
   */
  env?: NodeJS.ProcessEnv;
  /** A git child that prints nothing for this long is killed (its command fails). Default 300 000 ms. */
  silenceTimeoutMs?: number;
}

/** Outcome of a git command whose failure is an expected answer (e.g. "no such ref"). */
export type Probe = { ok: true; out: string } | { ok: false; message: string };

/** Git commands run in one dir. Created per call; holds no state beyond its options. */
export interface Git {
  /** The dir every command runs in. */
  readonly dir: string;
  /** Runs `git <args>`; resolves to stdout with trailing whitespace trimmed. @throws TeamError `io_error`. */
  run(args: readonly string[]): Promise<string>;
  /** Runs `git <args>`; a non-zero exit or spawn failure is returned, never thrown. */
  probe(args: readonly string[]): Promise<Probe>;
}

const DEFAULT_SILENCE_MS = 300_000;

/** Variables that would redirect git from the repository of the dir it runs in. */
const REPO_REDIRECTING_VARS = [
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_INDEX_FILE",
  "GIT_COMMON_DIR",
  "GIT_OBJECT_DIRECTORY",
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
  "GIT_NAMESPACE",
  "GIT_PREFIX",
];

/**
 * simple-git refuses to spawn when the environment sets editors, pagers, config paths and the
 * like (it guards against untrusted input). Our arguments are built here from validated names and
 * absolute paths, and the environment is the process's own or the caller's, so these checks only
 * get in the way: a user's ordinary `EDITOR` or `PAGER` would make every command fail.
 */
const TRUSTED: SimpleGitOptions["unsafe"] = {
  allowUnsafeAlias: true,
  allowUnsafeAskPass: true,
  allowUnsafeConfigPaths: true,
  allowUnsafeConfigEnvCount: true,
  allowUnsafeCredentialHelper: true,
  allowUnsafeEditor: true,
  allowUnsafeMergeDriver: true,
  allowUnsafePager: true,
  allowUnsafeSshCommand: true,
  allowUnsafeGitProxy: true,
  allowUnsafeHooksPath: true,
  allowUnsafeDiffExternal: true,
  allowUnsafeDiffTextConv: true,
  allowUnsafeFilter: true,
  allowUnsafeFsMonitor: true,
  allowUnsafeGpgProgram: true,
  allowUnsafeTemplateDir: true,
};

/**
 * A {@link Git} for `dir`. Does no I/O until a command runs. A missing `dir` is reported by the
 * first command (as a failed probe or an `io_error`), not here.
 */
export function gitIn(dir: string, options: GitRunOptions = {}): Git {
  const env: NodeJS.ProcessEnv = { ...(options.env ?? process.env), GIT_OPTIONAL_LOCKS: "0" };
  for (const name of REPO_REDIRECTING_VARS) delete env[name];
  const silence = options.silenceTimeoutMs ?? DEFAULT_SILENCE_MS;
  const exec = async (args: readonly string[]): Promise<string> => {
    // simple-git throws GitConstructError synchronously for a missing baseDir.
    const git = simpleGit({
      baseDir: dir,
      unsafe: TRUSTED,
      timeout: { block: silence },
      // By default simple-git fails a command only when it exits non-zero AND wrote to stderr:
      // `rev-parse --verify --quiet` of a missing ref or `merge-base --is-ancestor` would "succeed".
      errors: (error, result) => {
        if (error || result.exitCode === 0) return error;
        const text = Buffer.concat(result.stdErr).toString("utf8").trim() || Buffer.concat(result.stdOut).toString("utf8").trim();
        return Buffer.from(`${text || "no output"} (exit code ${result.exitCode})`);
      },
    }).env(env);
    return (await git.raw([...args])).trimEnd();
  };
  return {
    dir,
    run: async (args) => {
      try {
        return await exec(args);
      } catch (error) {
        throw gitFailure(dir, args, error);
      }
    },
    probe: async (args) => {
      try {
        return { ok: true, out: await exec(args) };
      } catch (error) {
        return { ok: false, message: gitErrorText(error) };
      }
    },
  };
}

/** Attempts of {@link probeRetrying} and {@link runRetrying}. */
export const GIT_ATTEMPTS = 5;

/**
 * Runs `git <args>` until it succeeds, at most `attempts` times, 40-200 ms apart (jittered). For
 * commands that fail at once while a parallel git in the same repository holds a shared file:
 * writes of `.git/config` (`config.lock`), and commands that list worktrees, which die on the
 * half-written admin dir of a worktree another git is adding ("failed to read
 * .git/worktrees/<x>/commondir", git 2.39). Only for commands that are safe to repeat.
 * @returns the last attempt's outcome.
 */
export async function probeRetrying(git: Git, args: readonly string[], attempts = GIT_ATTEMPTS): Promise<Probe> {
  for (let attempt = 1; ; attempt++) {
    const result = await git.probe(args);
    if (result.ok || attempt >= attempts) return result;
    await backOff(attempt);
  }
}

/** {@link probeRetrying} that throws TeamError `io_error` (of the last attempt) on failure. */
export async function runRetrying(git: Git, args: readonly string[], attempts = GIT_ATTEMPTS): Promise<string> {
  const result = await probeRetrying(git, args, attempts);
  if (result.ok) return result.out;
  throw gitFailure(git.dir, args, new Error(result.message));
}

/** Waits before retry number `attempt + 1`: 40 ms per attempt so far, plus up to 40 ms jitter. */
export function backOff(attempt: number): Promise<void> {
  return sleep(40 * attempt + Math.floor(Math.random() * 40));
}

/** The TeamError `io_error` for a failed git command: command, dir, git's own words. */
export function gitFailure(dir: string, args: readonly string[], error: unknown): TeamError {
  return new TeamError("io_error", `git ${showArgs(args)} failed in ${dir}: ${gitErrorText(error)}`, { cause: error });
}

/** Git's message of a failed command, trimmed, on one line. */
export function gitErrorText(error: unknown): string {
  const text = error instanceof GitError ? error.message : errorText(error);
  return text.trim().replace(/\s*\n\s*/g, " | ");
}

/** The command line for messages; arguments with spaces or newlines are quoted, long ones cut. */
function showArgs(args: readonly string[]): string {
  return args
    .map((arg) => (arg.length > 80 ? `${arg.slice(0, 77)}...` : arg))
    .map((arg) => (/[\s"']/.test(arg) ? JSON.stringify(arg) : arg))
    .join(" ");
}
