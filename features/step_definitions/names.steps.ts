import assert from "node:assert/strict";
import { Given, Then, When } from "@cucumber/cucumber";
import { validateTeammateName, type TeammateNameResult } from "../../src/mail/names.ts";

/** Scenario state, kept on the shared World under a key of its own. */
interface NamesState {
  living: string[];
  result?: TeammateNameResult;
}

function state(world: object): NamesState {
  const w = world as { teammateNames?: NamesState };
  w.teammateNames ??= { living: [] };
  return w.teammateNames;
}

Given("the living teammates are {string}", function (names: string) {
  state(this).living = names.split(",").map((n) => n.trim()).filter((n) => n !== "");
});

Given("the living teammate {string} has stopped", function (name: string) {
  const s = state(this);
  assert.ok(s.living.includes(name), `"${name}" is not living`);
  s.living = s.living.filter((n) => n !== name);
});

When("a new teammate asks for the name {string}", function (name: string) {
  const s = state(this);
  s.result = validateTeammateName(name, s.living);
});

When("a new teammate asks for a name of {int} letters", function (length: number) {
  const s = state(this);
  s.result = validateTeammateName("n".repeat(length), s.living);
});

Then("the name is accepted", function () {
  assert.deepEqual(state(this).result, { ok: true });
});

Then("the name is refused as {string} mentioning {string}", function (reason: string, text: string) {
  const result = state(this).result;
  assert.ok(result && !result.ok, "the name was accepted");
  assert.equal(result.reason, reason);
  assert.ok(result.message.includes(text), `"${result.message}" lacks ${text}`);
});

Then("the name is refused as {string} naming the character {string}", function (reason: string, char: string) {
  const result = state(this).result;
  assert.ok(result && !result.ok, "the name was accepted");
  assert.equal(result.reason, reason);
  const shown = JSON.stringify(char === "space" ? " " : char);
  assert.ok(result.message.includes(shown), `"${result.message}" lacks ${shown}`);
});
