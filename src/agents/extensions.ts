/**
 * A role's `extensions` field: Pi extensions (a file, or a package directory) loaded into its
 * teammates, each as `-e <absolute path>` after this package's own `-e` (children otherwise run
 * with `--no-extensions`, so without it no teammate could have a permission gate or an extension
 * tool). Paths are resolved when the definition is parsed (pure) and checked for existence when a
 * teammate is spawned, before any process exists.
 */
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import type { AgentDefinition, AgentExtension } from "./types.ts";

/**
 * The absolute path of one `extensions` entry: `~` and `~/x` are expanded with `home`, an
 * absolute path is normalised, anything else is resolved against `baseDir` (the directory of the
 * agent file; for an inline definition, the leader's working directory). Pure.
 */
export function resolveExtensionPath(value: string, baseDir: string, home: string = homedir()): string {
  if (value === "~") return resolve(home);
  if (value.startsWith("~/")) return join(home, value.slice(2));
  return isAbsolute(value) ? resolve(value) : resolve(baseDir, value);
}

/** `resolveExtensionPath` over a field's entries, keeping each value as written (for messages). */
export function resolveExtensions(values: readonly string[], baseDir: string, home?: string): AgentExtension[] {
  return values.map((value) => ({ value, path: resolveExtensionPath(value, baseDir, home) }));
}

/** Outcome of {@link checkExtensions}: the `-e` paths in field order, or why the spawn is refused. */
export type ExtensionCheck = { ok: true; paths: string[] } | { ok: false; message: string };

/**
 * Checks that every extension of `agent` exists (R13: refused before any process exists).
 * @param exists the existence test; default `existsSync`.
 * @returns the absolute paths, de-duplicated in field order; or a message naming the role file
 *   (or `session:<name>`), the field (`field "extensions"`, or `definition.extensions` for an
 *   inline role), the value as written, the path it resolved to, and what to do. Never throws.
 */
export function checkExtensions(agent: Pick<AgentDefinition, "name" | "source" | "scope" | "extensions">, exists: (path: string) => boolean = existsSync): ExtensionCheck {
  const entries = agent.extensions ?? [];
  const missing = entries.filter((e) => !safeExists(exists, e.path));
  if (missing.length === 0) return { ok: true, paths: [...new Set(entries.map((e) => e.path))] };
  const inline = agent.scope === "session";
  const field = inline ? "definition.extensions" : 'field "extensions"';
  const base = inline ? "the leader's working directory" : "the directory of the agent file";
  const listed = missing.map((e) => `${JSON.stringify(e.value)} (resolved to ${e.path})`).join(", ");
  return {
    ok: false,
    message:
      `agent ${JSON.stringify(agent.name)} (${agent.source}): ${field} has the value${missing.length === 1 ? "" : "s"} ${listed}, ` +
      `where nothing exists; each entry must name a Pi extension file or package directory (a relative path starts at ${base}, ` +
      `~/ at the home directory). Fix or remove the entry and spawn again; nothing was started.`,
  };
}

function safeExists(exists: (path: string) => boolean, path: string): boolean {
  try {
    return exists(path);
  } catch {
    return false;
  }
}
