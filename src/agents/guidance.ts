import { formatAgentModel } from "./model.ts";
import type { AgentDefinition, AgentDiscovery, AgentScope } from "./types.ts";

/** What each scope means, as the leader's model reads it. */
const SCOPE_LABEL: Record<AgentScope, string> = {
  session: "session role: in memory for this session only, no file",
  user: "user scope",
  project: "project scope: meant to be committed",
  "project-local": "project-local scope: a personal override",
};

/**
 * The agent list shown in the leader's prompt guidance (R12): one line per agent, in the given
 * order, each with name, scope, description, tools and model. Pure.
 *
 * Example: `- reviewer (project scope: meant to be committed): "Reviews diffs" · tools: read, bash · model: "inherit"`.
 * The description and the model are file text, which anyone who can write an agent file controls
 * (issue 18): each is quoted, on one line and capped at {@link MAX_DESCRIPTION_CHARS} characters
 * ({@link quoteFileText}); the leader's guidance says they are file content, not instructions.
 * The name is a checked identifier and the tools known tool ids, so those are shown as they are.
 * The scope label says plainly what a scope is: project scope (`.pi/agents/<name>.md`) is meant
 * to be committed with the project; nothing checks git. A session role (passed inline to
 * `teammate_spawn`, R8, R9) is labelled as living in memory only. `tools: team tools only` means no `tools`
 * field or `tools: []`: the teammate gets only the capability tools (send_message and the board
 * tools), no read/bash/edit/write (L5). `model: team default` means no `model` field: the
 * session's team default model, else Pi's default (R6, src/team/model-choice.ts). `worktree: true`
 * says the teammate works in its own git worktree on a new branch, kept when it stops (R20).
 * @returns the lines joined with `\n`; `""` for no agents (the caller words that case).
 */
export function formatAgentGuidance(agents: readonly AgentDefinition[]): string {
  return agents.map(formatAgentLine).join("\n");
}

function formatAgentLine(agent: AgentDefinition): string {
  const description = agent.description.trim() === "" ? "(no description)" : quoteFileText(agent.description);
  const tools = agent.tools === undefined || agent.tools.length === 0 ? "team tools only" : agent.tools.join(", ");
  const model = agent.model === undefined ? "team default" : quoteFileText(formatAgentModel(agent.model) ?? "");
  const worktree = agent.worktree ? " · worktree: true (its own git worktree on a new branch; its work is kept on that branch when it stops)" : "";
  return `- ${agent.name} (${SCOPE_LABEL[agent.scope]}): ${description} · tools: ${tools} · model: ${model}${worktree}`;
}

/** At most this many characters (code points) of a description go into the leader's prompt. */
export const MAX_DESCRIPTION_CHARS = 200;

/**
 * A file's free text as the leader's prompt shows it (issue 18): whitespace runs (newlines
 * included) folded to one space, cut to {@link MAX_DESCRIPTION_CHARS} code points with `…` as
 * the last one when longer, then JSON-quoted, so a quote or a control character inside cannot
 * end the quotation or start a line of its own. Pure.
 *
 * Example: `"Reviews diffs"`; 300 `x` become `"xxx…x…"` of 199 `x` and `…`.
 * @param max the cap in code points; default {@link MAX_DESCRIPTION_CHARS}.
 */
export function quoteFileText(text: string, max = MAX_DESCRIPTION_CHARS): string {
  const folded = Array.from(text.replace(/\s+/g, " ").trim());
  const capped = folded.length > max ? `${folded.slice(0, max - 1).join("")}…` : folded.join("");
  return JSON.stringify(capped);
}

/**
 * A line for the leader when project agent files were not read because Pi does not trust the
 * project (discovery lists each as skipped with reason "project not trusted"). Pure.
 *
 * Example: `(2 project agent files skipped: project not trusted; start pi with -a or trust the project with /trust)`.
 * @returns `undefined` when no file was skipped for that reason.
 */
export function formatUntrustedAgentsHint(discovery: Pick<AgentDiscovery, "skipped">): string | undefined {
  const count = discovery.skipped.filter((s) => s.reason === "project not trusted").length;
  if (count === 0) return undefined;
  const files = count === 1 ? "project agent file" : "project agent files";
  return `(${count} ${files} skipped: project not trusted; start pi with -a or trust the project with /trust)`;
}
