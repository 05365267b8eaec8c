import assert from "node:assert/strict";
import { Given, Then, When } from "@cucumber/cucumber";
import { checkToolGrant, parseAgentFile, PI_BUILTIN_TOOLS, type ToolGrantResult } from "../../src/agents/index.ts";

/** Scenario state, kept on the shared World under a key of its own. */
interface GrantState {
  frontmatter?: string;
  result?: ToolGrantResult;
}

function state(world: object): GrantState {
  const w = world as { toolGrants?: GrantState };
  w.toolGrants ??= {};
  return w.toolGrants;
}

Given("a role with {string}", function (line: string) {
  state(this).frontmatter = line;
});

Given("a role without a tools field", function () {
  state(this).frontmatter = "";
});

When("its tool grant is checked", function () {
  const s = state(this);
  assert.ok(s.frontmatter !== undefined, "no role was given");
  const text = `---\ndescription: a role\n${s.frontmatter}\n---\nDo the work.\n`;
  const parsed = parseAgentFile({ text, source: "/agents/worker.md", name: "worker", scope: "user" });
  assert.ok(parsed.ok, parsed.diagnostics.map((d) => d.message).join("\n"));
  s.result = checkToolGrant(parsed.agent.tools, PI_BUILTIN_TOOLS);
});

Then("the grant is {string}", function (grant: string) {
  const result = state(this).result;
  assert.ok(result?.ok, result && !result.ok ? result.message : "no grant was checked");
  assert.deepEqual(result.tools, grant.split(",").map((t) => t.trim()));
});

function refusal(world: object): { unknown: string[]; message: string } {
  const result = state(world).result;
  assert.ok(result && !result.ok, "the grant was accepted");
  return result;
}

Then("the grant is refused for {string}", function (tools: string) {
  assert.deepEqual(refusal(this).unknown, tools.split(",").map((t) => t.trim()));
});

Then("the grant refusal says {string}", function (text: string) {
  const { message } = refusal(this);
  assert.ok(message.includes(text), `"${message}" lacks "${text}"`);
});
