import { lstat, mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { errorText } from "../error-text.ts";
import { TeamError } from "../errors.ts";
import { createFileExclusive, errnoCode } from "../store/index.ts";
import { agentNameProblem } from "./file-name.ts";
import type { PersistScope } from "./inline-definition.ts";
import { parseAgentFile } from "./parse.ts";

/** Inputs of {@link persistDefinition}. */
export interface PersistDefinitionOptions {
  /** The project root; the file goes to `<cwd>/.pi/agents/`. */
  cwd: string;
  /** The role's name (the spawn's `agent` argument). */
  name: string;
  /** `project`: `<name>.md`, meant to be committed; `project-local`: `<name>.local.md`, a personal file (R10). */
  scope: PersistScope;
  /** The whole definition file, as `parseInlineDefinition` rendered it. */
  markdown: string;
}

/** Mode of a written definition file: an ordinary project file (rw-r--r-- before the umask). */
const DEFINITION_FILE_MODE = 0o644;

/**
 * Writes an inline role to disk as a definition file, when the user asked for it (R9, R10).
 *
 * The file is `<cwd>/.pi/agents/<name>.md` (`project`) or `<name>.local.md` (`project-local`);
 * `.pi/agents` is created when missing. The write is atomic and NEVER replaces an existing file
 * (R8: inline input never overwrites a definition file): a complete temp file is hard-linked into
 * place, so of two concurrent persists of one name exactly one succeeds. The other half of the
 * pair (`<name>.local.md` when writing `<name>.md`, and back) must not exist either: the new file
 * would be shadowed by it, or shadow it. `markdown` must parse as a definition of `name` first.
 *
 * After it resolves, the role is a file role (scope `project` / `project-local`, source the path):
 * the caller should drop the session role (`SessionRoles.delete`) and discover again. In an
 * untrusted project discovery does not read the file; `prepareInlineRole` refuses that case.
 * @returns the absolute path written.
 * @throws TeamError `invalid_input` when the target or its pair exists (nothing is written), or
 *   for a bad `name` or `markdown`; TeamError `io_error` naming the path for any other failure.
 */
export async function persistDefinition(options: PersistDefinitionOptions): Promise<string> {
  const { name, scope } = options;
  const problem = agentNameProblem(name);
  if (problem !== undefined) throw new TeamError("invalid_input", `Cannot persist agent ${JSON.stringify(name)}: the name ${problem}.`);
  const dir = resolve(options.cwd, ".pi", "agents");
  const target = join(dir, fileName(name, scope));
  const parsed = parseAgentFile({ text: options.markdown, source: target, name, scope });
  if (!parsed.ok) {
    const errors = parsed.diagnostics.filter((d) => d.severity === "error").map((d) => d.message);
    throw new TeamError("invalid_input", `Cannot persist agent ${JSON.stringify(name)}: the definition does not parse. ${errors.join(" ")}`);
  }
  const pair = join(dir, fileName(name, scope === "project" ? "project-local" : "project"));
  if (await exists(pair)) throw existing(name, pair, target);
  const created = await createFileExclusive({
    path: target,
    content: options.markdown,
    mode: DEFINITION_FILE_MODE,
    what: "agent definition",
    ensureDir: (d) => makeDir(d),
  });
  if (!created.ok) throw existing(name, target, target);
  return target;
}

function fileName(name: string, scope: PersistScope): string {
  return scope === "project" ? `${name}.md` : `${name}.local.md`;
}

function existing(name: string, found: string, target: string): TeamError {
  const shown = JSON.stringify(name);
  const what = found === target ? `${target} already exists` : `${found} already defines that name`;
  return new TeamError(
    "invalid_input",
    `Cannot persist agent ${shown}: ${what}; nothing was written (a persisted role never overwrites or shadows a definition file). ` +
      `To use the file, spawn with agent: ${shown} and no definition; otherwise pick another name.`,
  );
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (error: unknown) {
    if (errnoCode(error) === "ENOENT") return false;
    throw new TeamError("io_error", `Cannot check ${path} before persisting an agent definition: ${errorText(error)}`, { cause: error });
  }
}

async function makeDir(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (error: unknown) {
    throw new TeamError("io_error", `Cannot create the agent definitions dir ${dir}: ${errorText(error)}`, { cause: error });
  }
}
