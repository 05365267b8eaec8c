import assert from "node:assert/strict";
import { Given, Then, When } from "@cucumber/cucumber";
import { parseModelField } from "../../src/agents/index.ts";
import {
  applyTeamModelCommand,
  checkModel,
  modelFlags,
  resolveTeammateModel,
  TeamModelSetting,
  type ModelCheck,
  type TeamModelCommandResult,
  type TeammateModelChoice,
} from "../../src/team/model-choice.ts";
import type { ModelRef } from "../../src/team/spawn-plan.ts";

/** Scenario state, kept on the shared World under a key of its own. */
interface ModelState {
  registry: ModelRef[];
  setting: TeamModelSetting;
  leader?: ModelRef;
  leaderThinking?: string;
  choice?: TeammateModelChoice;
  check?: ModelCheck;
  command?: TeamModelCommandResult;
}

function state(world: object): ModelState {
  const w = world as { teamModels?: ModelState };
  w.teamModels ??= { registry: [], setting: new TeamModelSetting() };
  return w.teamModels;
}

/** `provider/id` as the frontmatter writes it; the examples use `none` for "no model". */
function ref(text: string): ModelRef | undefined {
  if (text === "none") return undefined;
  const parsed = parseModelField(text);
  assert.ok(parsed?.kind === "pin", `"${text}" is not provider/id`);
  return { provider: parsed.provider, id: parsed.id };
}

const COMMAND = "/agent-teams model";

function runCommand(s: ModelState, line: string): TeamModelCommandResult {
  assert.ok(line.startsWith(COMMAND), `"${line}" is not a ${COMMAND} command`);
  return applyTeamModelCommand(s.setting, line.slice(COMMAND.length), s.registry);
}

Given("Pi's model registry holds {string}", function (list: string) {
  state(this).registry = list.split(",").map((m) => ref(m.trim())).filter((m): m is ModelRef => m !== undefined);
});

Given("the leader runs {string} with thinking level {string}", function (model: string, thinking: string) {
  const s = state(this);
  s.leader = ref(model);
  s.leaderThinking = thinking;
});

Given("the user ran {string}", function (line: string) {
  const result = runCommand(state(this), line);
  assert.ok(result.ok, result.message);
});

When("a teammate is spawned from a role with model {string}", function (field: string) {
  const s = state(this);
  const role = field === "none" ? undefined : parseModelField(field);
  assert.ok(field === "none" || role, `"${field}" is not a valid model field`);
  s.choice = resolveTeammateModel({ role, leader: s.leader, leaderThinking: s.leaderThinking, teamDefault: s.setting.get() });
});

Then("the model source is {string}", function (source: string) {
  assert.equal(state(this).choice?.source, source);
});

Then("the teammate's model flags are {string}", function (flags: string) {
  const choice = state(this).choice;
  assert.ok(choice, "no teammate was spawned");
  assert.equal(modelFlags(choice).join(" ") || "none", flags);
});

When("the pinned model {string} is checked against Pi's model registry", function (model: string) {
  const s = state(this);
  const wanted = ref(model);
  assert.ok(wanted);
  s.check = checkModel(wanted, s.registry);
});

Then("the model is accepted", function () {
  assert.deepEqual(state(this).check, { ok: true });
});

function refusal(world: object): string {
  const check = state(world).check;
  assert.ok(check && !check.ok, "the model was accepted");
  return check.message;
}

Then("the model is refused saying {string}", function (text: string) {
  const message = refusal(this);
  assert.ok(message.includes(text), `"${message}" lacks "${text}"`);
});

Then("the model refusal says {string}", function (text: string) {
  const message = refusal(this);
  assert.ok(message.includes(text), `"${message}" lacks "${text}"`);
});

When("the user runs {string}", function (line: string) {
  const s = state(this);
  s.command = runCommand(s, line);
});

Then("the command is accepted saying {string}", function (reply: string) {
  assert.deepEqual(state(this).command, { ok: true, message: reply });
});

Then("the command is refused saying {string}", function (text: string) {
  const result = state(this).command;
  assert.ok(result && !result.ok, "the command was accepted");
  assert.ok(result.message.includes(text), `"${result.message}" lacks "${text}"`);
});

Then("the team model reads {string}", function (text: string) {
  assert.equal(state(this).setting.describe(), text);
});
