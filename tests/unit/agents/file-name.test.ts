import { describe, expect, it } from "vitest";
import { classifyAgentFile } from "../../../src/agents/index.ts";

describe("classifyAgentFile (R10, R11)", () => {
  it("maps project <name>.md to project scope and <name>.local.md to project-local", () => {
    expect(classifyAgentFile("reviewer.md", "project")).toEqual({ kind: "agent", name: "reviewer", scope: "project" });
    expect(classifyAgentFile("reviewer.local.md", "project")).toEqual({ kind: "agent", name: "reviewer", scope: "project-local" });
  });

  it("keeps every user-dir file in user scope; .local.md defines '<name>.local' with a warning", () => {
    expect(classifyAgentFile("reviewer.md", "user")).toEqual({ kind: "agent", name: "reviewer", scope: "user" });
    const local = classifyAgentFile("reviewer.local.md", "user");
    expect(local).toMatchObject({ kind: "agent", name: "reviewer.local", scope: "user" });
    expect(local.kind === "agent" && local.warning).toContain('"reviewer.md"');
  });

  it.each(["notes.txt", "reviewer.MD", "reviewer.md.bak", ".#reviewer.md", ".hidden.md", ".local.md"])(
    "ignores %j",
    (file) => expect(classifyAgentFile(file, "project")).toEqual({ kind: "ignored" }),
  );

  it.each(["__proto__.md", "constructor .md", "1st.md", "-x.md", "a b.md", `${"a".repeat(65)}.md`])(
    "refuses the name of %j",
    (file) => {
      const result = classifyAgentFile(file, "project");
      expect(result.kind).toBe("bad-name");
      expect(result.kind === "bad-name" && result.message).toContain(JSON.stringify(file));
    },
  );

  it("accepts a 64-character name and dotted names", () => {
    expect(classifyAgentFile(`${"a".repeat(64)}.md`, "user").kind).toBe("agent");
    expect(classifyAgentFile("code.review-v2_x.md", "user").kind).toBe("agent");
  });
});
