import { describe, expect, it } from "vitest";
import { applyPrecedence, type AgentCandidate, type AgentDefinition, type AgentFileScope } from "../../../src/agents/index.ts";

function def(name: string, scope: AgentFileScope, source = `/${scope}/${name}.md`): AgentCandidate {
  const agent: AgentDefinition = {
    name,
    description: `${scope} ${name}`,
    tools: undefined,
    model: undefined,
    worktree: false,
    prompt: "p",
    scope,
    gitManaged: scope === "project",
    source,
  };
  return { status: "valid", agent };
}

function broken(name: string, scope: AgentFileScope): AgentCandidate {
  return { status: "invalid", name, scope, source: `/${scope}/${name}.md` };
}

describe("applyPrecedence (R7, R11)", () => {
  it("lets user < project < project-local, whatever the input order", () => {
    const { agents } = applyPrecedence([def("r", "project-local"), def("r", "user"), def("r", "project")]);
    expect(agents).toHaveLength(1);
    expect(agents[0]).toMatchObject({ scope: "project-local", overrides: ["/user/r.md", "/project/r.md"] });
  });

  it("has no overrides key when nothing was shadowed", () => {
    expect(applyPrecedence([def("r", "user")]).agents[0]).not.toHaveProperty("overrides");
  });

  it("sorts agents by name", () => {
    const names = applyPrecedence([def("b", "user"), def("a", "project"), def("C", "user")]).agents.map((a) => a.name);
    expect(names).toEqual(["C", "a", "b"]);
  });

  it("does not fall back to a lower scope when the deciding file is broken", () => {
    const result = applyPrecedence([def("r", "user"), def("r", "project"), broken("r", "project-local")]);
    expect(result.agents).toEqual([]);
    expect(result.skipped).toEqual([
      { source: "/project-local/r.md", scope: "project-local", name: "r", reason: "invalid definition" },
      { source: "/user/r.md", scope: "user", name: "r", reason: "shadowed by an invalid definition" },
      { source: "/project/r.md", scope: "project", name: "r", reason: "shadowed by an invalid definition" },
    ]);
  });

  it("uses a valid higher scope over a broken lower one and lists the broken one as skipped", () => {
    const result = applyPrecedence([broken("r", "user"), def("r", "project")]);
    expect(result.agents[0]).toMatchObject({ scope: "project", overrides: ["/user/r.md"] });
    expect(result.skipped).toEqual([{ source: "/user/r.md", scope: "user", name: "r", reason: "invalid definition" }]);
  });

  it("treats prototype-like names as ordinary keys (W18)", () => {
    const { agents } = applyPrecedence([def("constructor", "user"), def("toString", "project")]);
    expect(agents.map((a) => a.name)).toEqual(["constructor", "toString"]);
  });

  it("lets the later candidate win within one scope", () => {
    const { agents } = applyPrecedence([def("r", "user", "/a.md"), def("r", "user", "/b.md")]);
    expect(agents[0]).toMatchObject({ source: "/b.md", overrides: ["/a.md"] });
  });

  it("refuses a session role: those never compete with files (R7)", () => {
    const session = def("r", "user");
    if (session.status !== "valid") throw new Error("unreachable");
    const candidate: AgentCandidate = { status: "valid", agent: { ...session.agent, scope: "session", source: "session:r" } };
    expect(() => applyPrecedence([candidate])).toThrow(/session:r is a session role \(use withSessionRoles\)/);
  });
});
