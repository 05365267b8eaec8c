import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkExtensions, checkToolGrant, parseAgentFile, parseInlineDefinition, PI_BUILTIN_TOOLS, resolveExtensionPath, WORKER_TOOLS, type AgentDefinition } from "../../../src/agents/index.ts";

const SOURCE = "/proj/.pi/agents/gate.md";

function parse(frontmatter: string, input: { home?: string } = {}) {
  return parseAgentFile({ text: `---\ndescription: gate\n${frontmatter}\n---\nYou gate.\n`, source: SOURCE, name: "gate", scope: "project", home: "/home/me", ...input });
}

function agent(frontmatter: string): AgentDefinition {
  const result = parse(frontmatter);
  if (!result.ok) throw new Error(result.diagnostics.map((d) => d.message).join("\n"));
  return result.agent;
}

describe("resolveExtensionPath", () => {
  it("resolves relative paths against the base dir, expands ~ and normalises absolute paths", () => {
    expect(resolveExtensionPath("./gate.ts", "/proj/.pi/agents")).toBe("/proj/.pi/agents/gate.ts");
    expect(resolveExtensionPath("../../tools/gate", "/proj/.pi/agents")).toBe("/proj/tools/gate");
    expect(resolveExtensionPath("~/pi/gate.ts", "/x", "/home/me")).toBe("/home/me/pi/gate.ts");
    expect(resolveExtensionPath("~", "/x", "/home/me")).toBe("/home/me");
    expect(resolveExtensionPath("/opt/ext/../gate.ts", "/x")).toBe("/opt/gate.ts");
    expect(resolveExtensionPath("~other/gate.ts", "/x", "/home/me")).toBe("/x/~other/gate.ts"); // only ~ and ~/ expand
  });
});

describe("the extensions frontmatter field", () => {
  it("keeps each entry as written with its absolute path, relative to the agent file's directory", () => {
    expect(agent("extensions:\n  - ./gate.ts\n  - ~/pi/audit\n  - /opt/x.ts").extensions).toEqual([
      { value: "./gate.ts", path: "/proj/.pi/agents/gate.ts" },
      { value: "~/pi/audit", path: "/home/me/pi/audit" },
      { value: "/opt/x.ts", path: "/opt/x.ts" },
    ]);
    expect(agent("extensions: []").extensions).toEqual([]);
    expect(agent("tools: read").extensions).toBeUndefined();
  });

  it.each([
    ["a plain string", "extensions: ./gate.ts", '"./gate.ts"'],
    ["a number in the list", "extensions: [3]", "[3]"],
    ["an empty entry", 'extensions: [""]', '[""]'],
  ])("refuses %s, naming the file, the field and the value", (_what, line, value) => {
    const result = parse(line);
    expect(result.ok).toBe(false);
    const error = result.diagnostics.find((d) => d.severity === "error");
    expect(error).toMatchObject({ field: "extensions", source: SOURCE });
    expect(error?.message).toContain(`${SOURCE}: field "extensions" has value ${value}, which is not accepted; accepted: a YAML list of Pi extension paths`);
  });
});

describe("inline definitions with extensions", () => {
  it("resolves relative paths against the leader's cwd and writes them absolute into the markdown", () => {
    const result = parseInlineDefinition("gate", { extensions: ["tools/gate.ts"], prompt: "You gate." }, { cwd: "/proj" });
    if (!result.ok) throw new Error(result.message);
    expect(result.definition.extensions).toEqual([{ value: "tools/gate.ts", path: "/proj/tools/gate.ts" }]);
    expect(result.markdown).toContain("- /proj/tools/gate.ts");
    const back = parseAgentFile({ text: result.markdown, source: "/proj/.pi/agents/gate.md", name: "gate", scope: "project" });
    expect(back.ok && back.agent.extensions).toEqual([{ value: "/proj/tools/gate.ts", path: "/proj/tools/gate.ts" }]);
  });

  it("suggests extensions for the key extension", () => {
    const result = parseInlineDefinition("gate", { extension: ["x.ts"], prompt: "p" });
    expect(!result.ok && result.message).toContain('definition.extension (did you mean "extensions"?)');
  });
});

describe("checkExtensions", () => {
  const dir = mkdtempSync(join(tmpdir(), "extensions-test-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("gives the paths in field order, once each, when all exist", () => {
    writeFileSync(join(dir, "a.ts"), "");
    const role = { name: "gate", source: join(dir, "gate.md"), scope: "project" as const, extensions: [{ value: "./a.ts", path: join(dir, "a.ts") }, { value: dir, path: dir }, { value: "a.ts", path: join(dir, "a.ts") }] };
    expect(checkExtensions(role)).toEqual({ ok: true, paths: [join(dir, "a.ts"), dir] });
    expect(checkExtensions({ ...role, extensions: undefined })).toEqual({ ok: true, paths: [] });
  });

  it("refuses a missing path naming the role file, the field, the value and the resolved path", () => {
    const role = { name: "gate", source: join(dir, "gate.md"), scope: "user" as const, extensions: [{ value: "./nope.ts", path: join(dir, "nope.ts") }] };
    const result = checkExtensions(role);
    expect(result).toEqual({
      ok: false,
      message:
        `agent "gate" (${join(dir, "gate.md")}): field "extensions" has the value "./nope.ts" (resolved to ${join(dir, "nope.ts")}), where nothing exists; ` +
        "each entry must name a Pi extension file or package directory (a relative path starts at the directory of the agent file, ~/ at the home directory). " +
        "Fix or remove the entry and spawn again; nothing was started.",
    });
    const inline = checkExtensions({ ...role, scope: "session", source: "session:gate" });
    expect(!inline.ok && inline.message).toContain('agent "gate" (session:gate): definition.extensions has the value "./nope.ts"');
    expect(!inline.ok && inline.message).toContain("a relative path starts at the leader's working directory");
  });

  it("treats an existence test that throws as missing", () => {
    const role = { name: "gate", source: "/a/gate.md", scope: "user" as const, extensions: [{ value: "/x", path: "/x" }] };
    expect(checkExtensions(role, () => { throw new Error("EACCES"); }).ok).toBe(false);
  });
});

describe("checkToolGrant with extension tools", () => {
  it("grants an unknown tool of a role that loads extensions, listing it as unchecked", () => {
    expect(checkToolGrant(["read", "ask_gate"], PI_BUILTIN_TOOLS, { extensionTools: true })).toEqual({ ok: true, tools: ["read", "ask_gate", ...WORKER_TOOLS], fromExtensions: ["ask_gate"] });
    const refused = checkToolGrant(["ask_gate"], PI_BUILTIN_TOOLS);
    expect(!refused.ok && refused.message).toContain("unless the role loads the extension that registers the tool (the extensions field)");
  });
});
