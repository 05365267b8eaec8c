/**
 * Where a teammate's `edit` or `write` may land at all, checked before the resource and
 * stale-write guards. Two rules, for every teammate that has them:
 *
 * - Team state (all teammates): never into the team's runtime dir (roster.json, mailboxes, logs)
 *   or board dir (board.json, claim and submission intents). The leader keeps that
 *   state; a teammate changes it only through the team tools (send_message, task_*). Without this
 *   rule a teammate could rewrite roster.json with its own write tool and clear the holdings the
 *   resource guard reads.
 * - Shared tree (worktree teammates only): never into the shared project (the leader's cwd,
 *   ENV.project) outside the teammate's own worktree. Its worktree is where it works; the shared
 *   checkout belongs to the leader and the shared-tree teammates.
 *
 * Pure rules over absolute paths, no I/O; the wiring (src/worker/edit-guards.ts) resolves the
 * target and each dir to every form that matters (lexical and symlink-resolved). A target is
 * inside a dir when any form of it is at or under any form of the dir.
 */
import { isAbsolute, join, relative, sep } from "node:path";

/** An absolute path in every form the check should consider; the first one is how messages name it. */
export type PathForms = readonly [string, ...string[]];

/** What `checkWriteScope` looks at. */
export interface WriteScopeInput {
  /** The guarded tool. */
  readonly tool: "edit" | "write";
  /** The target as the message names it. */
  readonly display: string;
  /** Every absolute form of the target (the lexical path and the symlink-resolved one). */
  readonly paths: readonly string[];
  /** The team's runtime dir (me.runtimeDir). */
  readonly runtimeDir: PathForms;
  /** The team's board dir (me.boardDir). */
  readonly boardDir: PathForms;
  /** The team notebook inside it (me.notebook, issue 20): every teammate writes there. */
  readonly notebook?: PathForms;
  /** Set for a worktree teammate whose leader named the shared project. */
  readonly worktree?: {
    /** Its own worktree dir (me.worktree). */
    readonly dir: PathForms;
    /** The shared project: the leader's cwd (me.project). */
    readonly project: PathForms;
    /** The teammate's cwd: the worktree's counterpart of the project root, for the hint. */
    readonly cwd: string;
  };
}

/** Why a write was refused by `checkWriteScope`. */
export type ScopeReason = "team_state" | "shared_tree";

/** The scope check's answer. */
export type ScopeVerdict = { ok: true } | { ok: false; reason: ScopeReason; message: string };

/**
 * `path` relative to `dir` ("" for the dir itself, "/"-separated), or undefined when it is
 * outside. Both absolute; string math only.
 */
export function relativeWithin(dir: string, path: string): string | undefined {
  const rel = relative(dir, path);
  if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return rel.split(sep).join("/");
}

/** True when some form of the target is at or under some form of `dir`. */
function inside(paths: readonly string[], dir: PathForms): boolean {
  return paths.some((p) => dir.some((d) => relativeWithin(d, p) !== undefined));
}

/**
 * Decides one `edit`/`write`: blocked (`team_state`) when the target is in the runtime dir or the
 * board dir, except the team notebook in it (every form of the target under the notebook); for a worktree teammate, blocked (`shared_tree`) when some form of the target is in
 * the shared project but not in its own worktree (so a symlink in the worktree that points into
 * the shared tree is caught too). Everything else passes, e.g. /tmp. Never throws.
 */
export function checkWriteScope(input: WriteScopeInput): ScopeVerdict {
  const { tool, display, paths } = input;
  if (inside(paths, input.runtimeDir)) {
    return {
      ok: false,
      reason: "team_state",
      message:
        `${tool} blocked: ${display} is in the team's runtime dir ${input.runtimeDir[0]} (roster, mailboxes, logs), which the leader keeps. ` +
        `Teammates change team state only through the team tools: send_message to reach the leader or a teammate, task_claim and task_submit for board work. ` +
        `Do not work around this with bash or another tool.`,
    };
  }
  // Into the notebook only when every form of the target is: a symlink there into board.json is not.
  const notebook = input.notebook;
  const stateForms = notebook ? paths.filter((p) => !notebook.some((d) => relativeWithin(d, p) !== undefined)) : paths;
  if (inside(stateForms, input.boardDir)) {
    return {
      ok: false,
      reason: "team_state",
      message:
        `${tool} blocked: ${display} is in the team's board dir ${input.boardDir[0]} (the task board and its intents), which the leader keeps. ` +
        `Teammates change the board only through the team tools: task_claim to take a task, task_submit to hand in a result, task_list to look. ` +
        `Do not work around this with bash or another tool.`,
    };
  }
  const wt = input.worktree;
  if (wt === undefined) return { ok: true };
  const intoShared = paths.some((p) => wt.project.some((d) => relativeWithin(d, p) !== undefined) && !wt.dir.some((d) => relativeWithin(d, p) !== undefined));
  if (!intoShared) return { ok: true };
  const rel = paths.map((p) => relativeWithin(wt.project[0], p)).find((r) => r !== undefined);
  const hint = rel !== undefined && rel !== "" ? ` (the same path in your worktree: ${join(wt.cwd, ...rel.split("/"))})` : "";
  return {
    ok: false,
    reason: "shared_tree",
    message:
      `${tool} blocked: ${display} is in the shared project ${wt.project[0]}. You work in your own worktree ${wt.dir[0]}; ` +
      `the shared tree belongs to the leader and the other teammates: write under your worktree${hint}, or report to the leader. ` +
      `Do not work around this with bash or another tool.`,
  };
}
