import { Type, type Static } from "typebox";
import { LAUNCHER_FIELD_ACCEPTED, LAUNCHER_FIELD_PATTERN } from "../launch/launcher.ts";
import { MODEL_FIELD_PATTERN } from "./model.ts";

/**
 * The frontmatter of an agent definition file (R5, W15), validated with typebox. Unknown keys are
 * allowed by the schema and reported as warnings by the parser.
 */
export const AgentFrontmatterSchema = Type.Object({
  name: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  tools: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
  model: Type.Optional(Type.String({ pattern: MODEL_FIELD_PATTERN })),
  verify: Type.Optional(Type.String()),
  worktree: Type.Optional(Type.Boolean()),
  extensions: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
  launcher: Type.Optional(Type.String({ pattern: LAUNCHER_FIELD_PATTERN })),
});

/** Frontmatter that passed {@link AgentFrontmatterSchema}. */
export type AgentFrontmatter = Static<typeof AgentFrontmatterSchema>;

/** The known frontmatter keys, in the order messages list them. */
export const AGENT_FRONTMATTER_KEYS = ["name", "description", "tools", "model", "verify", "worktree", "extensions", "launcher"] as const;

/** A known frontmatter key. */
export type AgentFrontmatterKey = (typeof AGENT_FRONTMATTER_KEYS)[number];

/** What each field accepts, in words, for error messages (style practice 10). */
export const ACCEPTED_FIELD_VALUES: Readonly<Record<AgentFrontmatterKey, string>> = {
  name: "a string equal to the file name without .md / .local.md (or leave the field out)",
  description: "a string (one line saying what the role is for)",
  tools: 'a comma list such as "read,bash", a YAML list of strings, or [] for no role tools',
  model: '"provider/id" (for example "anthropic/claude-sonnet-4") or "inherit"',
  verify: "a string (the role's default review prompt)",
  worktree: "true or false (a YAML boolean, unquoted)",
  extensions: "a YAML list of Pi extension paths (a file or a package directory), each relative to the directory of the agent file, absolute, or starting with ~/, for example [./gate.ts]",
  launcher: LAUNCHER_FIELD_ACCEPTED,
};
