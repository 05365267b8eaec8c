/**
 * File-system helpers of the edit guards (src/worker/edit-guards.ts): where a tool path lands
 * (lexically, relative to the project, and with symlinks followed), a file's sha256 and its hard
 * links. Each never throws.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readlink, realpath, stat } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { errorText } from "../error-text.ts";
import { projectRelative, resolveToolPath, type DiskState, type PathForms } from "../guard/index.ts";
import { errnoCode } from "../store/index.ts";

const MAX_LINK_HOPS = 40;

/** Where a tool path lands: its absolute forms, its project-relative forms, and how to name it. */
export interface Target {
  /** The path as Pi's tool resolves it, before symlinks. */
  readonly abs: string;
  /** Symlinks resolved as far as the file system allows; the key of the version map. */
  readonly real: string;
  /** Project-relative forms ("/"-separated) of the lexical and the resolved path; empty when outside. */
  readonly rels: readonly string[];
  /** Project-relative when inside the project, else absolute. */
  readonly display: string;
}

/** Resolves a tool path like Pi's tools against the project root `cwd`, then follows symlinks. */
export async function locate(path: string, cwd: string, home: string): Promise<Target> {
  const root = resolveToolPath(".", cwd, home);
  const abs = resolveToolPath(path, cwd, home);
  const [rootReal, real] = await Promise.all([canonical(root), canonical(abs)]);
  const lexical = projectRelative(root, abs);
  const forms = [lexical, projectRelative(rootReal, real), projectRelative(rootReal, abs)];
  const rels = [...new Set(forms.filter((f): f is string => f !== undefined))];
  return { abs, real, rels, display: lexical ?? rels[0] ?? abs };
}

/**
 * `abs` with symlinks resolved: the realpath of its longest existing prefix plus the rest, and a
 * dangling symlink followed by hand, so neither a link nor a not-yet-existing file lets a write
 * land somewhere the check did not look. Falls back to `abs` on other errors. Never throws.
 */
export async function canonical(abs: string, hops = 0): Promise<string> {
  const rest: string[] = [];
  let head = abs;
  for (;;) {
    try {
      const real = await realpath(head);
      return join(real, ...rest.reverse());
    } catch (error) {
      const code = errnoCode(error);
      if (code !== "ENOENT" && code !== "ENOTDIR") return abs;
      if (code === "ENOENT" && hops < MAX_LINK_HOPS) {
        const link = await readlink(head).catch(() => undefined);
        if (link !== undefined) return canonical(join(resolve(dirname(head), link), ...rest.reverse()), hops + 1);
      }
      const parent = dirname(head);
      if (parent === head) return abs;
      rest.push(basename(head));
      head = parent;
    }
  }
}

/** The sha256 of the file at `path` (streamed), `absent` when there is none, else `unreadable`. Never throws. */
export async function diskState(path: string): Promise<DiskState> {
  try {
    const hash = createHash("sha256");
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
    return { kind: "present", hash: hash.digest("hex") };
  } catch (error) {
    const code = errnoCode(error);
    if (code === "ENOENT" || code === "ENOTDIR") return { kind: "absent" };
    return { kind: "unreadable", message: errorText(error) };
  }
}

/**
 * The hard-link count (st_nlink) of the regular file at `path`, symlinks followed; undefined when
 * there is none or it cannot be stat'ed (the tool then fails on its own). Never throws.
 */
export async function linkCount(path: string): Promise<number | undefined> {
  const st = await stat(path).catch(() => undefined);
  return st?.isFile() ? st.nlink : undefined;
}

/** A directory as given (made absolute) and symlink-resolved: the forms a scope check compares. */
export async function dirForms(dir: string, home: string): Promise<PathForms> {
  const abs = resolveToolPath(dir, process.cwd(), home);
  const real = await canonical(abs);
  return real === abs ? [abs] : [abs, real];
}

/**
 * The dirs of Pi's configuration check (src/guard/pi-config.ts) in their forms: the shared project
 * (`me.project`; for a shared-tree teammate of an older leader that did not set it, its `cwd`),
 * the own worktree, the agent dir, and the user's skills dir (`~/.agents`).
 */
export async function piConfigDirs(
  me: { readonly project?: string | undefined; readonly worktree?: string | undefined },
  cwd: string,
  agentDir: string,
  home: string,
): Promise<{ project?: PathForms; worktree?: PathForms; agentDir: PathForms; userAgents: PathForms }> {
  const project = me.project ?? (me.worktree ? undefined : cwd);
  return {
    ...(project === undefined ? {} : { project: await dirForms(project, home) }),
    ...(me.worktree === undefined ? {} : { worktree: await dirForms(me.worktree, home) }),
    agentDir: await dirForms(agentDir, home),
    userAgents: await dirForms(join(home, ".agents"), home),
  };
}
