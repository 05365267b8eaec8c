import { readdirSync, readFileSync, statSync, type Dirent } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { errorText } from "../error-text.ts";
import { decodeAgentFile, MAX_AGENT_FILE_BYTES, tooLarge } from "./file-text.ts";
import { classifyAgentFile, type AgentDirKind } from "./file-name.ts";
import { parseAgentFile } from "./parse.ts";
import { applyPrecedence, type AgentCandidate } from "./precedence.ts";
import type { AgentDiagnostic, AgentDiscovery, AgentFileScope, SkippedAgentFile } from "./types.ts";

/** Inputs of {@link discoverAgents}. */
export interface DiscoverAgentsOptions {
  /** Pi's agent dir: `PI_CODING_AGENT_DIR` or `~/.pi/agent` (`agentDir()` in `src/store/layout.ts`). */
  agentDir: string;
  /** The project root whose `.pi/agents/` is searched. */
  cwd: string;
  /**
   * Whether project files may be used: pass `ctx.isProjectTrusted()` (ExtensionContext, Pi 1.6.0).
   * When false, project and project-local files are not even read; each is listed in `skipped`.
   */
  trusted: boolean;
}

/**
 * The two directories discovery searches (R10): `<agentDir>/agents` (user scope) and
 * `<cwd>/.pi/agents` (project and project-local scope), both made absolute. Pure; never throws.
 */
export function agentDirs(options: Pick<DiscoverAgentsOptions, "agentDir" | "cwd">): { user: string; project: string } {
  return { user: resolve(options.agentDir, "agents"), project: resolve(options.cwd, ".pi", "agents") };
}

/**
 * Finds the agent definitions of the user and the project (R5, R7, R10–R12, W15).
 *
 * Searches `<agentDir>/agents/*.md` (user scope) and `<cwd>/.pi/agents/*.md` (project, or
 * project-local for `<name>.local.md`), non-recursively. Symlinks are followed (agent files are
 * often linked from a dotfiles repo); a dangling link is an error diagnostic. Dotfiles and names
 * not ending in `.md` are ignored; a directory named `x.md` (or a link to one) is ignored with a
 * warning diagnostic naming it. A missing directory is not a problem and gives no diagnostic.
 * Each file is parsed on its own: a broken file becomes an error diagnostic plus a `skipped`
 * entry and never stops the others. No built-in roles are added (R9).
 *
 * Never rejects: unreadable directories or files, files over 64 KB, binary files and files whose
 * parse fails in any way become error diagnostics (and `skipped` entries). The file system calls
 * are synchronous on purpose: the leader discovers before every one of its model turns, and a few
 * small local reads in one go cost far less than their async round trips on a loaded machine
 * (about 7 ms a turn measured, docs/benchmarks.md "Real leader pi").
 */
export async function discoverAgents(options: DiscoverAgentsOptions): Promise<AgentDiscovery> {
  const searched = agentDirs(options);
  const diagnostics: AgentDiagnostic[] = [];
  const skipped: SkippedAgentFile[] = [];
  const candidates: AgentCandidate[] = [];
  const scan = (dir: string, kind: AgentDirKind, readable: boolean): void => {
    for (const entry of listDir(dir, diagnostics)) {
      const file = classifyAgentFile(entry.name, kind);
      if (file.kind === "ignored") continue;
      const source = join(dir, entry.name);
      if (!readable) {
        if (!entry.isFile() && !entry.isSymbolicLink()) continue;
        skipped.push({ source, scope: file.scope, ...(file.kind === "agent" ? { name: file.name } : {}), reason: "project not trusted" });
        continue;
      }
      const name = file.kind === "agent" ? file.name : undefined;
      if (!(isRegularFile(entry, { source, scope: file.scope, name }, diagnostics, skipped))) continue;
      if (file.kind === "bad-name") {
        diagnostics.push({ severity: "error", source, message: `${source}: ${file.message}.` });
        skipped.push({ source, scope: file.scope, reason: "invalid definition" });
        continue;
      }
      if (file.warning !== undefined) diagnostics.push({ severity: "warning", source, message: `${source}: ${file.warning}` });
      candidates.push(loadCandidate(source, file.name, file.scope, diagnostics));
    }
  };
  scan(searched.user, "user", true);
  scan(searched.project, "project", options.trusted);
  const merged = applyPrecedence(candidates);
  return { agents: merged.agents, diagnostics, skipped: [...skipped, ...merged.skipped], searched };
}

/** Entries sorted by name; `[]` for a missing directory; other failures become a diagnostic. */
function listDir(dir: string, diagnostics: AgentDiagnostic[]): Dirent[] {
  try {
    const entries = readdirSync(dir, { withFileTypes: true });
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (error: unknown) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return [];
    diagnostics.push({ severity: "error", source: dir, message: `${dir}: cannot list agent definitions: ${errorText(error)}.` });
    return [];
  }
}

/**
 * True for a file or a symlink to a file; a dangling symlink is reported and skipped. Anything
 * else with an agent-file name (a directory `x.md`, or a link to one) is ignored with a warning
 * naming it, so it does not vanish silently.
 */
function isRegularFile(
  entry: Dirent,
  file: { source: string; scope: AgentFileScope; name: string | undefined },
  diagnostics: AgentDiagnostic[],
  skipped: SkippedAgentFile[],
): boolean {
  if (entry.isFile()) return true;
  const { source, scope, name } = file;
  const notAFile = (what: string): false => {
    diagnostics.push({
      severity: "warning",
      source,
      message: `${source}: ${what}, not an agent file; ignored. Agent files are <name>.md files directly in ${dirname(source)} (subdirectories are not searched).`,
    });
    return false;
  };
  if (!entry.isSymbolicLink()) return notAFile(entry.isDirectory() ? "is a directory" : "is not a regular file");
  try {
    const target = statSync(source);
    return target.isFile() || notAFile(target.isDirectory() ? "is a symlink to a directory" : "is a symlink to something that is not a regular file");
  } catch (error: unknown) {
    diagnostics.push({
      severity: "error",
      source,
      message: `${source}: symlink target cannot be read (${errorText(error)}); fix or remove the link.`,
    });
    skipped.push({ source, scope, ...(name === undefined ? {} : { name }), reason: "invalid definition" });
    return false;
  }
}

/**
 * Reads and parses one file, each step guarded: an unreadable, oversized or binary file, or one
 * whose parse throws for any reason, is an error diagnostic naming the file and an invalid
 * candidate, so no single file can make discovery reject.
 */
function loadCandidate(
  source: string,
  name: string,
  scope: AgentFileScope,
  diagnostics: AgentDiagnostic[],
): AgentCandidate {
  const invalid = (message: string): AgentCandidate => {
    diagnostics.push({ severity: "error", source, message: `${source}: ${message}.` });
    return { status: "invalid", name, scope, source };
  };
  let bytes: Buffer;
  try {
    // The size on disk first, so a huge file is never read into memory.
    const size = statSync(source).size;
    if (size > MAX_AGENT_FILE_BYTES) return invalid(`${tooLarge(size)}; the file is skipped`);
    bytes = readFileSync(source);
  } catch (error: unknown) {
    return invalid(`cannot read the file: ${errorText(error)}`);
  }
  const decoded = decodeAgentFile(bytes);
  if (!decoded.ok) return invalid(`${decoded.message}; the file is skipped`);
  try {
    const parsed = parseAgentFile({ text: decoded.text, source, name, scope });
    diagnostics.push(...parsed.diagnostics);
    return parsed.ok ? { status: "valid", agent: parsed.agent } : { status: "invalid", name, scope, source };
  } catch (error: unknown) {
    return invalid(`cannot be parsed (${errorText(error)}); the file is skipped`);
  }
}
