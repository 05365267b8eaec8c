import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Given, Then, When } from "@cucumber/cucumber";
import {
  discoverAgents,
  persistDefinition,
  prepareInlineRole,
  resolveAgent,
  SessionRoles,
  withSessionRoles,
  type AgentDefinition,
  type AgentDiscovery,
} from "../../src/agents/index.ts";
import { TeamError } from "../../src/errors.ts";
import { projectDir, state } from "./agents.steps.ts";

/** Session-role state of a scenario; the files and dirs are the discovery feature's (agents.steps.ts). */
interface RolesState {
  roles: SessionRoles;
  refusal?: string;
  /** File contents recorded by "the project agent file ... is remembered". */
  remembered: Map<string, string>;
}

function roles(world: object): RolesState {
  const w = world as { sessionRoles?: RolesState };
  w.sessionRoles ??= { roles: new SessionRoles(), remembered: new Map() };
  return w.sessionRoles;
}

/** What the leader sees: the definition files (trusted project) with this session's roles merged in. */
async function merged(world: object): Promise<AgentDiscovery> {
  const s = await state(world);
  const files = await discoverAgents({ agentDir: s.agentDir, cwd: s.cwd, trusted: true });
  return withSessionRoles(files, roles(world).roles);
}

/**
 * The inline-definition part of `teammate_spawn`, through the public API the spawn path calls:
 * refuse a file-defined name or an invalid definition; persist when asked (the file then is the
 * role), otherwise register a session role; then the agent must resolve.
 */
async function spawnInline(world: object, name: string, definition: unknown): Promise<void> {
  const s = await state(world);
  const r = roles(world);
  r.refusal = undefined;
  const files = await discoverAgents({ agentDir: s.agentDir, cwd: s.cwd, trusted: true });
  const prepared = prepareInlineRole({ discovery: files, name, definition, projectTrusted: true });
  if (!prepared.ok) {
    r.refusal = prepared.message;
    return;
  }
  if (prepared.persist !== undefined) {
    try {
      await persistDefinition({ cwd: s.cwd, name, scope: prepared.persist, markdown: prepared.markdown });
    } catch (error) {
      if (!(error instanceof TeamError)) throw error;
      r.refusal = error.message;
      return;
    }
    r.roles.delete(name);
  } else {
    r.roles.register(prepared.definition);
  }
  const resolved = resolveAgent(await merged(world), name);
  assert.ok(resolved.ok, `spawned "${name}" does not resolve: ${resolved.ok ? "" : resolved.message}`);
}

async function resolved(world: object, name: string): Promise<AgentDefinition> {
  const result = resolveAgent(await merged(world), name);
  assert.ok(result.ok, result.ok ? "" : result.message);
  return result.agent;
}

When("{string} is spawned with the inline definition:", async function (name: string, json: string) {
  await spawnInline(this, name, JSON.parse(json) as unknown);
});

When("{string} is spawned with the inline definition as a JSON string:", async function (name: string, text: string) {
  await spawnInline(this, name, text);
});

When("{string} is spawned with the inline definition string {string}", async function (name: string, text: string) {
  await spawnInline(this, name, text);
});

Then("the spawn is accepted", function () {
  assert.equal(roles(this).refusal, undefined);
});

Then("agent {string} resolves as a session role described {string}", async function (name: string, description: string) {
  const agent = await resolved(this, name);
  assert.deepEqual(
    { scope: agent.scope, gitManaged: agent.gitManaged, source: agent.source, description: agent.description },
    { scope: "session", gitManaged: false, source: `session:${name}`, description },
  );
});

Then("agent {string} has the session tools {string}", async function (name: string, tools: string) {
  assert.deepEqual((await resolved(this, name)).tools, tools.split(",").map((t) => t.trim()));
});

Then(
  "agent {string} resolves from the project file {string} described {string}",
  async function (name: string, file: string, description: string) {
    const agent = await resolved(this, name);
    const source = join(projectDir(await state(this)), file);
    assert.deepEqual({ scope: agent.scope, source: agent.source, description: agent.description }, { scope: "project", source, description });
  },
);

Then("the spawn is refused saying {string}", function (text: string) {
  const refusal = roles(this).refusal;
  assert.ok(refusal !== undefined, "the spawn was not refused");
  assert.ok(refusal.includes(text), `"${refusal}" lacks "${text}"`);
});

Then("the refusal names the project file {string}", async function (file: string) {
  const refusal = roles(this).refusal;
  const source = join(projectDir(await state(this)), file);
  assert.ok(refusal?.includes(source), `"${refusal ?? "(no refusal)"}" lacks ${source}`);
});

Then("no session role {string} is registered", function (name: string) {
  assert.equal(roles(this).roles.get(name), undefined);
});

Given("the project agent file {string} is remembered", async function (file: string) {
  const path = join(projectDir(await state(this)), file);
  roles(this).remembered.set(path, await readFile(path, "utf8"));
});

Then("the project agent file {string} is unchanged", async function (file: string) {
  const path = join(projectDir(await state(this)), file);
  const before = roles(this).remembered.get(path);
  assert.ok(before !== undefined, `${path} was not remembered`);
  assert.equal(await readFile(path, "utf8"), before);
});

Then("the project agent file {string} reads:", async function (file: string, text: string) {
  assert.equal(await readFile(join(projectDir(await state(this)), file), "utf8"), `${text}\n`);
});
