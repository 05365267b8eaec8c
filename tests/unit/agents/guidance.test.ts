import { describe, expect, it } from "vitest";
import { formatAgentGuidance, type AgentDefinition } from "../../../src/agents/index.ts";

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
  it("writes one line per agent with name, scope, git, description, tools and model", () => {
    const text = formatAgentGuidance([
      base,
      { ...base, name: "writer", scope: "user", gitManaged: false, tools: undefined, model: undefined, description: "" },
      { ...base, name: "fixer", scope: "project-local", gitManaged: false, tools: [], worktree: true,
        model: { kind: "pin", provider: "anthropic", id: "claude-sonnet-4" } },
    ]);
    expect(text.split("\n")).toEqual([
      "- reviewer (project, git-managed): Reviews diffs for bugs · tools: read, bash · model: inherit",
      "- writer (user, not git-managed): (no description) · tools: team tools only · model: default",
      "- fixer (project-local, not git-managed): Reviews diffs for bugs · tools: team tools only · model: anthropic/claude-sonnet-4 · own git worktree",
    ]);
  });

  it("is empty for no agents", () => {
    expect(formatAgentGuidance([])).toBe("");
  });
});
