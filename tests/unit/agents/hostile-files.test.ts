import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { discoverAgents, parseAgentFile } from "../../../src/agents/index.ts";
import { checkLaunchSettings, resolveLauncher } from "../../../src/launch/index.ts";
import { aliasBomb } from "../../support/alias-bomb.ts";

let root: string;
let agents: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "agents-hostile-"));
  agents = join(root, "project", ".pi", "agents");
  await mkdir(agents, { recursive: true });
  await writeFile(join(agents, "good.md"), "---\ndescription: a good role\n---\nYou are good.\n");
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function discoverWith(file: string, content: string | Uint8Array) {
  await writeFile(join(agents, file), content);
  const started = performance.now();
  const result = await discoverAgents({ agentDir: join(root, "agent"), cwd: join(root, "project"), trusted: true });
  console.log(`discovery with ${file}: ${(performance.now() - started).toFixed(1)} ms`);
  const source = join(agents, file);
  const errors = result.diagnostics.filter((d) => d.source === source && d.severity === "error").map((d) => d.message);
  return { result, source, errors };
}

describe("a hostile agent file stops only itself (issue 18.5)", () => {
  it.each(["model", "tools", "description", "launcher", "unknown"])("an alias bomb in %s is refused with a clear diagnostic; the good file still loads", async (field) => {
    const { result, source, errors } = await discoverWith("bomb.md", aliasBomb(field));
    expect(errors).toEqual([expect.stringContaining(`${source}: frontmatter expands to more than 1000 values (YAML aliases`)]);
    expect(result.agents.map((a) => a.name)).toEqual(["good"]);
    expect(result.skipped).toContainEqual(expect.objectContaining({ source, reason: "invalid definition" }));
  });

  it("an alias used a few times within the bound is still accepted", () => {
    const text = "---\ndescription: &d a role\nverify: *d\n---\nbody";
    const parsed = parseAgentFile({ text, source: "/x/r.md", name: "r", scope: "project" });
    expect(parsed.ok && parsed.agent.verify).toBe("a role");
  });

  it("a file with a NUL byte is refused as binary", async () => {
    const { result, source, errors } = await discoverWith("nul.md", Buffer.from("---\ndescription: x\n---\nhi\0there\n"));
    expect(errors).toEqual([`${source}: is a binary file (it holds a NUL byte); an agent file is UTF-8 Markdown text; the file is skipped.`]);
    expect(result.agents.map((a) => a.name)).toEqual(["good"]);
  });

  it("100 KB of random bytes is refused (over the size bound); 60 KB of invalid UTF-8 is refused as not UTF-8", async () => {
    const random = Buffer.alloc(100 * 1024);
    for (let i = 0; i < random.length; i++) random[i] = (i * 7919 + 13) % 256 || 1;
    const big = await discoverWith("random.md", random);
    expect(big.errors).toEqual([expect.stringContaining(`${big.source}: is 102400 bytes, over the 65536-byte limit for an agent file`)]);
    const bad = Buffer.alloc(60 * 1024, 0xff);
    const small = await discoverWith("latin.md", bad);
    expect(small.errors).toEqual([`${small.source}: is not valid UTF-8 text (a binary file?); an agent file is UTF-8 Markdown text; the file is skipped.`]);
    expect(small.result.agents.map((a) => a.name)).toEqual(["good"]);
  });

  it("a text file over 64 KB is refused; one just under it loads", async () => {
    const body = (n: number) => `---\ndescription: long\n---\n${"x".repeat(n)}\n`;
    const over = await discoverWith("huge.md", body(70 * 1024));
    expect(over.errors).toEqual([expect.stringMatching(/huge\.md: is \d+ bytes, over the 65536-byte limit for an agent file; a role prompt is a few KB/)]);
    await rm(over.source);
    const under = await discoverWith("long.md", body(60 * 1024));
    expect(under.errors).toEqual([]);
    expect(under.result.agents.map((a) => a.name)).toEqual(["good", "long"]);
  });

  it("deeply nested frontmatter is refused, not a stack overflow", async () => {
    const { result, source, errors } = await discoverWith("deep.md", `---\nmodel: ${"[".repeat(20000)}${"]".repeat(20000)}\n---\nx\n`);
    expect(errors).toEqual([expect.stringContaining(`${source}: frontmatter is not valid YAML: `)]);
    expect(result.agents.map((a) => a.name)).toEqual(["good"]);
  });
});

describe("launcher names are own properties only (issue 18.5)", () => {
  it.each(["constructor", "toString", "hasOwnProperty", "__proto__"])("launcher %s is not defined, not a TypeError", (name) => {
    expect(() => resolveLauncher(name, {}, "/s.json")).toThrow(`launcher "${name}" is not built in and not defined in /s.json.`);
    expect(() => resolveLauncher(name, { launchers: { k8s: { prefix: ["kubectl"] } } }, "/s.json")).toThrow(/Defined under piTeams\.launchers: k8s\./);
  });

  it("a settings key named constructor gets the usual error", () => {
    expect(() => checkLaunchSettings({ ssh: { constructor: 1 } }, "/s.json")).toThrow(/piTeams\.ssh has value .* unknown key constructor; accepted: an object with any of the keys options, pi, package/);
    expect(() => checkLaunchSettings({ launchers: { toString: { prefix: ["x"] } } }, "/s.json")).not.toThrow();
  });
});
