import { formatAgentModel } from "./model.ts";
import type { AgentDefinition } from "./types.ts";

/**
 * The agent list shown in the leader's prompt guidance (R12): one line per agent, in the given
 * order, each with name, scope, whether it is git-managed, description, tools and model. Pure.
 *
 * Example: `- reviewer (project, git-managed): Reviews diffs · tools: read, bash · model: inherit`.
 * `tools: team tools only` means no `tools` field or `tools: []`: the teammate gets only the
 * capability tools (send_message and the board tools), no read/bash/edit/write (L5).
 * `model: default` means no `model` field. Newlines in a description are folded to spaces.
 * @returns the lines joined with `\n`; `""` for no agents (the caller words that case).
 */
export function formatAgentGuidance(agents: readonly AgentDefinition[]): string {
  return agents.map(formatAgentLine).join("\n");
}

function formatAgentLine(agent: AgentDefinition): string {
  const git = agent.gitManaged ? "git-managed" : "not git-managed";
  const description = agent.description.replace(/\s+/g, " ").trim() || "(no description)";
  const tools = agent.tools === undefined || agent.tools.length === 0 ? "team tools only" : agent.tools.join(", ");
  const model = formatAgentModel(agent.model) ?? "default";
  const worktree = agent.worktree ? " · own git worktree" : "";
  return `- ${agent.name} (${agent.scope}, ${git}): ${description} · tools: ${tools} · model: ${model}${worktree}`;
}
