/**
 * Agent definition discovery (R5, R7, R9–R12, L12, W15): Markdown files with YAML frontmatter,
 * found in the user and project agent dirs, validated, merged by scope precedence.
 */
export type {
  AgentDefinition,
  AgentDiagnostic,
  AgentDiscovery,
  AgentFileScope,
  AgentModel,
  AgentScope,
  SkipReason,
  SkippedAgentFile,
} from "./types.ts";
export { AGENT_FILE_SCOPES, AGENT_SCOPES } from "./types.ts";
export { agentDirs, discoverAgents, type DiscoverAgentsOptions } from "./discover.ts";
export { parseAgentFile, type AgentFileInput, type ParsedAgentFile } from "./parse.ts";
export { agentNameProblem, classifyAgentFile, type AgentDirKind, type AgentFileName } from "./file-name.ts";
export { applyPrecedence, type AgentCandidate, type PrecedenceResult } from "./precedence.ts";
export { normalizeTools, type NormalizedTools } from "./tools.ts";
export { formatAgentModel, parseModelField, MODEL_FIELD_PATTERN } from "./model.ts";
export { splitFrontmatter, type FrontmatterResult } from "./frontmatter.ts";
export {
  ACCEPTED_FIELD_VALUES,
  AGENT_FRONTMATTER_KEYS,
  AgentFrontmatterSchema,
  type AgentFrontmatter,
  type AgentFrontmatterKey,
} from "./schema.ts";
export { resolveAgent, type ResolveAgentResult } from "./resolve.ts";
export { formatAgentGuidance, formatUntrustedAgentsHint } from "./guidance.ts";
