import { describe, expect, it } from "vitest";
import { parseAgentFile, type AgentScope, type ParsedAgentFile } from "../../../src/agents/index.ts";

const SOURCE = "/proj/.pi/agents/reviewer.md";

function parse(text: string, scope: AgentScope = "project"): ParsedAgentFile {
  return parseAgentFile({ text, source: SOURCE, name: "reviewer", scope });
}

function ok(text: string) {
  const result = parse(text);
  if (!result.ok) throw new Error(`expected a definition, got ${JSON.stringify(result.diagnostics)}`);
  return result;
}

function errors(text: string) {
  const result = parse(text);
  expect(result.ok).toBe(false);
  return result.diagnostics.filter((d) => d.severity === "error");
}

describe("parseAgentFile: tools list forms (L12)", () => {
  it("reads a comma string", () => {
    expect(ok("---\ndescription: d\ntools: read,bash\n---\nbody").agent.tools).toEqual(["read", "bash"]);
  });

  it("reads a flush-left YAML list", () => {
    expect(ok("---\ndescription: d\ntools:\n- read\n- bash\n---\nbody").agent.tools).toEqual(["read", "bash"]);
  });

  it("reads an indented YAML list", () => {
    expect(ok("---\ndescription: d\ntools:\n    - read\n    - bash\n---\nbody").agent.tools).toEqual(["read", "bash"]);
  });

  it("reads a flow list", () => {
    expect(ok("---\ndescription: d\ntools: [read, bash]\n---\nbody").agent.tools).toEqual(["read", "bash"]);
  });

  it("skips comments interleaved with list items", () => {
    const text = "---\ndescription: d\n# tools below\ntools:\n  # the reader\n  - read\n  # - edit (disabled)\n  - bash # runs tests\n---\nbody";
    expect(ok(text).agent.tools).toEqual(["read", "bash"]);
  });

  it("repairs -item with no space (YAML reads it as one string) and warns", () => {
    const result = ok("---\ndescription: d\ntools:\n  -read\n  -bash\n---\nbody");
    expect(result.agent.tools).toEqual(["read", "bash"]);
    const warning = result.diagnostics.find((d) => d.field === "tools");
    expect(warning?.severity).toBe("warning");
    expect(warning?.message).toContain('"-read"');
    expect(warning?.message).toContain("- read");
  });

  it("rejects a list mixing '- item' and '-item' as YAML, naming the file and line", () => {
    const [error] = errors("---\ntools:\n  - read\n  -bash\n---\nbody");
    expect(error?.message).toContain(SOURCE);
    expect(error?.message).toMatch(/not valid YAML.*line 4/s);
  });

  it("keeps tools undefined when the field is absent, and [] for an empty list", () => {
    expect(ok("---\ndescription: d\n---\nbody").agent.tools).toBeUndefined();
    expect(ok("---\ndescription: d\ntools: []\n---\nbody").agent.tools).toEqual([]);
  });

  it("rejects an empty tools field instead of collapsing it to an empty allowlist", () => {
    const [error] = errors("---\ntools:\n# - read\n---\nbody");
    expect(error).toMatchObject({ field: "tools", value: null });
    expect(error?.message).toContain("null (empty)");
    expect(error?.message).toContain('"read,bash"');
  });

  it("rejects non-string list items", () => {
    const [error] = errors("---\ntools:\n  - read\n  - 42\n---\nbody");
    expect(error).toMatchObject({ field: "tools", value: ["read", 42] });
  });
});

describe("parseAgentFile: fields", () => {
  it("builds a full definition", () => {
    const text =
      "---\nname: reviewer\ndescription: Reviews diffs\ntools: read\nmodel: anthropic/claude-sonnet-4\nverify: Check the tests pass\nworktree: true\n---\n\n  You review.\n\n";
    expect(ok(text).agent).toEqual({
      name: "reviewer",
      description: "Reviews diffs",
      tools: ["read"],
      model: { kind: "pin", provider: "anthropic", id: "claude-sonnet-4" },
      verify: "Check the tests pass",
      worktree: true,
      prompt: "You review.",
      scope: "project",
      gitManaged: true,
      source: SOURCE,
    });
  });

  it("is git-managed only in project scope", () => {
    for (const scope of ["user", "project-local"] as const) {
      const result = parse("---\ndescription: d\n---\nbody", scope);
      expect(result.ok && result.agent.gitManaged).toBe(false);
    }
  });

  it("reads model: inherit", () => {
    expect(ok("---\ndescription: d\nmodel: inherit\n---\nb").agent.model).toEqual({ kind: "inherit" });
  });

  it("splits a pin at the first slash, so ids may hold slashes", () => {
    expect(ok("---\ndescription: d\nmodel: openrouter/anthropic/claude-3\n---\nb").agent.model).toEqual({
      kind: "pin",
      provider: "openrouter",
      id: "anthropic/claude-3",
    });
  });

  it('rejects model: "gpt", naming the file, field, value and the accepted provider/id or inherit', () => {
    const [error] = errors("---\nmodel: gpt\n---\nb");
    expect(error).toMatchObject({ severity: "error", source: SOURCE, field: "model", value: "gpt" });
    expect(error?.message).toContain(SOURCE);
    expect(error?.message).toContain('"model"');
    expect(error?.message).toContain('"gpt"');
    expect(error?.message).toContain('"provider/id"');
    expect(error?.message).toContain('"inherit"');
  });

  it.each(["Inherit", "/id", "provider/", "a b/c", "provider/ id"])("rejects model %j", (model) => {
    expect(errors(`---\nmodel: "${model}"\n---\nb`)[0]?.field).toBe("model");
  });

  it('rejects worktree: "yes" and unquoted yes (not a YAML 1.2 boolean)', () => {
    for (const value of ['"yes"', "yes"]) {
      const [error] = errors(`---\nworktree: ${value}\n---\nb`);
      expect(error).toMatchObject({ field: "worktree", value: "yes" });
      expect(error?.message).toContain("true or false");
    }
  });

  it("defaults worktree to false", () => {
    expect(ok("---\ndescription: d\n---\nb").agent.worktree).toBe(false);
  });

  it("reports every broken field, one error each", () => {
    const fields = errors("---\nmodel: gpt\nworktree: 1\ndescription: [a]\n---\nb").map((d) => d.field);
    expect(fields.sort()).toEqual(["description", "model", "worktree"]);
  });

  it("explains a YAML date where a string is expected", () => {
    const [error] = errors("---\ndescription: 2024-01-02\n---\nb");
    expect(error?.message).toContain("date");
    expect(error?.message).toContain("quote it");
  });

  it("accepts a name equal to the file name and rejects a different one", () => {
    expect(ok("---\nname: reviewer\ndescription: d\n---\nb").agent.name).toBe("reviewer");
    const [error] = errors("---\nname: critic\n---\nb");
    expect(error).toMatchObject({ field: "name", value: "critic" });
    expect(error?.message).toContain('"reviewer"');
  });

  it("drops a blank verify", () => {
    expect(ok("---\ndescription: d\nverify: '   '\n---\nb").agent).not.toHaveProperty("verify");
  });
});

describe("parseAgentFile: warnings and text forms", () => {
  it("warns on unknown keys (including __proto__) and still loads", () => {
    const result = ok("---\ndescription: d\ncolor: red\n__proto__: {polluted: true}\n---\nb");
    const unknown = result.diagnostics.filter((d) => d.severity === "warning" && d.message.includes("unknown"));
    expect(unknown.map((d) => d.field)).toEqual(["color", "__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("loads an empty body with a warning", () => {
    const result = ok("---\ndescription: d\n---\n\n   \n");
    expect(result.agent.prompt).toBe("");
    expect(result.diagnostics.some((d) => d.severity === "warning" && d.message.includes("body"))).toBe(true);
  });

  it("loads a missing description as empty with a warning", () => {
    const result = ok("---\ntools: read\n---\nb");
    expect(result.agent.description).toBe("");
    expect(result.diagnostics.find((d) => d.field === "description")?.severity).toBe("warning");
  });

  it("reads CRLF files and normalises the body to LF", () => {
    const result = ok("---\r\ndescription: d\r\ntools:\r\n  - read\r\n  - bash\r\n---\r\nline one\r\nline two\r\n");
    expect(result.agent.tools).toEqual(["read", "bash"]);
    expect(result.agent.prompt).toBe("line one\nline two");
  });

  it("strips a UTF-8 BOM", () => {
    expect(ok("\uFEFF---\ndescription: d\n---\nb").agent.description).toBe("d");
  });

  it("treats a file without frontmatter as all body", () => {
    const result = ok("You are a reviewer.\n");
    expect(result.agent.prompt).toBe("You are a reviewer.");
  });

  it("never executes ---js frontmatter", () => {
    const text = "---js\n{ description: (() => { globalThis.__agentsPwned = true; return 'x'; })() }\n---\nb";
    const [error] = errors(text);
    expect(error?.message).toContain('"javascript"');
    expect((globalThis as Record<string, unknown>).__agentsPwned).toBeUndefined();
  });

  it("rejects frontmatter that is a list, not a mapping", () => {
    expect(errors("---\n- a\n- b\n---\nb")[0]?.message).toContain("mapping");
  });

  it("returns fresh objects for identical texts (no shared gray-matter cache)", () => {
    const text = "---\ndescription: d\ntools: [read]\n---\nb";
    const first = ok(text).agent;
    first.tools?.push("mutated");
    expect(ok(text).agent.tools).toEqual(["read"]);
  });
});
