import { describe, expect, it } from "vitest";
import { formatAgentGuidance, formatUntrustedAgentsHint, type AgentDefinition } from "../../../src/agents/index.ts";

const base: AgentDefinition = {
  name: "reviewer",
  description: "Reviews diffs\nfor bugs",
  tools: ["read", "bash"],
  model: { kind: "inherit" },
  worktree: false,
  prompt: "p",
  scope: "project",
  gitManaged: true,
  source: "/p/.pi/agents/reviewer.md",
};

describe("formatAgentGuidance (R12)", () => {
  it("writes one line per agent with name, scope, description, tools and model", () => {
    const text = formatAgentGuidance([
      base,
      { ...base, name: "writer", scope: "user", gitManaged: false, tools: undefined, model: undefined, description: "" },
      { ...base, name: "fixer", scope: "project-local", gitManaged: false, tools: [], worktree: true,
        model: { kind: "pin", provider: "anthropic", id: "claude-sonnet-4" } },
    ]);
    expect(text.split("\n")).toEqual([
      "- reviewer (project scope: meant to be committed): Reviews diffs for bugs · tools: read, bash · model: inherit",
      "- writer (user scope): (no description) · tools: team tools only · model: team default",
      "- fixer (project-local scope: a personal override): Reviews diffs for bugs · tools: team tools only · model: anthropic/claude-sonnet-4 · worktree: true (its own git worktree on a new branch; its work is kept on that branch when it stops)",
    ]);
  });

  it("labels a session role as held in memory for this session only", () => {
    expect(formatAgentGuidance([{ ...base, name: "analyst", scope: "session", gitManaged: false, source: "session:analyst" }])).toBe(
      "- analyst (session role: in memory for this session only, no file): Reviews diffs for bugs · tools: read, bash · model: inherit",
    );
  });

  it("is empty for no agents", () => {
    expect(formatAgentGuidance([])).toBe("");
  });
});

describe("formatUntrustedAgentsHint", () => {
  const skip = (source: string, reason: "project not trusted" | "invalid definition") =>
    ({ source, scope: "project" as const, name: "x", reason });

  it("counts the project files skipped because the project is not trusted", () => {
    expect(formatUntrustedAgentsHint({ skipped: [skip("/p/a.md", "project not trusted"), skip("/p/b.local.md", "project not trusted"), skip("/u/c.md", "invalid definition")] }))
      .toBe("(2 project agent files skipped: project not trusted; start pi with -a or trust the project with /trust)");
    expect(formatUntrustedAgentsHint({ skipped: [skip("/p/a.md", "project not trusted")] }))
      .toBe("(1 project agent file skipped: project not trusted; start pi with -a or trust the project with /trust)");
  });

  it("is undefined when nothing was skipped for want of trust", () => {
    expect(formatUntrustedAgentsHint({ skipped: [] })).toBeUndefined();
    expect(formatUntrustedAgentsHint({ skipped: [skip("/p/a.md", "invalid definition")] })).toBeUndefined();
  });
});
