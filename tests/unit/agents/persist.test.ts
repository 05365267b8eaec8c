import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { discoverAgents, parseAgentFile, parseInlineDefinition, persistDefinition } from "../../../src/agents/index.ts";
import { TeamError } from "../../../src/errors.ts";
import { useTempDirs } from "../store/tmp.ts";

const tempDir = useTempDirs();

function markdownOf(name: string, value: unknown): string {
  const parsed = parseInlineDefinition(name, value);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.markdown;
}

const role = { description: "Writes docs", tools: ["read", "write"], model: "inherit", prompt: "You write docs." };

async function caught(promise: Promise<unknown>): Promise<TeamError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof TeamError) return error;
    throw error;
  }
  throw new Error("expected a TeamError");
}

describe("persistDefinition (R9, R10)", () => {
  it("writes <cwd>/.pi/agents/<name>.md, creating the dir, and discovery reads it as a project file", async () => {
    const cwd = await tempDir();
    const markdown = markdownOf("docs", role);
    const path = await persistDefinition({ cwd, name: "docs", scope: "project", markdown });
    expect(path).toBe(join(cwd, ".pi", "agents", "docs.md"));
    expect(await readFile(path, "utf8")).toBe(markdown);
    expect(await readdir(join(cwd, ".pi", "agents"))).toEqual(["docs.md"]);
    const found = await discoverAgents({ agentDir: join(cwd, "no-agent-dir"), cwd, trusted: true });
    expect(found.diagnostics).toEqual([]);
    expect(found.agents).toMatchObject([{ name: "docs", scope: "project", gitManaged: true, source: path, tools: ["read", "write"] }]);
  });

  it("writes <name>.local.md for project-local, and the file round-trips to the same definition", async () => {
    const cwd = await tempDir();
    const parsed = parseInlineDefinition("docs", { ...role, verify: "Links work", worktree: true });
    if (!parsed.ok) throw new Error(parsed.message);
    const path = await persistDefinition({ cwd, name: "docs", scope: "project-local", markdown: parsed.markdown });
    expect(path).toBe(join(cwd, ".pi", "agents", "docs.local.md"));
    const file = parseAgentFile({ text: await readFile(path, "utf8"), source: path, name: "docs", scope: "project-local" });
    expect(file.ok && file.agent).toEqual({ ...parsed.definition, scope: "project-local", gitManaged: false, source: path });
  });

  it("never overwrites an existing file: invalid_input, file unchanged, no temp left", async () => {
    const cwd = await tempDir();
    const dir = join(cwd, ".pi", "agents");
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "docs.md"), "original");
    const error = await caught(persistDefinition({ cwd, name: "docs", scope: "project", markdown: markdownOf("docs", role) }));
    expect(error.code).toBe("invalid_input");
    expect(error.message).toBe(
      `Cannot persist agent "docs": ${join(dir, "docs.md")} already exists; nothing was written (a persisted role never overwrites or shadows ` +
        'a definition file). To use the file, spawn with agent: "docs" and no definition; otherwise pick another name.',
    );
    expect(await readFile(join(dir, "docs.md"), "utf8")).toBe("original");
    expect(await readdir(dir)).toEqual(["docs.md"]);
  });

  it("refuses when the other file of the .md/.local.md pair exists", async () => {
    const cwd = await tempDir();
    const dir = join(cwd, ".pi", "agents");
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "docs.local.md"), "mine");
    const error = await caught(persistDefinition({ cwd, name: "docs", scope: "project", markdown: markdownOf("docs", role) }));
    expect(error.code).toBe("invalid_input");
    expect(error.message).toContain(`${join(dir, "docs.local.md")} already defines that name; nothing was written`);
    expect(await readdir(dir)).toEqual(["docs.local.md"]);
  });

  it("lets exactly one of two concurrent persists of one name win", async () => {
    const cwd = await tempDir();
    const a = markdownOf("docs", { ...role, description: "a" });
    const b = markdownOf("docs", { ...role, description: "b" });
    const results = await Promise.allSettled([
      persistDefinition({ cwd, name: "docs", scope: "project", markdown: a }),
      persistDefinition({ cwd, name: "docs", scope: "project", markdown: b }),
    ]);
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]?.reason).toBeInstanceOf(TeamError);
    expect((lost[0]?.reason as TeamError).code).toBe("invalid_input");
    const dir = join(cwd, ".pi", "agents");
    expect(await readdir(dir)).toEqual(["docs.md"]);
    expect([a, b]).toContain(await readFile(join(dir, "docs.md"), "utf8"));
  });

  it("refuses a bad name or markdown that does not parse, writing nothing", async () => {
    const cwd = await tempDir();
    expect((await caught(persistDefinition({ cwd, name: "../x", scope: "project", markdown: "---\n---\nx\n" }))).code).toBe("invalid_input");
    const bad = await caught(persistDefinition({ cwd, name: "x", scope: "project", markdown: "---\nmodel: gpt\n---\nx\n" }));
    expect(bad.code).toBe("invalid_input");
    expect(bad.message).toContain('the definition does not parse. ');
    expect(bad.message).toContain('field "model" has value "gpt"');
    expect(await readdir(cwd)).toEqual([]);
  });

  it("reports other failures as io_error naming the path", async () => {
    const cwd = await tempDir();
    await mkdir(join(cwd, ".pi"), { recursive: true });
    await writeFile(join(cwd, ".pi", "agents"), "a file where the dir should be");
    const error = await caught(persistDefinition({ cwd, name: "docs", scope: "project", markdown: markdownOf("docs", role) }));
    expect(error.code).toBe("io_error");
    expect(error.message).toContain(join(cwd, ".pi", "agents"));
  });
});
