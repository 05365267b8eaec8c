import { resolve } from "node:path";
import matter from "gray-matter";
import { errorText } from "../error-text.ts";
import { isRecord } from "../is-record.ts";
import { agentNameProblem } from "./file-name.ts";
import { parseAgentFile } from "./parse.ts";
import { AGENT_FRONTMATTER_KEYS } from "./schema.ts";
import type { AgentDefinition, AgentDiagnostic } from "./types.ts";

/** Where `definition.persist` writes a role (R9, R10): `<cwd>/.pi/agents/<name>.md` or `<name>.local.md`. */
export type PersistScope = "project" | "project-local";

/** The accepted `definition.persist` values. */
export const PERSIST_SCOPES: readonly PersistScope[] = ["project", "project-local"];

/**
 * The keys an inline definition may carry, in the order messages list them: the frontmatter
 * fields, `prompt` (the body) and `persist`. `name` is accepted too, but only equal to the spawn's
 * `agent` argument (which is the name), so messages do not advertise it.
 */
export const INLINE_DEFINITION_KEYS = ["description", "tools", "model", "verify", "worktree", "extensions", "prompt", "persist"] as const;

/** Outcome of {@link parseInlineDefinition}. */
export type InlineDefinitionResult =
  | {
      ok: true;
      /** The session role: scope `session`, gitManaged false, source `session:<name>`. */
      definition: AgentDefinition;
      /** Where to write the role, when the caller asked for it (R9). */
      persist?: PersistScope;
      /**
       * The role as a definition file (frontmatter and body); parses back to `definition`.
       * `extensions` entries are written as absolute paths: the file lives elsewhere than `cwd`.
       */
      markdown: string;
      /** Warnings a file would get too (no description, `-item` tools). */
      diagnostics: AgentDiagnostic[];
    }
  | { ok: false; message: string; diagnostics: AgentDiagnostic[] };

/** The virtual source of a session role: `session:<name>`, where a file role has its path. */
export function sessionSource(name: string): string {
  return `session:${name}`;
}

const ACCEPTED_SHAPE =
  "an object { description?, tools?, model?, verify?, worktree?, extensions?, prompt, persist? } with the frontmatter fields of a " +
  "definition file and prompt as its body, or that object written as a JSON string";

/** Common slips mapped to the key that was probably meant. */
const LIKELY_KEY: ReadonlyMap<string, string> = new Map([
  ["tool", "tools"],
  ["body", "prompt"],
  ["instructions", "prompt"],
  ["system", "prompt"],
  ["systemprompt", "prompt"],
  ["system_prompt", "prompt"],
  ["role", "prompt"],
  ["models", "model"],
  ["extension", "extensions"],
  ["scope", "persist"],
]);

/**
 * Validates the `definition` argument of `teammate_spawn` for the role `name` (R5, R8, R9, L26).
 * Pure; never throws.
 *
 * `value` is an object, or that object as a JSON string (some harnesses stringify objects, L26).
 * The fields are the frontmatter fields of a definition file (description, tools, model, verify,
 * worktree, extensions), `prompt` (the body; a non-blank string, required) and optional `persist`
 * (`"project"` or `"project-local"`). A key set to `undefined` counts as absent. Relative
 * `extensions` paths resolve against `options.cwd` (the leader's working directory; default the
 * process's), not against a file's directory.
 *
 * The object is rendered to Markdown with gray-matter and run through `parseAgentFile` with the
 * virtual source `session:<name>`, so it is validated exactly like a file and gets the same
 * messages, with fields named `definition.<field>`. Stricter than a file on purpose:
 * - an unknown key is an error, not a warning: a typo such as `tool` must not silently drop the
 *   grant (the message suggests the likely key);
 * - `prompt` must not be blank: an inline role exists only to carry its instructions;
 * - `name`, when given, must equal `name` (the spawn's `agent` argument is the identity).
 * `name` itself must follow the file-name rules of definitions (`agentNameProblem`).
 *
 * @returns the session role with its Markdown, or a message that names `definition.<field>`,
 * the value and what is accepted (every message starts `session:<name>: `).
 */
export function parseInlineDefinition(name: string, value: unknown, options: { cwd?: string } = {}): InlineDefinitionResult {
  const source = sessionSource(name);
  const refuse = (message: string, field?: string): InlineDefinitionResult => refused(name, [{ severity: "error", source, ...(field ? { field } : {}), message: `${source}: ${message}` }]);
  const problem = agentNameProblem(name);
  if (problem !== undefined) return refuse(`the agent name ${JSON.stringify(name)}, which names the inline role, ${problem}.`);
  const object = toObject(value);
  if (!object.ok) return refuse(object.message);
  const fields = object.fields;
  const unknown = Object.keys(fields).filter((key) => key !== "name" && !(INLINE_DEFINITION_KEYS as readonly string[]).includes(key));
  if (unknown.length > 0) {
    const listed = unknown.map((key) => `definition.${key}${suggestion(key)}`).join(", ");
    return refuse(
      `unknown field${unknown.length === 1 ? "" : "s"} ${listed}; accepted fields: ${INLINE_DEFINITION_KEYS.join(", ")}. ` +
        `Unknown fields are refused so that a typo is not silently dropped.`,
      unknown[0],
    );
  }
  if (fields.name !== undefined && fields.name !== name) {
    return refuse(
      `definition.name has value ${formatValue(fields.name)}, which differs from the agent argument ${JSON.stringify(name)}; ` +
        `leave definition.name out (the agent argument names the role) or make them equal.`,
      "name",
    );
  }
  const persist = fields.persist;
  if (persist !== undefined && !PERSIST_SCOPES.includes(persist as PersistScope)) {
    return refuse(
      `definition.persist has value ${formatValue(persist)}, which is not accepted; accepted: "project" (writes .pi/agents/${name}.md) ` +
        `or "project-local" (writes .pi/agents/${name}.local.md), or leave it out to keep the role for this session only.`,
      "persist",
    );
  }
  const prompt = fields.prompt;
  if (typeof prompt !== "string" || prompt.trim() === "") {
    const got = prompt === undefined ? "is missing" : `has value ${formatValue(prompt)}, which is not accepted`;
    return refuse(`definition.prompt ${got}; accepted: a non-blank string, the role's instructions (the body of a definition file).`, "prompt");
  }
  const cwd = resolve(options.cwd ?? ".");
  const rendered = renderMarkdown(fields, prompt);
  if (!rendered.ok) return refuse(rendered.message);
  const parsed = parseAgentFile({ text: rendered.markdown, source, name, scope: "session", fieldLabel: (f) => `definition.${f}`, baseDir: cwd });
  if (!parsed.ok) return refused(name, parsed.diagnostics);
  const extensions = parsed.agent.extensions;
  const file = extensions ? renderMarkdown({ ...fields, extensions: extensions.map((e) => e.path) }, prompt) : rendered;
  if (!file.ok) return refuse(file.message);
  return {
    ok: true,
    definition: parsed.agent,
    ...(persist === undefined ? {} : { persist: persist as PersistScope }),
    markdown: file.markdown,
    diagnostics: parsed.diagnostics,
  };
}

function refused(name: string, diagnostics: AgentDiagnostic[]): InlineDefinitionResult {
  const errors = diagnostics.filter((d) => d.severity === "error").map((d) => d.message);
  return { ok: false, message: `Inline definition of agent ${JSON.stringify(name)} refused. ${errors.join(" ")}`, diagnostics };
}

type ObjectResult = { ok: true; fields: Record<string, unknown> } | { ok: false; message: string };

/** Accepts a plain object or a JSON string of one (L26); `undefined`-valued keys are dropped. */
function toObject(value: unknown): ObjectResult {
  let candidate = value;
  if (typeof value === "string") {
    try {
      candidate = JSON.parse(value) as unknown;
    } catch (error: unknown) {
      const reason = errorText(error);
      return { ok: false, message: `definition is a string that is not valid JSON (${reason}): ${preview(value)}; accepted: ${ACCEPTED_SHAPE}.` };
    }
    if (!isPlainObject(candidate)) {
      return { ok: false, message: `definition is a JSON string of ${describe(candidate)}, not of an object; accepted: ${ACCEPTED_SHAPE}.` };
    }
  }
  if (!isPlainObject(candidate)) return { ok: false, message: `definition has value ${formatValue(candidate)}, which is not accepted; accepted: ${ACCEPTED_SHAPE}.` };
  const fields: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [key, field] of Object.entries(candidate)) if (field !== undefined) fields[key] = field;
  return { ok: true, fields };
}

/** Passed through gray-matter to js-yaml's dump: long lines are not folded, so a persisted file reads as written. */
const DUMP_OPTIONS = { language: "yaml", lineWidth: -1 };

/**
 * The definition as a file: the frontmatter fields in their usual order, then the prompt as body.
 * A file object is passed to gray-matter so a prompt starting with `---` is not re-parsed; an
 * empty frontmatter is still written as `---`/`---` for the same reason.
 */
function renderMarkdown(fields: Record<string, unknown>, prompt: string): { ok: true; markdown: string } | { ok: false; message: string } {
  const data: Record<string, unknown> = {};
  for (const key of AGENT_FRONTMATTER_KEYS) if (key !== "name" && fields[key] !== undefined) data[key] = fields[key];
  const body = prompt.endsWith("\n") ? prompt : `${prompt}\n`;
  if (Object.keys(data).length === 0) return { ok: true, markdown: `---\n---\n${body}` };
  try {
    return { ok: true, markdown: matter.stringify({ content: body }, data, DUMP_OPTIONS) };
  } catch (error: unknown) {
    // Only values JSON cannot carry (functions, symbols) get here: tool arguments never do.
    const reason = errorText(error);
    return { ok: false, message: `definition cannot be written as a definition file (${reason}); accepted: ${ACCEPTED_SHAPE}.` };
  }
}

function suggestion(key: string): string {
  const lower = key.toLowerCase();
  const known = INLINE_DEFINITION_KEYS.find((k) => k === lower) ?? LIKELY_KEY.get(lower);
  return known === undefined ? "" : ` (did you mean "${known}"?)`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `${typeof value} ${preview(JSON.stringify(value) ?? String(value))}`;
}

function formatValue(value: unknown): string {
  if (value === null) return "null";
  return preview(JSON.stringify(value) ?? String(value));
}

function preview(text: string): string {
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}
