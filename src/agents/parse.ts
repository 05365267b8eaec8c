import { dirname } from "node:path";
import { Value } from "typebox/value";
import { resolveExtensions } from "./extensions.ts";
import { splitFrontmatter } from "./frontmatter.ts";
import { parseModelField } from "./model.ts";
import {
  ACCEPTED_FIELD_VALUES,
  AGENT_FRONTMATTER_KEYS,
  AgentFrontmatterSchema,
  type AgentFrontmatter,
  type AgentFrontmatterKey,
} from "./schema.ts";
import { normalizeTools } from "./tools.ts";
import type { AgentDefinition, AgentDiagnostic, AgentScope } from "./types.ts";

/** One definition file's text and what its location already decided. */
export interface AgentFileInput {
  /** The whole file, as read (UTF-8, BOM and CRLF allowed). */
  text: string;
  /** Absolute path, quoted in every diagnostic. */
  source: string;
  /** The identity key from the file name (see `classifyAgentFile`). */
  name: string;
  scope: AgentScope;
  /**
   * How messages name a field; default `field "<key>"`. An inline definition passes
   * `definition.<key>` so its errors point at the tool argument rather than at a file.
   */
  fieldLabel?: (field: string) => string;
  /**
   * Directory relative `extensions` paths resolve against. Default: the directory of `source`
   * (an inline definition passes the leader's working directory).
   */
  baseDir?: string;
  /** Home directory for `~` in `extensions` paths. Default `os.homedir()`. */
  home?: string;
}

/** A parsed file: a definition plus warnings, or only diagnostics (at least one error). */
export type ParsedAgentFile =
  | { ok: true; agent: AgentDefinition; diagnostics: AgentDiagnostic[] }
  | { ok: false; diagnostics: AgentDiagnostic[] };

/**
 * Parses one agent definition file (R5, L12, W15). Pure: the caller reads the file.
 *
 * Errors (the file is not used): frontmatter that is not YAML or not a mapping; a field of the
 * wrong type or form (`model` must be `provider/id` or `inherit`, `worktree` a boolean, ...); a
 * `name` field that differs from the file name, which is the identity key. Each error names the
 * file, the field and the value and says what would be accepted.
 * Warnings (the file is used): unknown keys, a missing description, an empty body, `-item` tools.
 * Never throws.
 */
export function parseAgentFile(input: AgentFileInput): ParsedAgentFile {
  const { source } = input;
  const split = splitFrontmatter(input.text);
  if (!split.ok) {
    return { ok: false, diagnostics: [{ severity: "error", source, message: `${source}: ${split.message}. Fix the frontmatter between the --- lines.` }] };
  }
  const data = split.data;
  const label = input.fieldLabel ?? fileFieldLabel;
  const diagnostics: AgentDiagnostic[] = [...unknownKeyWarnings(source, data), ...schemaErrors(source, data, label)];
  if (typeof data.name === "string" && data.name !== input.name) {
    diagnostics.push(fieldError(source, label, "name", data.name, `differs from the name "${input.name}" given by the file name`));
  }
  if (diagnostics.some((d) => d.severity === "error")) return { ok: false, diagnostics };
  const fm = data as AgentFrontmatter;
  const agent = buildDefinition(input, fm, split.body, diagnostics);
  return { ok: true, agent, diagnostics };
}

function buildDefinition(
  input: AgentFileInput,
  fm: AgentFrontmatter,
  body: string,
  diagnostics: AgentDiagnostic[],
): AgentDefinition {
  const { source } = input;
  let tools: string[] | undefined;
  if (fm.tools !== undefined) {
    const normalized = normalizeTools(fm.tools);
    tools = normalized.tools;
    if (normalized.repaired.length > 0) {
      diagnostics.push({
        severity: "warning",
        source,
        field: "tools",
        value: fm.tools,
        message:
          `${source}: tools item(s) ${normalized.repaired.map((t) => JSON.stringify(t)).join(", ")} were read as ` +
          `${JSON.stringify(tools.join(","))}; a YAML list item needs a space after the dash ("- read").`,
      });
    }
  }
  const description = (fm.description ?? "").trim();
  if (description === "") {
    diagnostics.push({
      severity: "warning",
      source,
      field: "description",
      message: `${source}: no description; the leader sees the role without one. Add "description: <what the role is for>".`,
    });
  }
  const prompt = body.trim();
  if (prompt === "") {
    diagnostics.push({
      severity: "warning",
      source,
      message: `${source}: the body (the role prompt) is empty; the teammate gets no role instructions. Write them below the frontmatter.`,
    });
  }
  const agent: AgentDefinition = {
    name: input.name,
    description,
    tools,
    model: fm.model === undefined ? undefined : parseModelField(fm.model),
    worktree: fm.worktree ?? false,
    prompt,
    scope: input.scope,
    gitManaged: input.scope === "project",
    source,
  };
  const verify = fm.verify?.trim();
  if (verify) agent.verify = verify;
  if (fm.launcher !== undefined) agent.launcher = fm.launcher;
  if (fm.extensions !== undefined) agent.extensions = resolveExtensions(fm.extensions, input.baseDir ?? dirname(source), input.home);
  return agent;
}

function unknownKeyWarnings(source: string, data: Record<string, unknown>): AgentDiagnostic[] {
  const known: readonly string[] = AGENT_FRONTMATTER_KEYS;
  return Object.keys(data)
    .filter((key) => !known.includes(key))
    .map((key) => ({
      severity: "warning" as const,
      source,
      field: key,
      value: data[key],
      message: `${source}: unknown frontmatter key "${key}" is ignored; known keys: ${AGENT_FRONTMATTER_KEYS.join(", ")}.`,
    }));
}

/** One error per known field that fails the schema (the first failure of that field). */
function schemaErrors(source: string, data: Record<string, unknown>, label: (field: string) => string): AgentDiagnostic[] {
  const seen = new Set<string>();
  const out: AgentDiagnostic[] = [];
  for (const error of Value.Errors(AgentFrontmatterSchema, data)) {
    const field = error.instancePath.split("/")[1] ?? "";
    if (seen.has(field) || !isKnownKey(field)) continue;
    seen.add(field);
    out.push(fieldError(source, label, field, data[field], "is not accepted"));
  }
  return out;
}

function isKnownKey(key: string): key is AgentFrontmatterKey {
  return (AGENT_FRONTMATTER_KEYS as readonly string[]).includes(key);
}

function fileFieldLabel(field: string): string {
  return `field "${field}"`;
}

function fieldError(
  source: string,
  label: (field: string) => string,
  field: AgentFrontmatterKey,
  value: unknown,
  problem: string,
): AgentDiagnostic {
  return {
    severity: "error",
    source,
    field,
    value,
    message: `${source}: ${label(field)} has value ${formatValue(value)}, which ${problem}; accepted: ${ACCEPTED_FIELD_VALUES[field]}.`,
  };
}

/** A short, unambiguous rendering of a YAML value for messages. */
function formatValue(value: unknown): string {
  if (value === null) return "null (empty)";
  if (value instanceof Date) return `${value.toISOString()} (YAML read it as a date; quote it for a string)`;
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}
