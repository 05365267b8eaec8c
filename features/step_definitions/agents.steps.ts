import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { After, Given, Then, When, type DataTable } from "@cucumber/cucumber";
import {
  discoverAgents,
  formatAgentGuidance,
  formatAgentModel,
  formatUntrustedAgentsHint,
  resolveAgent,
  type AgentDefinition,
  type AgentDiagnostic,
  type AgentDiscovery,
} from "../../src/agents/index.ts";

/** Scenario state, kept on the shared World under a key of its own (session-roles.steps.ts reuses it). */
export interface DiscoveryState {
  root: string;
  agentDir: string;
  cwd: string;
  result?: AgentDiscovery;
  lastError?: AgentDiagnostic;
}

export async function state(world: object): Promise<DiscoveryState> {
  const w = world as { agentsDiscovery?: DiscoveryState };
  if (w.agentsDiscovery === undefined) {
    const root = await mkdtemp(join(tmpdir(), "feature-discovery-"));
    w.agentsDiscovery = { root, agentDir: join(root, "agent"), cwd: join(root, "project") };
  }
  return w.agentsDiscovery;
}

function discovered(world: object): AgentDiscovery {
  const result = (world as { agentsDiscovery?: DiscoveryState }).agentsDiscovery?.result;
  assert.ok(result, "agents were not discovered yet");
  return result;
}

export const userDir = (s: DiscoveryState) => join(s.agentDir, "agents");
export const projectDir = (s: DiscoveryState) => join(s.cwd, ".pi", "agents");

function agent(world: object, name: string): AgentDefinition {
  const found = discovered(world).agents.find((a) => a.name === name);
  assert.ok(found, `no agent "${name}" among ${discovered(world).agents.map((a) => a.name).join(", ") || "(none)"}`);
  return found;
}

async function put(dir: string, file: string, text: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, file), text);
}

// Any feature that wrote agent files through this state (discovery, session roles) is cleaned up.
After(async function () {
  const s = (this as { agentsDiscovery?: DiscoveryState }).agentsDiscovery;
  if (s !== undefined) await rm(s.root, { recursive: true, force: true });
});

Given("the user agent file {string}:", async function (file: string, text: string) {
  await put(userDir(await state(this)), file, text);
});

Given("the project agent file {string}:", async function (file: string, text: string) {
  await put(projectDir(await state(this)), file, text);
});

Given("the project agent directory {string}", async function (name: string) {
  await mkdir(join(projectDir(await state(this)), name), { recursive: true });
});

const TOOL_FORMS: Record<string, string> = {
  "a comma list": "tools: read,bash\n",
  "a flush-left YAML list": "tools:\n- read\n- bash\n",
  "an indented YAML list": "tools:\n    - read\n    - bash\n",
  "a YAML list with comments": "tools:\n  # reading first\n  - read\n  # - edit is not granted\n  - bash # for tests\n",
  "dash items without a space": "tools:\n  -read\n  -bash\n",
};

Given("the project agent file {string} with tools written as {}", async function (file: string, form: string) {
  const tools = TOOL_FORMS[form];
  assert.ok(tools !== undefined, `unknown tools form "${form}"`);
  await put(projectDir(await state(this)), file, `---\ndescription: works\n${tools}---\nWork.\n`);
});

When("the agents are discovered in a trusted project", async function () {
  const s = await state(this);
  s.result = await discoverAgents({ agentDir: s.agentDir, cwd: s.cwd, trusted: true });
});

When("the agents are discovered in an untrusted project", async function () {
  const s = await state(this);
  s.result = await discoverAgents({ agentDir: s.agentDir, cwd: s.cwd, trusted: false });
});

Then("the discovered agents are:", function (table: DataTable) {
  const actual = discovered(this).agents.map((a) => ({
    name: a.name,
    scope: a.scope,
    gitManaged: String(a.gitManaged),
    description: a.description,
  }));
  assert.deepEqual(actual, table.hashes());
});

Then("no agents are discovered", function () {
  assert.deepEqual(discovered(this).agents, []);
});

Then(
  "agent {string} shadows the user file {string} and the project file {string}",
  async function (name: string, userFile: string, projectFile: string) {
    const s = await state(this);
    assert.deepEqual(agent(this, name).overrides, [join(userDir(s), userFile), join(projectDir(s), projectFile)]);
  },
);

Then("the guidance lists {int} agent(s)", function (count: number) {
  const lines = formatAgentGuidance(discovered(this).agents).split("\n").filter((l) => l !== "");
  assert.equal(lines.length, count);
});

Then("the guidance line of {string} is {string}", function (name: string, line: string) {
  assert.equal(formatAgentGuidance([agent(this, name)]), line);
});

Then("the project file {string} is skipped with reason {string}", async function (file: string, reason: string) {
  const source = join(projectDir(await state(this)), file);
  const entry = discovered(this).skipped.find((s) => s.source === source);
  assert.ok(entry, `${source} is not among the skipped files`);
  assert.equal(entry.reason, reason);
});

Then(
  "an error names the project file {string}, the field {string} and the value {string}",
  async function (file: string, field: string, value: string) {
    const s = await state(this);
    const source = join(projectDir(s), file);
    const error = discovered(this).diagnostics.find((d) => d.severity === "error" && d.source === source && d.field === field);
    assert.ok(error, `no error for field "${field}" of ${source}`);
    assert.equal(error.value, value);
    for (const part of [source, `"${field}"`, JSON.stringify(value)]) assert.ok(error.message.includes(part), `"${error.message}" lacks ${part}`);
    s.lastError = error;
  },
);

Then("that error says {string} or {string} would be accepted", async function (first: string, second: string) {
  const error = (await state(this)).lastError;
  assert.ok(error);
  assert.match(error.message, /accepted/);
  for (const form of [first, second]) assert.ok(error.message.includes(`"${form}"`), `"${error.message}" lacks "${form}"`);
});

Then("a warning names the project file {string} and the key {string}", async function (file: string, key: string) {
  const source = join(projectDir(await state(this)), file);
  const warning = discovered(this).diagnostics.find((d) => d.severity === "warning" && d.source === source && d.field === key);
  assert.ok(warning, `no warning about "${key}" in ${source}`);
  assert.ok(warning.message.includes(source) && warning.message.includes(`"${key}"`));
  assert.ok(!discovered(this).diagnostics.some((d) => d.severity === "error"), "a warning must not come with an error");
});

Then("agent {string} has the tools {string}", function (name: string, tools: string) {
  assert.deepEqual(agent(this, name).tools, tools.split(",").map((t) => t.trim()));
});

Then("agent {string} has the model {string}", function (name: string, model: string) {
  assert.equal(formatAgentModel(agent(this, name).model), model);
});

Then("looking up agent {string} fails mentioning {string}", function (name: string, text: string) {
  const result = resolveAgent(discovered(this), name);
  assert.equal(result.ok, false);
  assert.ok(!result.ok && result.message.includes(text), `"${result.ok ? "" : result.message}" lacks "${text}"`);
});

Then("the untrusted hint is {string}", function (hint: string) {
  assert.equal(formatUntrustedAgentsHint(discovered(this)), hint);
});

Then("there is no untrusted hint", function () {
  assert.equal(formatUntrustedAgentsHint(discovered(this)), undefined);
});

Then("a warning names the project entry {string} saying {string}", async function (entry: string, text: string) {
  const source = join(projectDir(await state(this)), entry);
  const warning = discovered(this).diagnostics.find((d) => d.severity === "warning" && d.source === source);
  assert.ok(warning, `no warning about ${source}`);
  assert.ok(warning.message.includes(source) && warning.message.includes(text), `"${warning.message}" lacks ${text}`);
  assert.ok(!discovered(this).diagnostics.some((d) => d.severity === "error"), "a warning must not come with an error");
});
