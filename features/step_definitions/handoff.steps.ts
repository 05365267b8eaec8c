import assert from "node:assert/strict";
import { Given, Then, When } from "@cucumber/cucumber";
import { checkHandoff, handoffDelivery, handoffKickoff, HANDOFF_REPORTS, type HandoffFacts } from "../../src/team/handoff.ts";

interface HandoffWorld {
  members: Array<{ name: string; living: boolean }>;
  facts: Map<string, HandoffFacts>;
  last?: string;
  refusal?: string;
  kickoff?: string;
  delivery?: "kickoff" | "mail";
}

function state(world: object): HandoffWorld {
  const w = world as { handoff?: HandoffWorld };
  w.handoff ??= { members: [], facts: new Map() };
  return w.handoff;
}

function facts(s: HandoffWorld): HandoffFacts {
  const f = s.facts.get(s.last!);
  assert.ok(f, "no stopped teammate was given");
  return f;
}

Given("a living teammate {string}", function (name: string) {
  state(this).members.push({ name, living: true });
});

Given("a stopped teammate {string}", function (name: string) {
  const s = state(this);
  s.members.push({ name, living: false });
  s.facts.set(name.toLowerCase(), { name, agent: "porter", assignmentOpen: false, claims: [], reports: [] });
  s.last = name.toLowerCase();
});

Given("its latest assignment was {string}", function (text: string) {
  const f = facts(state(this));
  f.assignment = text;
  f.assignmentOpen = true;
});

Given("it finished that assignment", function () {
  facts(state(this)).assignmentOpen = false;
});

Given("it held board task {string} {string} when it stopped", function (id: string, subject: string) {
  facts(state(this)).claims.push({ id, subject });
});

Given("it reported {string}: {string}", function (status: string, body: string) {
  // The harness keeps only the latest few (Member#noteReport); the rule under test is what the kickoff shows.
  const f = facts(state(this));
  f.reports.push({ status, body });
  if (f.reports.length > HANDOFF_REPORTS) f.reports.shift();
});

Given("its work is kept on branch {string} based on {string}", function (name: string, base: string) {
  facts(state(this)).branch = { name, base };
});

function spawn(world: object, from: string, successor: { prompt?: string; worktree: boolean }): void {
  const s = state(world);
  const check = checkHandoff(from, s.members);
  if (!check.ok) {
    s.refusal = check.message;
    return;
  }
  const f = s.facts.get(from.toLowerCase())!;
  s.kickoff = handoffKickoff(f, successor);
  s.delivery = handoffDelivery(f, successor.prompt);
}

When("a successor is spawned with handoffFrom {string}", function (from: string) {
  spawn(this, from, { worktree: false });
});

When("a worktree successor is spawned with handoffFrom {string}", function (from: string) {
  spawn(this, from, { worktree: true });
});

When("a shared-tree successor is spawned with handoffFrom {string} and prompt {string}", function (from: string, prompt: string) {
  spawn(this, from, { worktree: false, prompt });
});

Then("the handoff is refused mentioning {string} and {string}", function (a: string, b: string) {
  const { refusal } = state(this);
  assert.ok(refusal, "the handoff was accepted");
  assert.ok(refusal.includes(a), `${JSON.stringify(refusal)} lacks ${JSON.stringify(a)}`);
  assert.ok(refusal.includes(b), `${JSON.stringify(refusal)} lacks ${JSON.stringify(b)}`);
});

Then("the handoff is accepted", function () {
  const s = state(this);
  assert.equal(s.refusal, undefined);
  assert.ok(s.kickoff);
});

Then("the kickoff says {string}", function (text: string) {
  const { kickoff } = state(this);
  assert.ok(kickoff?.includes(text), `kickoff lacks ${JSON.stringify(text)}:\n${kickoff}`);
});

Then("the kickoff does not say {string}", function (text: string) {
  const { kickoff } = state(this);
  assert.ok(kickoff !== undefined && !kickoff.split("\n").some((l) => l.trim() === text), `kickoff says ${JSON.stringify(text)}:\n${kickoff}`);
});

Then("the kickoff ends with {string}", function (text: string) {
  const { kickoff } = state(this);
  assert.ok(kickoff?.trimEnd().endsWith(text), `kickoff does not end with ${JSON.stringify(text)}:\n${kickoff}`);
});

Given("its worktree was left in place at {string}", function (dir: string) {
  facts(state(this)).leftAt = dir;
});

Then("the handoff goes as a kickoff", function () {
  assert.equal(state(this).delivery, "kickoff");
});

Then("the handoff goes as mail at its first wake", function () {
  assert.equal(state(this).delivery, "mail");
});
