import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { discoverAgents, formatUntrustedAgentsHint, type AgentDiscovery } from "../../../src/agents/index.ts";

let root: string;
let home: string;
let cwd: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "agents-discover-"));
  home = join(root, "agent");
  cwd = join(root, "project");
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function put(path: string, text: string): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
  return path;
}

const userFile = (file: string) => join(home, "agents", file);
const projectFile = (file: string) => join(cwd, ".pi", "agents", file);
const role = (description: string, extra = "") => `---\ndescription: ${description}\n${extra}---\nYou are ${description}.\n`;

function discover(trusted = true): Promise<AgentDiscovery> {
  return discoverAgents({ agentDir: home, cwd, trusted });
}

describe("discoverAgents (R7, R10, R11, W15)", () => {
  it("finds nothing and reports nothing when no directory exists", async () => {
    const result = await discover();
    expect(result).toEqual({
      agents: [],
      diagnostics: [],
      skipped: [],
      searched: { user: join(home, "agents"), project: join(cwd, ".pi", "agents") },
    });
  });

  it("merges a .md/.local.md pair into one project-local entry over the user file", async () => {
    const user = await put(userFile("reviewer.md"), role("user reviewer"));
    const project = await put(projectFile("reviewer.md"), role("project reviewer"));
    const local = await put(projectFile("reviewer.local.md"), role("local reviewer"));
    const { agents } = await discover();
    expect(agents).toHaveLength(1);
    expect(agents[0]).toMatchObject({ name: "reviewer", scope: "project-local", gitManaged: false, source: local, overrides: [user, project] });
  });

  it("keeps a broken file from stopping the others", async () => {
    const bad = await put(projectFile("broken.md"), "---\nmodel: gpt\n---\nx");
    await put(projectFile("good.md"), role("good"));
    await put(userFile("helper.md"), role("helper"));
    const result = await discover();
    expect(result.agents.map((a) => a.name)).toEqual(["good", "helper"]);
    expect(result.diagnostics).toMatchObject([{ severity: "error", source: bad, field: "model", value: "gpt" }]);
    expect(result.skipped).toEqual([{ source: bad, scope: "project", name: "broken", reason: "invalid definition" }]);
  });

  it("does not read project files of an untrusted project and lists each as skipped", async () => {
    await put(userFile("reviewer.md"), role("user reviewer"));
    const project = await put(projectFile("reviewer.md"), "---\nmodel: gpt\n---\nbroken but never read");
    const local = await put(projectFile("reviewer.local.md"), role("local"));
    await mkdir(projectFile("folder.md"));
    const result = await discover(false);
    expect(result.agents).toMatchObject([{ name: "reviewer", scope: "user" }]);
    expect(result.diagnostics).toEqual([]);
    expect(result.skipped).toEqual([
      { source: local, scope: "project-local", name: "reviewer", reason: "project not trusted" },
      { source: project, scope: "project", name: "reviewer", reason: "project not trusted" },
    ]);
  });

  it("follows symlinks to files and reports dangling ones", async () => {
    const target = await put(join(root, "dotfiles", "linked.md"), role("linked"));
    await mkdir(join(home, "agents"), { recursive: true });
    await symlink(target, userFile("linked.md"));
    await symlink(join(root, "missing.md"), userFile("dangling.md"));
    const result = await discover();
    expect(result.agents).toMatchObject([{ name: "linked", source: userFile("linked.md"), description: "linked" }]);
    expect(result.diagnostics).toMatchObject([{ severity: "error", source: userFile("dangling.md") }]);
    expect(result.skipped).toMatchObject([{ source: userFile("dangling.md"), name: "dangling", reason: "invalid definition" }]);
  });

  it("ignores dotfiles and non-.md files silently", async () => {
    await mkdir(projectFile("dir"), { recursive: true });
    await put(projectFile(".#lock.md"), "x");
    await put(projectFile("notes.txt"), "x");
    const result = await discover();
    expect(result).toMatchObject({ agents: [], diagnostics: [], skipped: [] });
  });

  it("ignores a directory named x.md (or a link to one) with a warning naming it", async () => {
    await mkdir(projectFile("dir.md"), { recursive: true });
    await mkdir(join(root, "elsewhere"), { recursive: true });
    await mkdir(join(home, "agents"), { recursive: true });
    await symlink(join(root, "elsewhere"), userFile("linked.md"));
    await put(projectFile("good.md"), role("good"));
    const result = await discover();
    expect(result.agents.map((a) => a.name)).toEqual(["good"]);
    expect(result.skipped).toEqual([]);
    expect(result.diagnostics).toMatchObject([
      { severity: "warning", source: userFile("linked.md") },
      { severity: "warning", source: projectFile("dir.md") },
    ]);
    expect(result.diagnostics[0]?.message).toContain("is a symlink to a directory, not an agent file; ignored");
    expect(result.diagnostics[1]?.message).toBe(
      `${projectFile("dir.md")}: is a directory, not an agent file; ignored. Agent files are <name>.md files directly in ${join(cwd, ".pi", "agents")} (subdirectories are not searched).`,
    );
  });

  it("lists untrusted project files for the leader's hint", async () => {
    await put(projectFile("a.md"), role("a"));
    await put(projectFile("b.local.md"), role("b"));
    expect(formatUntrustedAgentsHint(await discover(false))).toBe(
      "(2 project agent files skipped: project not trusted; start pi with -a or trust the project with /trust)",
    );
    expect(formatUntrustedAgentsHint(await discover(true))).toBeUndefined();
  });

  it("refuses __proto__.md by name without polluting anything (W18)", async () => {
    const proto = await put(projectFile("__proto__.md"), "---\ndescription: x\npolluted: true\n---\nx");
    const result = await discover();
    expect(result.agents).toEqual([]);
    expect(result.diagnostics).toMatchObject([{ severity: "error", source: proto }]);
    expect(result.diagnostics[0]?.message).toContain('"__proto__"');
    expect(result.skipped).toEqual([{ source: proto, scope: "project", reason: "invalid definition" }]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("warns about a .local.md file in the user dir and loads it under its full name", async () => {
    await put(userFile("reviewer.local.md"), role("user local"));
    const result = await discover();
    expect(result.agents).toMatchObject([{ name: "reviewer.local", scope: "user" }]);
    expect(result.diagnostics).toMatchObject([{ severity: "warning", source: userFile("reviewer.local.md") }]);
  });

  it("reports an unreadable agents path that is not a directory as nothing (ENOTDIR)", async () => {
    await put(join(cwd, ".pi", "agents"), "a file, not a dir");
    expect(await discover()).toMatchObject({ agents: [], diagnostics: [], skipped: [] });
  });
});
