import { describe, expect, it } from "vitest";
import { resolveAgent, type AgentDefinition, type AgentDiscovery } from "../../../src/agents/index.ts";

const reviewer: AgentDefinition = {
  name: "reviewer",
  description: "d",
  tools: undefined,
  model: undefined,
  worktree: false,
  prompt: "p",
  scope: "project",
  gitManaged: true,
  source: "/p/.pi/agents/reviewer.md",
};

const discovery: AgentDiscovery = {
  agents: [reviewer, { ...reviewer, name: "writer", scope: "user", gitManaged: false, source: "/u/agents/writer.md" }],
  diagnostics: [
    { severity: "error", source: "/p/.pi/agents/broken.md", field: "model", value: "gpt", message: "broken.md: field \"model\" ..." },
  ],
  skipped: [
    { source: "/p/.pi/agents/broken.md", scope: "project", name: "broken", reason: "invalid definition" },
    { source: "/q/.pi/agents/secret.md", scope: "project", name: "secret", reason: "project not trusted" },
  ],
  searched: { user: "/u/agents", project: "/p/.pi/agents" },
};

describe("resolveAgent (R12)", () => {
  it("returns the definition with scope and gitManaged", () => {
    const result = resolveAgent(discovery, "reviewer");
    expect(result).toEqual({ ok: true, agent: reviewer });
  });

  it("lists the available agents with their scopes when the name is unknown", () => {
    const result = resolveAgent(discovery, "tester");
    expect(result).toMatchObject({ ok: false, reason: "not_found" });
    if (result.ok) return;
    expect(result.message).toContain("reviewer (project), writer (user)");
    expect(result.message).toContain("/u/agents/<name>.md");
    expect(result.available).toEqual([
      { name: "reviewer", scope: "project" },
      { name: "writer", scope: "user" },
    ]);
  });

  it("suggests a case-insensitive match without resolving it", () => {
    const result = resolveAgent(discovery, "Reviewer");
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toContain('Did you mean "reviewer"?');
  });

  it("explains a broken definition with its error", () => {
    const result = resolveAgent(discovery, "broken");
    expect(result).toMatchObject({ ok: false, reason: "invalid" });
    expect(!result.ok && result.message).toContain('field "model"');
  });

  it("explains a definition hidden by an untrusted project", () => {
    const result = resolveAgent(discovery, "secret");
    expect(result).toMatchObject({ ok: false, reason: "untrusted" });
    expect(!result.ok && result.message).toContain("--approve");
  });

  it("says (none) when nothing is defined", () => {
    const empty: AgentDiscovery = { ...discovery, agents: [], skipped: [], diagnostics: [] };
    const result = resolveAgent(empty, "x");
    expect(!result.ok && result.message).toContain("Available agents: (none).");
  });

  it("does not resolve prototype keys (W18)", () => {
    expect(resolveAgent(discovery, "constructor").ok).toBe(false);
    expect(resolveAgent(discovery, "__proto__").ok).toBe(false);
  });
});
