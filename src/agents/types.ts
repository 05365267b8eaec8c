/**
 * Plain data of agent definition discovery (R5, R7, R10–R12, W15). Everything here is produced by
 * the pure parser and precedence rules and can be serialised as JSON.
 */

/** Where a definition file lives (R10). Precedence per name: user < project < project-local (R7). */
export type AgentFileScope = "user" | "project" | "project-local";

/**
 * Where a definition comes from (R10): one of the file scopes, or `session`, a role passed inline
 * to `teammate_spawn` and held in memory for this session only (R8, R9; `src/agents/session-roles.ts`).
 * A session role fills only a name no file defines (R7), so it ranks below every file scope.
 */
export type AgentScope = "session" | AgentFileScope;

/** File scopes from lowest to highest precedence. */
export const AGENT_FILE_SCOPES: readonly AgentFileScope[] = ["user", "project", "project-local"];

/** All scopes from lowest to highest precedence; `session` first, as it yields to any file (R7). */
export const AGENT_SCOPES: readonly AgentScope[] = ["session", ...AGENT_FILE_SCOPES];

/**
 * The `model` frontmatter field (R5, R6): a `provider/id` pin or `inherit` (the leader's model at
 * spawn time, L14). An absent field is `undefined` on the definition.
 */
export type AgentModel = { kind: "pin"; provider: string; id: string } | { kind: "inherit" };

/** One usable agent definition: a role a teammate can be spawned from. */
export interface AgentDefinition {
  /**
   * Identity key, taken from the file name (`<name>.md`, or `<name>.local.md` in the project dir);
   * for a session role, the spawn's `agent` argument.
   */
  name: string;
  /** One-line purpose shown to the leader; `""` when the file has none (a warning says so). */
  description: string;
  /** Role tools in file order, de-duplicated; `undefined` when the file has no `tools` field, `[]` for `tools: []`. */
  tools: string[] | undefined;
  /** `undefined` when the file has no `model` field. */
  model: AgentModel | undefined;
  /** The role's default review prompt (R43); absent when not set or blank. */
  verify?: string;
  /** `worktree: true` gives the teammate its own Git worktree on a new branch (R20). Defaults to false. */
  worktree: boolean;
  /**
   * Pi extensions loaded into the teammate with `-e`, in field order: each entry as written and
   * its absolute path (src/agents/extensions.ts). Absent when the role has no `extensions` field.
   * Existence is checked at spawn time, not here.
   */
  extensions?: AgentExtension[];
  /**
   * How its pi is started (src/launch/): `local` (absent: the same), `bwrap`, `podman`, `docker`,
   * `ssh:<host>`, or a launcher named in the user's settings. Only the form is checked here; the
   * name and the binary are checked at spawn time.
   */
  launcher?: string;
  /** The Markdown body, CRLF normalised to LF and trimmed. May be `""` (a warning says so). */
  prompt: string;
  scope: AgentScope;
  /**
   * Exactly `scope === "project"` (R12): project scope, meant to be committed (`.pi/agents/<name>.md`).
   * Nothing checks git; user and project-local files and session roles are false.
   */
  gitManaged: boolean;
  /** Absolute path of the file; `session:<name>` for a session role (no file exists). */
  source: string;
  /** Absolute paths of lower-scope files of the same name this one shadows; absent when none. */
  overrides?: string[];
}

/** One entry of a role's `extensions` field. */
export interface AgentExtension {
  /** As written in the field, e.g. `./gate.ts` or `~/pi/gate`. */
  value: string;
  /** Absolute path: `~` expanded, a relative path resolved against the agent file's directory. */
  path: string;
}

/** A problem found in one file. Errors mean the file was not used; warnings do not stop it loading. */
export interface AgentDiagnostic {
  severity: "error" | "warning";
  /** Absolute path of the file concerned; `session:<name>` for an inline definition. */
  source: string;
  /** The frontmatter field concerned, when there is one. */
  field?: string;
  /** The offending value as read from the file, when there is one. */
  value?: unknown;
  /** Says what failed, where, what is accepted and what to do. */
  message: string;
}

/** Why a definition file found on disk is not among the usable agents. */
export type SkipReason = "project not trusted" | "invalid definition" | "shadowed by an invalid definition";

/** A definition file that was found but is not used. */
export interface SkippedAgentFile {
  source: string;
  scope: AgentFileScope;
  /** The name the file would define; absent when the file name itself is not a valid agent name. */
  name?: string;
  reason: SkipReason;
}

/** What discovery found: usable agents sorted by name, plus everything that was not used and why. */
export interface AgentDiscovery {
  agents: AgentDefinition[];
  diagnostics: AgentDiagnostic[];
  skipped: SkippedAgentFile[];
  /** The directories that were searched, for messages that tell the user where to put a file. */
  searched: { user: string; project: string };
}
