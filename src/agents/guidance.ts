import { formatAgentModel } from "./model.ts";
import type { AgentDefinition } from "./types.ts";

/**
 * The agent list shown in the leader's prompt guidance (R12): one line per agent, in the given
 * order, each with name, scope, whether it is git-managed, description, tools and model. Pure.
 *
 * Example: `- reviewer (project, git-managed): Reviews diffs · tools: read, bash · model: inherit`.
 * `tools: default` means no `tools` field (Pi's defaults); `tools: none` means `tools: []`.
 * `model: default` means no `model` field. Newlines in a description are folded to spaces.
 * @returns the lines joined with `\n`; `""` for no agents (the caller words that case).
 */
export function formatAgentGuidance(agents: readonly AgentDefinition[]): string {
  return agents.map(formatAgentLine).join("\n");
}

function formatAgentLine(agent: AgentDefinition): string {
  const git = agent.gitManaged ? "git-managed" : "not git-managed";
  const description = agent.description.replace(/\s+/g, " ").trim() || "(no description)";
  const tools = agent.tools === undefined ? "default" : agent.tools.length === 0 ? "none" : agent.tools.join(", ");
  const model = formatAgentModel(agent.model) ?? "default";
  const worktree = agent.worktree ? " · own git worktree" : "";
  return `- ${agent.name} (${agent.scope}, ${git}): ${description} · tools: ${tools} · model: ${model}${worktree}`;
}
