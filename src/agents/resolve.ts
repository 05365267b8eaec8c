import type { AgentDefinition, AgentDiscovery, AgentScope } from "./types.ts";

/** Outcome of {@link resolveAgent}. */
export type ResolveAgentResult =
  | { ok: true; agent: AgentDefinition }
  | {
      ok: false;
      /** `invalid`: the deciding file is broken; `untrusted`: only project files define it; `not_found`: nothing does. */
      reason: "not_found" | "invalid" | "untrusted";
      /** Says which agents exist (name and scope) and how to fix the lookup. */
      message: string;
      /** The usable agents, sorted by name. */
      available: Array<{ name: string; scope: AgentScope }>;
    };

/**
 * Looks up an agent by its exact name in a discovery result (R12). Pure.
 *
 * The returned definition carries `scope` and `gitManaged`; pass a discovery merged with
 * `withSessionRoles` to find session roles too (scope `session`). When there is none, the message
 * lists every available agent as `name (scope)` and says why the name is missing: its highest-scope file
 * is broken (quoting the error diagnostics of that file), it exists only in project files of an
 * untrusted project, or no file defines it (with a case-insensitive "did you mean" when one
 * matches, the directories searched, and that a role may be passed inline). Never throws.
 */
export function resolveAgent(discovery: AgentDiscovery, name: string): ResolveAgentResult {
  const agent = discovery.agents.find((a) => a.name === name);
  if (agent !== undefined) return { ok: true, agent };
  const available = discovery.agents.map((a) => ({ name: a.name, scope: a.scope }));
  const listing = `Available agents: ${available.length === 0 ? "(none)" : available.map((a) => `${a.name} (${a.scope})`).join(", ")}.`;
  const shown = JSON.stringify(name);
  const invalid = discovery.skipped.find((s) => s.name === name && s.reason === "invalid definition");
  if (invalid !== undefined) {
    const errors = discovery.diagnostics
      .filter((d) => d.severity === "error" && d.source === invalid.source)
      .map((d) => d.message);
    const detail = errors.length > 0 ? ` ${errors.join(" ")}` : "";
    return {
      ok: false,
      reason: "invalid",
      message: `Agent ${shown} has no usable definition: ${invalid.source} (${invalid.scope}) is invalid and decides that name.${detail} ${listing}`,
      available,
    };
  }
  const untrusted = discovery.skipped.filter((s) => s.name === name && s.reason === "project not trusted");
  if (untrusted.length > 0) {
    return {
      ok: false,
      reason: "untrusted",
      message:
        `Agent ${shown} is defined only in ${untrusted.map((s) => s.source).join(" and ")}, which is not used because ` +
        `this project is not trusted. Trust the project in Pi (accept its trust prompt, or start pi with --approve), or define the agent in ${discovery.searched.user}. ${listing}`,
      available,
    };
  }
  const near = discovery.agents.find((a) => a.name.toLowerCase() === name.toLowerCase());
  const hint = near === undefined ? "" : ` Did you mean ${JSON.stringify(near.name)}?`;
  return {
    ok: false,
    reason: "not_found",
    message:
      `No agent definition named ${shown}.${hint} ${listing} Definitions are read from ${discovery.searched.user}/<name>.md ` +
      `and ${discovery.searched.project}/<name>.md (or <name>.local.md). When no definition fits, pass the role inline ` +
      `as teammate_spawn's definition (a session role).`,
    available,
  };
}
