import { NAME_CHARS_PATTERN, TEAMMATE_NAME_MAX_LENGTH } from "../mail/names.ts";
import type { AgentFileScope } from "./types.ts";

/** Which directory a file was found in: the user agents dir or the project `.pi/agents` dir. */
export type AgentDirKind = "user" | "project";

/** What a file name in an agents directory means. */
export type AgentFileName =
  | { kind: "ignored" }
  | { kind: "agent"; name: string; scope: AgentFileScope; warning?: string }
  | { kind: "bad-name"; name: string; scope: AgentFileScope; message: string };

const LOCAL_SUFFIX = ".local.md";

/**
 * Maps a directory entry name to the agent it defines (R10, R11). Pure.
 *
 * - Only names ending in lower-case `.md` count; dotfiles (editor locks such as `.#x.md`) are ignored.
 * - Project dir: `<name>.local.md` is project-local scope, `<name>.md` is project scope; the two
 *   share the name, so they form one entry.
 * - User dir: every file is user scope and the name is the file name without `.md`. The `.local`
 *   convention has no meaning there (the user dir is already personal), so `x.local.md` defines
 *   `x.local`, with a warning saying so.
 * - The name must look like a teammate-safe identifier (a letter, then letters, digits, `.`, `_`,
 *   `-`, at most 64 characters); this also keeps `__proto__.md` and friends out (W18).
 */
export function classifyAgentFile(fileName: string, dir: AgentDirKind): AgentFileName {
  if (!fileName.endsWith(".md") || fileName.startsWith(".")) return { kind: "ignored" };
  let name = fileName.slice(0, -".md".length);
  let scope: AgentFileScope = dir === "user" ? "user" : "project";
  let warning: string | undefined;
  if (fileName.endsWith(LOCAL_SUFFIX)) {
    if (dir === "project") {
      name = fileName.slice(0, -LOCAL_SUFFIX.length);
      scope = "project-local";
    } else {
      warning =
        `"${fileName}" defines the agent "${name}": the .local.md override convention applies only in ` +
        `<cwd>/.pi/agents/; in the user dir every file is user scope. Rename it to "${name.slice(0, -".local".length)}.md" ` +
        `if you meant that agent.`;
    }
  }
  const problem = agentNameProblem(name);
  if (problem !== undefined) {
    return { kind: "bad-name", name, scope, message: `file name "${fileName}" gives the agent name "${name}", which ${problem}. Rename the file` };
  }
  return warning === undefined ? { kind: "agent", name, scope } : { kind: "agent", name, scope, warning };
}

/**
 * Says what is wrong with an agent name, or `undefined` when it is acceptable (the rules of
 * {@link classifyAgentFile}; also applied to the name of an inline session role). Pure.
 * @returns a clause to follow "which", e.g. `is 70 characters long; accepted: a letter first, ...`.
 */
export function agentNameProblem(name: string): string | undefined {
  const accepted = `a letter first, then letters, digits, ".", "_" or "-", at most ${TEAMMATE_NAME_MAX_LENGTH} characters`;
  if (name.length > TEAMMATE_NAME_MAX_LENGTH) return `is ${name.length} characters long; accepted: ${accepted}`;
  if (!NAME_CHARS_PATTERN.test(name)) return `is not accepted; accepted: ${accepted}`;
  return undefined;
}
