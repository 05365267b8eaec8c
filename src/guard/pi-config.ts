/**
 * Pi's configuration is the user's (issue 18): a teammate's `edit` or `write` never lands in it.
 * What is written there becomes code or prompt text in later sessions: a role file's
 * `extensions:` runs in every later teammate of that role, `.pi/extensions/` in the leader at its
 * next start or /reload, `settings.json`, `SYSTEM.md` and `APPEND_SYSTEM.md` shape every later
 * session, and a role's description goes into the leader's system prompt. Three places:
 *
 * - a `.pi` dir anywhere in the shared project (the leader's cwd, ENV.project): `<project>/.pi`
 *   is what Pi loads for the leader and the teammates; a nested one (`packages/x/.pi`) is what it
 *   loads for a session started there;
 * - a `.pi` dir anywhere in the teammate's own worktree: it becomes the project's once merged;
 * - an `.agents` dir in the project or the worktree, and the user's `~/.agents`: Pi loads skills
 *   from `.agents/skills` there (a skill's description goes into every later system prompt);
 * - the user's Pi agent dir (PI_CODING_AGENT_DIR, else `~/.pi/agent`): global settings,
 *   extensions, roles, models and credentials. The teammate's own worktree is exempt (worktrees
 *   live under the agent dir by default), and the team state in it has its own, earlier check
 *   (write-scope.ts).
 *
 * Case tricks: the `.pi` name and the dirs compare case-insensitively, so `.PI/agents/x.md` is
 * refused too (on a case-insensitive file system it is the same dir; on Linux refusing a `.PI`
 * costs nothing). The exemption of the own worktree is exact, so it never widens by case.
 *
 * Pure rule over absolute paths, no I/O; the caller passes every form of the target and of each
 * dir (lexical and symlink-resolved, src/worker/guard-fs.ts), and a target is refused when any
 * form is.
 */
import { join, sep } from "node:path";
import { relativeWithin, type PathForms } from "./write-scope.ts";

/** What `checkPiConfig` looks at. */
export interface PiConfigInput {
  /** The guarded tool. */
  readonly tool: "edit" | "write";
  /** The target as the message names it. */
  readonly display: string;
  /** Every absolute form of the target (the lexical path and the symlink-resolved one). */
  readonly paths: readonly string[];
  /** The shared project (ENV.project, else the shared-tree teammate's cwd); absent: not checked. */
  readonly project?: PathForms;
  /** The teammate's own worktree (ENV.worktree), for a worktree teammate. */
  readonly worktree?: PathForms;
  /** The user's Pi agent dir (PI_CODING_AGENT_DIR, else `~/.pi/agent`). */
  readonly agentDir: PathForms;
  /** The user's `~/.agents` (skills Pi loads for every session); absent: not checked. */
  readonly userAgents?: PathForms;
}

/** The check's answer: `dir` is the configuration dir the target is in. */
export type PiConfigVerdict = { ok: true } | { ok: false; reason: "pi_config"; dir: string; message: string };

/** Which configuration a target is in, for the message. */
type Where = { kind: "project" | "worktree" | "agent" | "skills"; dir: string };

const fold = (p: string): string => p.toLowerCase();

/** `path` relative to some form of `dir`, compared case-insensitively; the form it was found under. */
function within(dir: PathForms, path: string): { base: string; rel: string } | undefined {
  for (const d of dir) {
    const rel = relativeWithin(fold(d), fold(path));
    if (rel !== undefined) return { base: d, rel };
  }
  return undefined;
}

/** Dir names Pi loads configuration from at any depth of a project: `.pi`, and `.agents` (skills). */
const CONFIG_NAMES = [".pi", ".agents"];

/** The first `.pi` or `.agents` dir (any case) at or above `path` inside `root`, as an absolute path. */
function piDirIn(root: PathForms, path: string): string | undefined {
  const at = within(root, path);
  if (at === undefined || at.rel === "") return undefined;
  const segments = at.rel.split("/");
  const i = segments.findIndex((segment) => CONFIG_NAMES.includes(segment));
  // The same segments in their own case: the last ones of `path` (folding never adds a separator).
  return i < 0 ? undefined : join(at.base, ...path.split(sep).slice(-segments.length).slice(0, i + 1));
}

/** Where one form of the target lies, or undefined when it is in no configuration dir. */
function locateForm(input: PiConfigInput, path: string): Where | undefined {
  const wt = input.worktree;
  if (wt !== undefined && wt.some((d) => relativeWithin(d, path) !== undefined)) {
    const dir = piDirIn(wt, path);
    return dir === undefined ? undefined : { kind: "worktree", dir };
  }
  if (within(input.agentDir, path) !== undefined) return { kind: "agent", dir: input.agentDir[0] };
  if (input.userAgents !== undefined && within(input.userAgents, path) !== undefined) return { kind: "skills", dir: input.userAgents[0] };
  const dir = input.project === undefined ? undefined : piDirIn(input.project, path);
  return dir === undefined ? undefined : { kind: "project", dir };
}

const WHAT: Record<Where["kind"], string> = {
  project: "the project's Pi configuration",
  worktree: "your worktree's Pi configuration, which becomes the project's once your branch is merged",
  agent: "the user's Pi agent dir",
  skills: "the user's skills dir, which Pi loads for every session",
};

/**
 * Decides one `edit`/`write` against the user's Pi configuration (see the module doc): refused
 * (`pi_config`) when some form of the target is in a `.pi` dir of the project or of the own
 * worktree, or in the agent dir outside the own worktree. Everything else passes. Never throws.
 */
export function checkPiConfig(input: PiConfigInput): PiConfigVerdict {
  const where = input.paths.map((p) => locateForm(input, p)).find((w) => w !== undefined);
  if (where === undefined) return { ok: true };
  return {
    ok: false,
    reason: "pi_config",
    dir: where.dir,
    message:
      `${input.tool} blocked: ${input.display} is in ${WHAT[where.kind]} (${where.dir}). ` +
      `Pi configuration is the user's: agent roles, extensions, skills, settings and SYSTEM files there become code and instructions in later teammates and the leader, so teammates never write it. ` +
      `If the change is needed, ask the leader with send_message (it can ask the user). Do not work around this with bash or another tool.`,
  };
}
