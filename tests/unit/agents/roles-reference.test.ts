import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseAgentFile, parseInlineDefinition } from "../../../src/agents/index.ts";

const REFERENCE = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "references", "agent-roles.md");

async function block(language: string): Promise<string> {
  const text = await readFile(REFERENCE, "utf8");
  const match = new RegExp("```" + language + "\\n([\\s\\S]*?)\\n```").exec(text);
  if (!match?.[1]) throw new Error(`no ${language} block in ${REFERENCE}`);
  return match[1];
}

describe("references/agent-roles.md examples", () => {
  it("the full example file parses with no diagnostics", async () => {
    const parsed = parseAgentFile({ text: await block("markdown"), source: "/p/.pi/agents/migration-checker.md", name: "migration-checker", scope: "project" });
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.ok && parsed.agent).toMatchObject({ tools: ["read", "grep", "find", "ls", "bash"], model: { kind: "inherit" } });
  });

  it("the inline example is accepted as an object", async () => {
    const args = JSON.parse(await block("json")) as { agent: string; definition: unknown };
    const parsed = parseInlineDefinition(args.agent, args.definition);
    expect(parsed.ok ? parsed.diagnostics : parsed.message).toEqual([]);
  });
});
