/**
 * The checks of a spawn request that need no I/O (R13–R16, L5, L13): the role (a file, a session
 * role or an inline definition), `handoffFrom`, the role's extensions, the tool grant and the
 * pinned model. src/harness/spawn-teammate.ts runs them before anything exists.
 */
import { checkExtensions } from "../agents/extensions.ts";
import { checkToolGrant, PI_BUILTIN_TOOLS } from "../agents/known-tools.ts";
import { prepareInlineRole, type SessionRoles } from "../agents/session-roles.ts";
import { resolveAgent, type AgentDefinition, type AgentDiscovery } from "../agents/index.ts";
import { TeamError } from "../errors.ts";
import { checkHandoff } from "../team/handoff.ts";
import type { Member } from "../team/member.ts";
import { checkModel, resolveTeammateModel, type TeammateModelChoice as ModelChoice } from "../team/model-choice.ts";
import type { ResolvedHarnessOptions, SpawnRequest } from "./harness-types.ts";

/** What `resolveSpawn` reads of the harness. */
export interface ResolveDeps {
  o: ResolvedHarnessOptions;
  /** Key: lower-case name; the latest incarnation. */
  members: ReadonlyMap<string, Member>;
  roles: SessionRoles;
}

/** The role, grant, model and kickoff a spawn request resolved to, before anything exists. */
export interface Resolved {
  agent: AgentDefinition;
  /** Set for an inline definition: register it (session role) or write it (persist). */
  inline?: { markdown: string; persist?: "project" | "project-local" };
  tools: string[];
  /** The role's extensions, absolute paths that exist, loaded with `-e` after the package. */
  extensions: string[];
  choice: ModelChoice;
  predecessor?: Member;
}

/** The synchronous checks: role, handoff, extensions, grant, model. @throws TeamError `invalid_input`. */
export function resolveSpawn(d: ResolveDeps, discovery: AgentDiscovery, req: SpawnRequest): Resolved {
  const fail = (message: string): never => {
    throw new TeamError("invalid_input", `teammate_spawn: ${message}`);
  };
  let agent: AgentDefinition;
  let inline: Resolved["inline"];
  if (req.definition !== undefined) {
    const parsed = prepareInlineRole({ discovery, name: req.agent, definition: req.definition, projectTrusted: d.o.trusted(), cwd: d.o.cwd });
    if (!parsed.ok) return fail(parsed.message);
    agent = parsed.definition;
    inline = { markdown: parsed.markdown, ...(parsed.persist ? { persist: parsed.persist } : {}) };
  } else {
    const found = resolveAgent(discovery, req.agent);
    if (!found.ok) {
      return fail(`${found.message} To spawn a role no file defines, pass \`definition\` (see references/agent-roles.md).`);
    }
    agent = found.agent;
  }
  let predecessor: Member | undefined;
  if (req.handoffFrom !== undefined) {
    const members = [...d.members.values()];
    const check = checkHandoff(req.handoffFrom, members);
    if (!check.ok) return fail(check.message);
    predecessor = d.members.get(req.handoffFrom.toLowerCase());
  }
  const extensions = checkExtensions(agent);
  if (!extensions.ok) return fail(extensions.message);
  const grant = checkToolGrant(agent.tools, PI_BUILTIN_TOOLS, { extensionTools: extensions.paths.length > 0 });
  if (!grant.ok) return fail(`agent ${JSON.stringify(agent.name)} (${agent.source}): ${grant.message}`);
  const choice = resolveTeammateModel({ role: agent.model, leader: d.o.leaderModel(), leaderThinking: d.o.leaderThinking(), teamDefault: d.o.teamModel() });
  const known = d.o.knownModels();
  if (choice.source === "pin" && choice.model && known) {
    const model = checkModel(choice.model, known);
    if (!model.ok) return fail(`agent ${JSON.stringify(agent.name)} (${agent.source}): ${model.message}`);
  }
  return { agent, ...(inline ? { inline } : {}), tools: grant.tools, extensions: extensions.paths, choice, ...(predecessor ? { predecessor } : {}) };
}

/** `provider/id` and where it came from, for the spawn result and the roster. */
export function describeModel(choice: ModelChoice): string {
  const name = choice.model ? `${choice.model.provider}/${choice.model.id}` : "Pi default";
  const thinking = choice.thinking ? `, thinking ${choice.thinking}` : "";
  return `${name} (${choice.source}${thinking})`;
}
