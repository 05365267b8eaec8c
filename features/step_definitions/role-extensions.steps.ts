import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { Given, Then, When } from "@cucumber/cucumber";
import {
  checkExtensions,
  checkToolGrant,
  discoverAgents,
  prepareInlineRole,
  resolveAgent,
  PI_BUILTIN_TOOLS,
  type AgentDefinition,
} from "../../src/agents/index.ts";
import { planSpawn, type SpawnPlan } from "../../src/team/spawn-plan.ts";
import { projectDir, state } from "./agents.steps.ts";

const PACKAGE_DIR = "/pkg/pi-resident-teams";

/** Scenario state, kept on the shared World under a key of its own. */
interface PlanState {
  plan?: SpawnPlan;
  refusal?: string;
}

function planState(world: object): PlanState {
  const w = world as { roleExtensions?: PlanState };
  w.roleExtensions ??= {};
  return w.roleExtensions;
}

/**
 * The checks `teammate_spawn` makes before anything starts (src/harness/spawn-teammate.ts), then
 * the child command line: refused extensions or tools leave no plan.
 */
function plan(world: object, name: string, agent: AgentDefinition): void {
  const s = planState(world);
  const extensions = checkExtensions(agent);
  if (!extensions.ok) {
    s.refusal = extensions.message;
    return;
  }
  const grant = checkToolGrant(agent.tools, PI_BUILTIN_TOOLS, { extensionTools: extensions.paths.length > 0 });
  if (!grant.ok) {
    s.refusal = grant.message;
    return;
  }
  s.plan = planSpawn({
    name, spawnId: "0123456789abcdef", tools: grant.tools, model: { model: undefined, thinking: undefined }, trusted: true,
    packageDir: PACKAGE_DIR, extensions: extensions.paths, runtimeDir: "/rt", boardDir: "/board", leaderPid: 1, project: "/proj",
  });
}

Given("the project file {string}", async function (file: string) {
  const path = join((await state(this)).cwd, file);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, "export default function () {}\n");
});

When("teammate {string} is planned from agent {string}", async function (name: string, agentName: string) {
  const s = await state(this);
  const discovery = s.result ?? (await discoverAgents({ agentDir: s.agentDir, cwd: s.cwd, trusted: true }));
  const found = resolveAgent(discovery, agentName);
  assert.ok(found.ok, found.ok ? "" : found.message);
  plan(this, name, found.agent);
});

When("teammate {string} is planned from the inline role {string}:", async function (name: string, agentName: string, json: string) {
  const s = await state(this);
  const discovery = await discoverAgents({ agentDir: s.agentDir, cwd: s.cwd, trusted: true });
  const prepared = prepareInlineRole({ discovery, name: agentName, definition: JSON.parse(json) as unknown, projectTrusted: true, cwd: s.cwd });
  assert.ok(prepared.ok, prepared.ok ? "" : prepared.message);
  plan(this, name, prepared.definition);
});

Then("the teammate loads the package, then the project paths {string}", async function (paths: string) {
  const { plan: p, refusal } = planState(this);
  assert.ok(p, `no command line was built: ${refusal ?? ""}`);
  const cwd = (await state(this)).cwd;
  const loaded = p.args.flatMap((arg, i) => (p.args[i - 1] === "-e" ? [arg] : []));
  assert.deepEqual(loaded, [PACKAGE_DIR, ...paths.split(",").map((f) => join(cwd, f.trim()))]);
  assert.ok(p.args.includes("--no-extensions"));
});

Then("the teammate is granted {string}", function (tools: string) {
  const p = planState(this).plan;
  assert.ok(p, "no command line was built");
  assert.deepEqual(p.tools, tools.split(",").map((t) => t.trim()));
});

Then("the plan is refused naming the project file {string}", async function (file: string) {
  const refusal = planState(this).refusal;
  const source = join(projectDir(await state(this)), file);
  assert.ok(refusal?.includes(source), `"${refusal ?? "(no refusal)"}" lacks ${source}`);
});

Then("the plan is refused saying {string}", function (text: string) {
  const refusal = planState(this).refusal;
  assert.ok(refusal?.includes(text), `"${refusal ?? "(no refusal)"}" lacks "${text}"`);
});

Then("no command line was built", function () {
  assert.equal(planState(this).plan, undefined);
});
