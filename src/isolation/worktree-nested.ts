/**
 * Nested git repositories inside a teammate worktree (R20, L23): a teammate that ran `git init lib`
 * or cloned something into its tree. Their files and commits live only in that dir: the outer
 * capture can record at most a gitlink (a sha) for them, and `git worktree remove --force --force`
 * would delete them. So they are found before anything is staged, kept out of `git add`, and the
 * worktree dir is then left in place (see `captureAs`).
 */
import { lstat } from "node:fs/promises";
import { join } from "node:path";
import { errnoCode } from "../store/fs-modes.ts";
import type { Git } from "./git-runner.ts";

/** The nested repositories of one worktree; paths relative to its top level, without a trailing `/`. */
export interface NestedRepos {
  /** Untracked and not ignored: `git add -A` would stage them as gitlinks, or fail on one without a commit. */
  untracked: string[];
  /**
   * Every nested repository, sorted: the untracked ones, ignored ones (not staged, but deleted
   * with the dir), and tracked gitlinks whose dir holds a `.git` (a repo the teammate committed as
   * a gitlink, or an initialised submodule whose own commits live under the worktree's admin dir).
   */
  all: string[];
}

/**
 * Lists the nested repositories of the worktree whose top level is `git.dir`. Git itself decides
 * what is one: a dir holding a `.git` dir, or a `.git` file pointing at a git dir, is never
 * descended into by `git ls-files --others` and is listed as `path/`; that holds for ignored dirs
 * too when listed file by file.
 *
 * Runs three read-only commands at once: `ls-files -z --others --exclude-standard`, the same with
 * `--ignored` (which lists every ignored file: a large `node_modules` makes it slower, a price paid
 * because ignored content is deleted with the dir), and `ls-files -z --stage` for gitlinks.
 * @throws TeamError `io_error` when git fails (the capture then stops with nothing deleted).
 */
export async function findNestedRepos(git: Git): Promise<NestedRepos> {
  const [untracked, ignored, staged] = await Promise.all([
    git.run(["ls-files", "-z", "--others", "--exclude-standard"]),
    git.run(["ls-files", "-z", "--others", "--ignored", "--exclude-standard"]),
    git.run(["ls-files", "-z", "--stage"]),
  ]);
  const loose = dirEntries(untracked);
  const gitlinks = staged
    .split("\0")
    .filter((entry) => entry.startsWith("160000 "))
    .map((entry) => entry.slice(entry.indexOf("\t") + 1));
  const populated = await Promise.all(gitlinks.map(async (path) => ((await holdsDotGit(join(git.dir, path))) ? [path] : [])));
  const all = [...new Set([...loose, ...dirEntries(ignored), ...populated.flat()])].sort();
  return { untracked: loose, all };
}

/**
 * `git add -A` arguments that leave `untracked` nested repositories out: exclude pathspecs with
 * `literal` magic, so names with `*`, `?` or `[` match only themselves. Ignored paths must not be
 * named (git would warn and exit 1); they are not staged anyway.
 */
export function addArgs(untracked: readonly string[]): string[] {
  const args = ["add", "-A", "--verbose"];
  if (untracked.length === 0) return args;
  return [...args, "--", ".", ...untracked.map((path) => `:(exclude,literal)${path}`)];
}

/** The entries of a `-z` listing that are dirs (`path/`), without the slash. */
function dirEntries(listing: string): string[] {
  return listing
    .split("\0")
    .filter((entry) => entry.endsWith("/"))
    .map((entry) => entry.slice(0, -1));
}

/** Whether `dir/.git` exists; when that cannot be told (EACCES...), true: the dir is then kept. */
async function holdsDotGit(dir: string): Promise<boolean> {
  try {
    await lstat(join(dir, ".git"));
    return true;
  } catch (error) {
    return errnoCode(error) !== "ENOENT" && errnoCode(error) !== "ENOTDIR";
  }
}
