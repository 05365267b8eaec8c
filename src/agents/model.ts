import type { AgentModel } from "./types.ts";

/**
 * Accepted `model` values (R5): `inherit`, or `provider/id` where the provider has no `/` or
 * whitespace and the id is non-empty without whitespace (it may contain `/`, e.g.
 * `openrouter/anthropic/claude-sonnet-4`). Used by the frontmatter schema.
 */
export const MODEL_FIELD_PATTERN = "^(inherit|[^/\\s]+/\\S+)$";

/**
 * Turns a `model` value that matched {@link MODEL_FIELD_PATTERN} into its typed form (R6, L14).
 * Pure. Splits at the first `/`.
 * @returns `undefined` for a value the pattern rejects (callers validate first).
 */
export function parseModelField(value: string): AgentModel | undefined {
  if (!new RegExp(MODEL_FIELD_PATTERN).test(value)) return undefined;
  if (value === "inherit") return { kind: "inherit" };
  const slash = value.indexOf("/");
  return { kind: "pin", provider: value.slice(0, slash), id: value.slice(slash + 1) };
}

/**
 * Renders a definition's model the way the file writes it (R5, R12): `provider/id` or `inherit`;
 * `undefined` when the file has no `model` field. Pure; never throws.
 */
export function formatAgentModel(model: AgentModel | undefined): string | undefined {
  if (model === undefined) return undefined;
  return model.kind === "inherit" ? "inherit" : `${model.provider}/${model.id}`;
}
