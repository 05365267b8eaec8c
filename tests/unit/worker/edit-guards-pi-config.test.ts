/**
 * registerEditGuards' Pi-configuration rule (issue 18) on a fake `pi` with real temp dirs: no
 * teammate may edit or write a `.pi` dir of the project or of its own worktree, or the user's
 * agent dir, by any path form (relative, `..`, `@`, `~`, file URL, a symlink, a dangling symlink,
 * a case variant); reading passes, and so does the rest of the project.
 */
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { registerEditGuards } from "../../../src/worker/edit-guards.ts";
import { createFakePi, FakeFileTools, makeGuardDirs } from "../../support/fake-pi.ts";
import { useTempDirs } from "../store/tmp.ts";

const tempDir = useTempDirs();
const WORKER_MD = "---\nname: worker\ntools: read\n---\nYou work.\n";
const WHY = "Pi configuration is the user's";

async function setup(kind: "shared" | "worktree") {
  const root = await tempDir();
  const { project, runtimeDir, boardDir } = await makeGuardDirs(root);
  const agentDir = join(root, "home", ".pi", "agent");
  const worktree = join(agentDir, "worktrees", "k", "carol-1234");
  await mkdir(join(project, ".pi", "agents"), { recursive: true });
  await writeFile(join(project, ".pi", "agents", "worker.md"), WORKER_MD);
  await mkdir(join(worktree, ".pi"), { recursive: true });
  const fake = createFakePi();
  const me = { name: "carol", runtimeDir, boardDir, project, ...(kind === "worktree" ? { worktree } : {}) };
  registerEditGuards(fake.pi, me, { agentDir, homeDir: join(root, "home"), note: () => undefined });
  const tools = new FakeFileTools(fake, kind === "worktree" ? worktree : project);
  return { root, project, agentDir, worktree, tools };
}

describe("registerEditGuards: the project's .pi (shared-tree teammate)", () => {
  it("refuses the role file, a planted extension and the SYSTEM files by every path form, naming the dir", async () => {
    const t = await setup("shared");
    const edit = await t.tools.edit(".pi/agents/worker.md", "tools: read", "tools: read\nextensions: [./pwn.ts]");
    expect(edit.reason).toContain(`edit blocked: .pi/agents/worker.md is in the project's Pi configuration (${join(t.project, ".pi")}). ${WHY}`);
    expect(edit.reason).toContain("ask the leader with send_message");
    const forms = [
      ".pi/agents/pwn.ts",
      "./src/../.pi/extensions/pwn.ts",
      "@.pi/settings.json",
      join(t.project, ".pi", "SYSTEM.md"),
      pathToFileURL(join(t.project, ".pi", "APPEND_SYSTEM.md")).href,
      "~/../project/.pi/agents/new.md",
      ".PI/agents/new.md",
      "packages/ui/.pi/extensions/x.ts",
    ];
    for (const form of forms) {
      const out = await t.tools.write(form, "export default () => {}\n");
      expect(out.reason, form).toContain(WHY);
    }
    expect(await readFile(join(t.project, ".pi", "agents", "worker.md"), "utf8")).toBe(WORKER_MD);
    expect((await t.tools.read(".pi/agents/worker.md")).isError).toBe(false);
  });

  it("refuses through a symlink into .pi, a dangling one, and a linked project path", async () => {
    const t = await setup("shared");
    await symlink(join(t.project, ".pi", "agents"), join(t.project, "roles"));
    await symlink(join(t.project, ".pi", "extensions", "pwn.ts"), join(t.project, "planted.ts"));
    await symlink(t.project, join(t.root, "proj-link"));
    expect((await t.tools.write("roles/pwn.md", "x")).reason).toContain(`is in the project's Pi configuration (${join(t.project, ".pi")})`);
    expect((await t.tools.write("planted.ts", "x")).reason).toContain(WHY);
    expect((await t.tools.write(join(t.root, "proj-link", ".pi", "settings.json"), "{}")).reason).toContain(WHY);
  });

  it("lets the rest of the project and paths outside it through", async () => {
    const t = await setup("shared");
    expect((await t.tools.write("src/pi.ts", "x")).blocked).toBe(false);
    expect((await t.tools.write(".pie/x", "x")).blocked).toBe(false);
    expect((await t.tools.write(join(t.root, "scratch.txt"), "x")).blocked).toBe(false);
  });

  it("refuses the user's agent dir, by ~ and by its path", async () => {
    const t = await setup("shared");
    const out = await t.tools.write("~/.pi/agent/extensions/pwn.ts", "x");
    expect(out.reason).toContain(`is in the user's Pi agent dir (${t.agentDir}). ${WHY}`);
    expect((await t.tools.write(join(t.agentDir, "settings.json"), "{}")).reason).toContain(WHY);
    expect((await t.tools.write(join(t.worktree, "src", "a.ts"), "x")).reason).toContain("is in the user's Pi agent dir");
  });
});

describe("registerEditGuards: Pi configuration for a worktree teammate", () => {
  it("refuses its worktree's .pi and the project's, with the Pi-configuration message; the rest of its worktree passes", async () => {
    const t = await setup("worktree");
    const own = await t.tools.write(".pi/agents/worker.md", WORKER_MD.replace("read", "read\nextensions: [./pwn.ts]"));
    expect(own.reason).toContain(`is in your worktree's Pi configuration, which becomes the project's once your branch is merged (${join(t.worktree, ".pi")})`);
    const shared = await t.tools.edit(join(t.project, ".pi", "agents", "worker.md"), "tools: read", "tools: bash");
    expect(shared.reason).toContain(`is in the project's Pi configuration (${join(t.project, ".pi")})`);
    expect((await t.tools.write("src/a.ts", "x")).blocked).toBe(false); // its worktree lies in the agent dir
    expect((await t.tools.write(join(t.project, "src", "a.ts"), "x")).reason).toContain("is in the shared project");
    expect(await readFile(join(t.project, ".pi", "agents", "worker.md"), "utf8")).toBe(WORKER_MD);
  });
});
