import { AGENT_FILE_SCOPES, type AgentDefinition, type AgentFileScope, type SkippedAgentFile } from "./types.ts";

/** A file that took part in precedence: it parsed into a definition, or it was broken. */
export type AgentCandidate =
  | { status: "valid"; agent: AgentDefinition }
  | { status: "invalid"; name: string; scope: AgentFileScope; source: string };

/** Usable agents sorted by name, and the candidate files that lost. */
export interface PrecedenceResult {
  agents: AgentDefinition[];
  skipped: SkippedAgentFile[];
}

/**
 * Applies discovery precedence per name (R7, R11): user < project < project-local; the highest
 * scope present decides. Pure.
 *
 * - A `<name>.md` + `<name>.local.md` pair is one entry: the local file, with the other in `overrides`.
 * - The winner lists every lower-scope file of its name in `overrides` (absent when none).
 * - A broken highest-scope file does not fall back to a lower scope: the name is unavailable, the
 *   broken file is skipped as "invalid definition" and the lower files as "shadowed by an invalid
 *   definition". Silently using a shared role the user meant to override would be worse than an
 *   error they can see and fix.
 * - Within one scope (not produced by discovery) the later candidate wins.
 * Uses a `Map`, so names such as `constructor` are plain keys (W18).
 * @throws TypeError for a `session` definition among the candidates: a caller bug, since session
 * roles never compete with files (R7) and are merged by `withSessionRoles` instead.
 */
export function applyPrecedence(candidates: readonly AgentCandidate[]): PrecedenceResult {
  const byName = new Map<string, AgentCandidate[]>();
  for (const candidate of candidates) {
    candidateScope(candidate); // throws for a session role
    const name = candidateName(candidate);
    const group = byName.get(name);
    if (group === undefined) byName.set(name, [candidate]);
    else group.push(candidate);
  }
  const agents: AgentDefinition[] = [];
  const skipped: SkippedAgentFile[] = [];
  for (const group of byName.values()) {
    // Stable sort: equal ranks keep input order, so the later one ends up last and wins.
    const ranked = [...group].sort((a, b) => rank(candidateScope(a)) - rank(candidateScope(b)));
    const winner = ranked[ranked.length - 1];
    if (winner === undefined) continue;
    const losers = ranked.slice(0, -1);
    if (winner.status === "valid") {
      const overrides = losers.map(candidateSource);
      agents.push(overrides.length > 0 ? { ...winner.agent, overrides } : winner.agent);
      for (const loser of losers) if (loser.status === "invalid") skipped.push(skip(loser, "invalid definition"));
    } else {
      skipped.push(skip(winner, "invalid definition"));
      for (const loser of losers) {
        skipped.push(skip(loser, loser.status === "invalid" ? "invalid definition" : "shadowed by an invalid definition"));
      }
    }
  }
  agents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { agents, skipped };
}

function rank(scope: AgentFileScope): number {
  return AGENT_FILE_SCOPES.indexOf(scope);
}

function candidateName(c: AgentCandidate): string {
  return c.status === "valid" ? c.agent.name : c.name;
}

/** Discovery only builds candidates from files; a session role here is a caller's bug. */
function candidateScope(c: AgentCandidate): AgentFileScope {
  const scope = c.status === "valid" ? c.agent.scope : c.scope;
  if (scope === "session") throw new TypeError(`applyPrecedence takes file definitions only; ${candidateSource(c)} is a session role (use withSessionRoles)`);
  return scope;
}

function candidateSource(c: AgentCandidate): string {
  return c.status === "valid" ? c.agent.source : c.source;
}

function skip(c: AgentCandidate, reason: SkippedAgentFile["reason"]): SkippedAgentFile {
  return { source: candidateSource(c), scope: candidateScope(c), name: candidateName(c), reason };
}
