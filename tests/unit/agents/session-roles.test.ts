import { describe, expect, it } from "vitest";
import {
  inlineDefinitionConflict,
  parseAgentFile,
  parseInlineDefinition,
  prepareInlineRole,
  resolveAgent,
  SessionRoles,
  withSessionRoles,
  type AgentDefinition,
  type AgentDiscovery,
  type InlineDefinitionResult,
} from "../../../src/agents/index.ts";
import { TeamError } from "../../../src/errors.ts";

const base = { description: "Reviews diffs", tools: "read,bash", prompt: "You review diffs.\nReport findings." };

function ok(result: InlineDefinitionResult): Extract<InlineDefinitionResult, { ok: true }> {
  if (!result.ok) throw new Error(`expected ok, got: ${result.message}`);
  return result;
}

function refused(result: InlineDefinitionResult): string {
  if (result.ok) throw new Error("expected a refusal");
  return result.message;
}

function fileAgent(name: string, scope: "user" | "project" | "project-local" = "project"): AgentDefinition {
  return {
    name,
    description: `file ${name}`,
    tools: undefined,
    model: undefined,
    worktree: false,
    prompt: "p",
    scope,
    gitManaged: scope === "project",
    source: `/p/.pi/agents/${name}.md`,
  };
}

function discovery(partial: Partial<AgentDiscovery> = {}): AgentDiscovery {
  return { agents: [], diagnostics: [], skipped: [], searched: { user: "/u/agents", project: "/p/.pi/agents" }, ...partial };
}

describe("parseInlineDefinition (R5, R8, R9, L26)", () => {
  it("turns an object into a session role with the markdown of a file", () => {
    const result = ok(parseInlineDefinition("reviewer", { ...base, model: "inherit", verify: "Check tests", worktree: false }));
    expect(result.definition).toEqual({
      name: "reviewer",
      description: "Reviews diffs",
      tools: ["read", "bash"],
      model: { kind: "inherit" },
      verify: "Check tests",
      worktree: false,
      prompt: "You review diffs.\nReport findings.",
      scope: "session",
      gitManaged: false,
      source: "session:reviewer",
    });
    expect(result.persist).toBeUndefined();
    expect(result.markdown).toBe(
      "---\ndescription: Reviews diffs\ntools: 'read,bash'\nmodel: inherit\nverify: Check tests\nworktree: false\n---\nYou review diffs.\nReport findings.\n",
    );
    expect(result.diagnostics).toEqual([]);
  });

  it("accepts the same object as a JSON string (L26)", () => {
    const fromString = ok(parseInlineDefinition("reviewer", JSON.stringify({ ...base, tools: ["read", "bash"] })));
    const fromObject = ok(parseInlineDefinition("reviewer", { ...base, tools: ["read", "bash"] }));
    expect(fromString.definition).toEqual(fromObject.definition);
    expect(fromString.markdown).toBe(fromObject.markdown);
  });

  it("refuses a string that is not JSON, naming definition and what is accepted", () => {
    const message = refused(parseInlineDefinition("reviewer", "{description: oops"));
    expect(message).toMatch(/^Inline definition of agent "reviewer" refused\. session:reviewer: definition is a string that is not valid JSON \(/);
    expect(message).toContain("accepted: an object { description?, tools?, model?, verify?, worktree?, extensions?, prompt, persist? }");
    expect(message).toContain("or that object written as a JSON string");
  });

  it.each([
    ["a JSON array", "[1,2]", "definition is a JSON string of an array, not of an object"],
    ["a number", 7, "definition has value 7, which is not accepted"],
    ["null", null, "definition has value null, which is not accepted"],
    ["an array", [base], "definition has value [{"],
  ])("refuses %s in place of an object", (_what, value, text) => {
    expect(refused(parseInlineDefinition("reviewer", value))).toContain(text);
  });

  it("refuses unknown keys instead of dropping them, suggesting the likely key", () => {
    const result = parseInlineDefinition("reviewer", { description: "d", tool: "read", prompt: "p" });
    expect(refused(result)).toBe(
      'Inline definition of agent "reviewer" refused. session:reviewer: unknown field definition.tool (did you mean "tools"?); ' +
        "accepted fields: description, tools, model, verify, worktree, extensions, prompt, persist. Unknown fields are refused so that a typo is not silently dropped.",
    );
    expect(!result.ok && result.diagnostics[0]).toMatchObject({ severity: "error", field: "tool", source: "session:reviewer" });
  });

  it("treats prototype keys as unknown keys (W18)", () => {
    expect(refused(parseInlineDefinition("r", '{"__proto__": {"x": 1}, "prompt": "p"}'))).toContain("unknown field definition.__proto__;");
    expect(refused(parseInlineDefinition("r", { constructor: "x", prompt: "p" }))).toContain("unknown field definition.constructor;");
  });

  it("names definition.<field>, the value and what is accepted, with the parser's own wording", () => {
    expect(refused(parseInlineDefinition("reviewer", { ...base, model: "gpt" }))).toBe(
      'Inline definition of agent "reviewer" refused. session:reviewer: definition.model has value "gpt", which is not accepted; ' +
        'accepted: "provider/id" (for example "anthropic/claude-sonnet-4") or "inherit".',
    );
    expect(refused(parseInlineDefinition("reviewer", { ...base, worktree: "true" }))).toContain(
      'definition.worktree has value "true", which is not accepted; accepted: true or false',
    );
    expect(refused(parseInlineDefinition("reviewer", { ...base, tools: [1] }))).toContain("definition.tools has value [1]");
    expect(refused(parseInlineDefinition("reviewer", { ...base, description: null }))).toContain("definition.description has value null (empty)");
  });

  it("requires a non-blank string prompt", () => {
    expect(refused(parseInlineDefinition("r", { description: "d" }))).toContain("definition.prompt is missing; accepted: a non-blank string");
    expect(refused(parseInlineDefinition("r", { prompt: "  \n" }))).toContain('definition.prompt has value "  \\n", which is not accepted');
    expect(refused(parseInlineDefinition("r", { prompt: 3 }))).toContain("definition.prompt has value 3");
  });

  it("reads persist and refuses any other value", () => {
    expect(ok(parseInlineDefinition("r", { ...base, persist: "project-local" })).persist).toBe("project-local");
    expect(refused(parseInlineDefinition("r", { ...base, persist: "user" }))).toContain(
      'definition.persist has value "user", which is not accepted; accepted: "project" (writes .pi/agents/r.md) or "project-local"',
    );
  });

  it("accepts definition.name only when it equals the agent argument, and leaves it out of the file", () => {
    expect(ok(parseInlineDefinition("r", { ...base, name: "r" })).markdown).not.toContain("name:");
    expect(refused(parseInlineDefinition("r", { ...base, name: "x" }))).toContain(
      'definition.name has value "x", which differs from the agent argument "r"',
    );
  });

  it("applies the file-name rules to the agent name", () => {
    expect(refused(parseInlineDefinition("../evil", base))).toContain('the agent name "../evil", which names the inline role, is not accepted; accepted: a letter first');
    expect(refused(parseInlineDefinition("x".repeat(65), base))).toContain("is 65 characters long");
  });

  it("gives the warnings a file gets (no description) and keeps keys set to undefined out", () => {
    const result = ok(parseInlineDefinition("r", { prompt: "Do it.", model: undefined }));
    expect(result.markdown).toBe("---\n---\nDo it.\n");
    expect(result.diagnostics.map((d) => d.message)).toEqual([
      'session:r: no description; the leader sees the role without one. Add "description: <what the role is for>".',
    ]);
  });

  it("keeps a prompt that starts with --- and YAML-looking values intact", () => {
    const value = { description: "yes", verify: "2024-01-01", prompt: "---\nnot: frontmatter\n---\nbody" };
    const result = ok(parseInlineDefinition("r", value));
    expect(result.definition).toMatchObject({ description: "yes", verify: "2024-01-01", prompt: value.prompt });
    const empty = ok(parseInlineDefinition("r", { prompt: "---\nx: 1\n---\nbody" }));
    expect(empty.definition.prompt).toBe("---\nx: 1\n---\nbody");
  });

  it("renders markdown that a file parse turns back into the same definition", () => {
    const result = ok(parseInlineDefinition("r", { ...base, description: "two\nlines: here", model: "openrouter/a/b", verify: "x ".repeat(80) }));
    const file = parseAgentFile({ text: result.markdown, source: "/p/.pi/agents/r.md", name: "r", scope: "project" });
    expect(file.ok && file.agent).toEqual({ ...result.definition, scope: "project", gitManaged: true, source: "/p/.pi/agents/r.md" });
  });
});

describe("SessionRoles (R8, R10, L13)", () => {
  it("registers, replaces a role of the same name, lists sorted and forgets", () => {
    const roles = new SessionRoles();
    const first = ok(parseInlineDefinition("writer", { ...base, description: "first" })).definition;
    const second = ok(parseInlineDefinition("writer", { ...base, description: "corrected" })).definition;
    expect(roles.register(first)).toBeUndefined();
    roles.register(ok(parseInlineDefinition("analyst", base)).definition);
    expect(roles.register(second)).toBe(first);
    expect(roles.get("writer")?.description).toBe("corrected");
    expect(roles.list().map((r) => r.name)).toEqual(["analyst", "writer"]);
    expect(roles.size).toBe(2);
    expect(roles.delete("writer")).toBe(true);
    expect(roles.get("writer")).toBeUndefined();
    roles.clear();
    expect(roles.list()).toEqual([]);
  });

  it("keeps prototype names as plain keys (W18)", () => {
    const roles = new SessionRoles();
    expect(roles.get("constructor")).toBeUndefined();
    roles.register(ok(parseInlineDefinition("constructor", base)).definition);
    expect(roles.get("constructor")?.name).toBe("constructor");
  });

  it("refuses a file definition", () => {
    const error = (() => {
      try {
        new SessionRoles().register(fileAgent("r"));
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(TeamError);
    expect((error as TeamError).code).toBe("invalid_input");
  });
});

describe("inlineDefinitionConflict (R8)", () => {
  it("is undefined for a name no file defines, and ignores merged session roles", () => {
    const role = ok(parseInlineDefinition("r", base)).definition;
    expect(inlineDefinitionConflict(discovery({ agents: [role] }), "r")).toBeUndefined();
  });

  it("names the file and says to spawn with no definition or pick another name", () => {
    expect(inlineDefinitionConflict(discovery({ agents: [fileAgent("reviewer")] }), "reviewer")).toBe(
      'Agent "reviewer" is already defined by /p/.pi/agents/reviewer.md (project scope); an inline definition never overrides or overwrites ' +
        'a definition file. To use that role, spawn with agent: "reviewer" and no definition; for a different role, pick another name.',
    );
  });

  it("counts a file skipped as untrusted, and an invalid file with its errors", () => {
    const untrusted = discovery({ skipped: [{ source: "/p/.pi/agents/r.local.md", scope: "project-local", name: "r", reason: "project not trusted" }] });
    expect(inlineDefinitionConflict(untrusted, "r")).toContain("/p/.pi/agents/r.local.md, which is not read because this project is not trusted");
    const invalid = discovery({
      skipped: [
        { source: "/u/agents/r.md", scope: "user", name: "r", reason: "shadowed by an invalid definition" },
        { source: "/p/.pi/agents/r.md", scope: "project", name: "r", reason: "invalid definition" },
      ],
      diagnostics: [{ severity: "error", source: "/p/.pi/agents/r.md", message: "bad model" }],
    });
    expect(inlineDefinitionConflict(invalid, "r")).toBe(
      'Agent "r" is already defined by /p/.pi/agents/r.md and /u/agents/r.md, which is invalid (bad model); an inline definition never ' +
        'overrides or overwrites a definition file. Fix the file and spawn with agent: "r" and no definition, or pick another name.',
    );
  });
});

describe("prepareInlineRole", () => {
  it("checks the file conflict first, then the definition, then persist in an untrusted project", () => {
    const files = discovery({ agents: [fileAgent("reviewer")] });
    expect(prepareInlineRole({ discovery: files, name: "reviewer", definition: "garbage" })).toMatchObject({ ok: false, reason: "file_defined" });
    expect(prepareInlineRole({ discovery: files, name: "other", definition: "garbage" })).toMatchObject({ ok: false, reason: "invalid" });
    const persisted = { ...base, persist: "project" };
    const untrusted = prepareInlineRole({ discovery: files, name: "other", definition: persisted, projectTrusted: false });
    expect(untrusted).toMatchObject({ ok: false, reason: "untrusted_persist" });
    expect(!untrusted.ok && untrusted.message).toContain("definition.persist is \"project\", but this project is not trusted");
    expect(prepareInlineRole({ discovery: files, name: "other", definition: persisted, projectTrusted: true })).toMatchObject({ ok: true, persist: "project" });
  });
});

describe("withSessionRoles (R7, R12)", () => {
  it("adds session roles for names no file defines, sorted, and resolveAgent finds them", () => {
    const roles = new SessionRoles();
    roles.register(ok(parseInlineDefinition("analyst", base)).definition);
    const merged = withSessionRoles(discovery({ agents: [fileAgent("reviewer")] }), roles);
    expect(merged.agents.map((a) => `${a.name}:${a.scope}`)).toEqual(["analyst:session", "reviewer:project"]);
    const found = resolveAgent(merged, "analyst");
    expect(found.ok && found.agent).toMatchObject({ scope: "session", gitManaged: false, source: "session:analyst" });
    expect(resolveAgent(merged, "nobody")).toMatchObject({ ok: false, message: expect.stringContaining("analyst (session), reviewer (project)") });
  });

  it("lets a file added later win, with a warning, and is idempotent", () => {
    const role = ok(parseInlineDefinition("reviewer", base)).definition;
    const before = discovery();
    const merged = withSessionRoles(withSessionRoles(discovery({ agents: [fileAgent("reviewer")] }), [role]), [role]);
    expect(merged.agents).toEqual([fileAgent("reviewer")]);
    expect(merged.diagnostics).toEqual([
      {
        severity: "warning",
        source: "session:reviewer",
        message:
          'session:reviewer: the session role "reviewer" is not used: /p/.pi/agents/reviewer.md defines that name, and a definition file always wins over a session role.',
      },
    ]);
    expect(before.agents).toEqual([]);
  });

  it("leaves a name blocked by an untrusted or invalid file unavailable", () => {
    const role = ok(parseInlineDefinition("r", base)).definition;
    const untrusted = discovery({ skipped: [{ source: "/p/.pi/agents/r.md", scope: "project", name: "r", reason: "project not trusted" }] });
    const merged = withSessionRoles(untrusted, [role]);
    expect(merged.agents).toEqual([]);
    expect(resolveAgent(merged, "r")).toMatchObject({ ok: false, reason: "untrusted" });
  });
});
