import { execFile } from "node:child_process";
import { access, mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { useTempDirs } from "../store/tmp.ts";

const run = promisify(execFile);

/** A git environment without any user identity: empty HOME, no global or system config. */
export function noIdentityEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };
  for (const name of Object.keys(env)) {
    if (/^(GIT_(AUTHOR|COMMITTER)_|EMAIL$)/.test(name)) delete env[name];
  }
  return env;
}

/** A scratch area per test: a HOME without identity, a root for worktrees, helpers to make repos. */
export interface GitFixture {
  env: NodeJS.ProcessEnv;
  tmp: () => Promise<string>;
  /** `<tmp>/worktrees/<session>`, not created. */
  worktreesRoot: string;
  /** Runs git in `cwd` under `env`; resolves to trimmed stdout; rejects on non-zero exit. */
  git: (cwd: string, ...args: string[]) => Promise<string>;
  /** Git with a test identity, for commits the test itself makes (the teammate's own, the initial one). */
  gitAs: (cwd: string, ...args: string[]) => Promise<string>;
  /** A new repo with one commit of `files` (default `README.md` and `.gitignore` ignoring `*.log`). */
  repo: (files?: Record<string, string>) => Promise<string>;
}

/** Call at module level of a test file: per-test temp dirs, removed after each test. */
export function useGitFixture(): () => Promise<GitFixture> {
  const tmp = useTempDirs();
  return async () => {
    const home = await tmp();
    const env = noIdentityEnv(home);
    const git = async (cwd: string, ...args: string[]): Promise<string> =>
      (await run("git", args, { cwd, env, encoding: "utf8" })).stdout.trim();
    const gitAs = (cwd: string, ...args: string[]): Promise<string> =>
      git(cwd, "-c", "user.name=Test Person", "-c", "user.email=test@example.invalid", ...args);
    const repo = async (files: Record<string, string> = { "README.md": "hello\n", ".gitignore": "*.log\n" }) => {
      const dir = await tmp();
      await git(dir, "init", "-q", "-b", "main");
      await writeFiles(dir, files);
      await git(dir, "add", "-A");
      await gitAs(dir, "commit", "-q", "-m", "initial");
      return dir;
    };
    return { env, tmp, worktreesRoot: join(home, "worktrees", "session-1"), git, gitAs, repo };
  };
}

/** Writes `files` (relative path → content) under `dir`, creating parent dirs. */
export async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
}

/** A spawn id like the leader's (a UUID), with a recognisable first 8 characters. */
export function spawnIdOf(first8: string): string {
  return `${first8}-1111-4222-8333-444455556666`;
}

/** Whether `path` exists. */
export async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** Local branch names of `repo`, sorted as git lists them. */
export async function branchesOf(f: GitFixture, repo: string): Promise<string[]> {
  const out = await f.git(repo, "branch", "--list", "--format=%(refname:short)");
  return out.split("\n").filter((b) => b !== "");
}
