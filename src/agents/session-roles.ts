import { assertNever, TeamError } from "../errors.ts";
import { parseInlineDefinition, sessionSource, type InlineDefinitionResult } from "./inline-definition.ts";
import type { AgentDefinition, AgentDiagnostic, AgentDiscovery, AgentFileScope } from "./types.ts";

/**
 * Session roles (R7, R8, R9, R10, L13): definitions passed inline to `teammate_spawn` as
 * `definition`, held in memory for one session. There are no built-in roles; when no file fits,
 * the leader derives a role from references/agent-roles.md and passes it inline.
 *
 * The rules, all enforced here:
 * - A session role fills only a name no definition file defines (R7). "Defines" includes a file
 *   that is not used: a project file skipped because the project is untrusted, and an invalid file.
 * - An inline definition never overrides or overwrites a file (R8): for a file-defined name it is
 *   refused ({@link inlineDefinitionConflict}), and a file added mid-session wins over the session
 *   role of its name ({@link withSessionRoles}).
 * - A later inline definition for the same name replaces the earlier session role (L13):
 *   {@link SessionRoles.register} overwrites.
 */

/**
 * The session roles of one session, keyed by name (a `Map`, so `constructor` is a plain key, W18).
 * Construct one per session (R10: cleared at session start; nothing is module-level). Not
 * persistent: `persistDefinition` writes a file, after which the caller should `delete` the name.
 */
export class SessionRoles {
  readonly #roles = new Map<string, AgentDefinition>();

  /**
   * Registers a session role, replacing any earlier one of the same name (R8, L13).
   * @param definition a definition from {@link parseInlineDefinition} (`scope: "session"`).
   * @returns the role it replaced, or `undefined`.
   * @throws TeamError `invalid_input` for a definition that is not a session role (a caller bug:
   * file roles come from discovery and are never held here).
   */
  register(definition: AgentDefinition): AgentDefinition | undefined {
    if (definition.scope !== "session" || definition.source !== sessionSource(definition.name)) {
      throw new TeamError(
        "invalid_input",
        `Only session roles can be registered: ${definition.source} has scope "${definition.scope}"; expected scope "session" and source "${sessionSource(definition.name)}".`,
      );
    }
    const previous = this.#roles.get(definition.name);
    this.#roles.set(definition.name, definition);
    return previous;
  }

  /** The session role of that exact name, or `undefined`. */
  get(name: string): AgentDefinition | undefined {
    return this.#roles.get(name);
  }

  /** Forgets a session role (e.g. once it was persisted as a file); true when one was held. */
  delete(name: string): boolean {
    return this.#roles.delete(name);
  }

  /** Forgets every session role (a session boundary, R10, W17). */
  clear(): void {
    this.#roles.clear();
  }

  /** The session roles, sorted by name (a fresh array). */
  list(): AgentDefinition[] {
    return [...this.#roles.values()].sort(byName);
  }

  /** How many session roles are held. */
  get size(): number {
    return this.#roles.size;
  }
}

/** What a definition file makes of a name, when one defines it. */
interface DefiningFile {
  state: "used" | "untrusted" | "invalid";
  /** The deciding file first, then any others of that name. */
  sources: string[];
  scope: AgentFileScope;
}

/** The file(s) that define `name` in a discovery result, ignoring session roles already merged in. */
function definingFile(discovery: AgentDiscovery, name: string): DefiningFile | undefined {
  for (const agent of discovery.agents) {
    if (agent.name === name && agent.scope !== "session") return { state: "used", sources: [agent.source], scope: agent.scope };
  }
  const skipped = discovery.skipped.filter((s) => s.name === name);
  const untrusted = skipped.filter((s) => s.reason === "project not trusted");
  const first = untrusted[0];
  if (first !== undefined) return { state: "untrusted", sources: untrusted.map((s) => s.source), scope: first.scope };
  const deciding = skipped.find((s) => s.reason === "invalid definition");
  if (deciding === undefined) return undefined;
  const others = skipped.filter((s) => s !== deciding).map((s) => s.source);
  return { state: "invalid", sources: [deciding.source, ...others], scope: deciding.scope };
}

/**
 * Says why an inline definition for `name` is refused because a definition file defines that
 * name (R8: inline input never overrides or overwrites a file), or `undefined` when none does.
 * Pure. Session roles in `discovery` (scope `session`) are ignored, so a replacement is allowed.
 *
 * The message names the file and its scope, and says to spawn with `agent: "<name>"` and no
 * definition to use that file, or to pick another name. For an untrusted project's file it adds
 * that the project must be trusted first; for an invalid file it quotes the file's errors.
 */
export function inlineDefinitionConflict(discovery: AgentDiscovery, name: string): string | undefined {
  const file = definingFile(discovery, name);
  if (file === undefined) return undefined;
  const shown = JSON.stringify(name);
  const files = file.sources.join(" and ");
  const rule = "an inline definition never overrides or overwrites a definition file";
  const use = `spawn with agent: ${shown} and no definition`;
  switch (file.state) {
    case "used":
      return `Agent ${shown} is already defined by ${files} (${file.scope} scope); ${rule}. To use that role, ${use}; for a different role, pick another name.`;
    case "untrusted":
      return (
        `Agent ${shown} is already defined by ${files}, which is not read because this project is not trusted; ${rule}. ` +
        `Trust the project and ${use}, or pick another name.`
      );
    case "invalid": {
      const errors = discovery.diagnostics
        .filter((d) => d.severity === "error" && d.source === file.sources[0])
        .map((d) => d.message);
      const detail = errors.length > 0 ? ` (${errors.join(" ")})` : "";
      return `Agent ${shown} is already defined by ${files}, which is invalid${detail}; ${rule}. Fix the file and ${use}, or pick another name.`;
    }
    default:
      return assertNever(file.state, "agent file state");
  }
}

/** Inputs of {@link prepareInlineRole}. */
export interface PrepareInlineRoleOptions {
  /** Discovery of the definition files (session roles in it are ignored). */
  discovery: AgentDiscovery;
  /** The spawn's `agent` argument: the role's name. */
  name: string;
  /** The spawn's `definition` argument, as received: an object or its JSON string (L26). */
  definition: unknown;
  /**
   * `ctx.isProjectTrusted()`. When false, `persist` is refused: discovery does not read project
   * files of an untrusted project, so the written file would make the role unusable.
   * Omitted: not checked.
   */
  projectTrusted?: boolean;
  /** The leader's working directory, which relative `definition.extensions` paths start at. Default: the process's. */
  cwd?: string;
}

/** Outcome of {@link prepareInlineRole}: an accepted definition, or why it was refused. */
export type PreparedInlineRole =
  | Extract<InlineDefinitionResult, { ok: true }>
  | { ok: false; reason: "file_defined" | "invalid" | "untrusted_persist"; message: string; diagnostics: AgentDiagnostic[] };

/**
 * Everything `teammate_spawn` checks before it registers an inline role (R8, R9, L26). Pure.
 *
 * In order: a definition file defining the name refuses it (`file_defined`, see
 * {@link inlineDefinitionConflict}); then the definition is validated like a file (`invalid`, see
 * {@link parseInlineDefinition}); then `persist` in an untrusted project is refused
 * (`untrusted_persist`). Registering (and persisting) is left to the caller.
 */
export function prepareInlineRole(options: PrepareInlineRoleOptions): PreparedInlineRole {
  const { discovery, name } = options;
  const conflict = inlineDefinitionConflict(discovery, name);
  if (conflict !== undefined) return { ok: false, reason: "file_defined", message: conflict, diagnostics: [] };
  const parsed = parseInlineDefinition(name, options.definition, options.cwd === undefined ? {} : { cwd: options.cwd });
  if (!parsed.ok) return { ok: false, reason: "invalid", message: parsed.message, diagnostics: parsed.diagnostics };
  if (parsed.persist !== undefined && options.projectTrusted === false) {
    const file = parsed.persist === "project" ? `${name}.md` : `${name}.local.md`;
    return {
      ok: false,
      reason: "untrusted_persist",
      message:
        `${sessionSource(name)}: definition.persist is "${parsed.persist}", but this project is not trusted, so Pi would not read ` +
        `<cwd>/.pi/agents/${file}. Trust the project first, or leave definition.persist out to keep the role for this session only.`,
      diagnostics: [],
    };
  }
  return parsed;
}

/**
 * Merges session roles into a discovery of the definition files (R7, R10, R12). Pure; returns a
 * new value and leaves both inputs unchanged.
 *
 * Each session role is added (scope `session`, gitManaged false, source `session:<name>`) only
 * when no file defines its name, used or not (see {@link inlineDefinitionConflict}); otherwise the
 * file wins and a warning diagnostic says the session role is not used. Agents stay sorted by
 * name. Idempotent: session roles and session diagnostics already in `discovery` are replaced.
 */
export function withSessionRoles(discovery: AgentDiscovery, roles: SessionRoles | readonly AgentDefinition[]): AgentDiscovery {
  const list = roles instanceof SessionRoles ? roles.list() : roles;
  const agents = discovery.agents.filter((a) => a.scope !== "session");
  const diagnostics = discovery.diagnostics.filter((d) => !d.source.startsWith(SESSION_PREFIX));
  for (const role of list) {
    const file = definingFile(discovery, role.name);
    if (file === undefined) {
      agents.push(role);
      continue;
    }
    diagnostics.push({
      severity: "warning",
      source: role.source,
      message:
        `${role.source}: the session role ${JSON.stringify(role.name)} is not used: ${file.sources[0]} defines that name, ` +
        `and a definition file always wins over a session role.`,
    });
  }
  agents.sort(byName);
  return { ...discovery, agents, diagnostics };
}

const SESSION_PREFIX = sessionSource("");

function byName(a: AgentDefinition, b: AgentDefinition): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
