/**
 * Agent definition discovery (R5, R7, R9–R12, L12, W15): Markdown files with YAML frontmatter,
 * found in the user and project agent dirs, validated, merged by scope precedence; plus session
 * roles passed inline to `teammate_spawn` (R8, R9, L13, L26), and their persistence to a file.
 */
export type {
  AgentDefinition,
  AgentDiagnostic,
  AgentDiscovery,
  AgentExtension,
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
export { checkToolGrant, PI_BUILTIN_TOOLS, WORKER_TOOLS, type ToolGrantResult } from "./known-tools.ts";
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
export { formatAgentGuidance, formatUntrustedAgentsHint, MAX_DESCRIPTION_CHARS, quoteFileText } from "./guidance.ts";
export {
  INLINE_DEFINITION_KEYS,
  parseInlineDefinition,
  PERSIST_SCOPES,
  sessionSource,
  type InlineDefinitionResult,
  type PersistScope,
} from "./inline-definition.ts";
export {
  inlineDefinitionConflict,
  prepareInlineRole,
  SessionRoles,
  withSessionRoles,
  type PreparedInlineRole,
  type PrepareInlineRoleOptions,
} from "./session-roles.ts";
export { checkExtensions, resolveExtensionPath, resolveExtensions, type ExtensionCheck } from "./extensions.ts";
export { persistDefinition, type PersistDefinitionOptions } from "./persist.ts";
