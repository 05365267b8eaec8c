/**
 * Board steps: task_submit, the verify gate, supersession and holders that stop
 * (features/board-submit.feature, features/board-verify.feature).
 */
import assert from "node:assert/strict";
import { Given, Then, When } from "@cucumber/cucumber";
import { gateOutcome, holderOf, parseVerdict, releaseHolder, submitTask, type Effect } from "../../src/board/index.ts";
import { assertRejected, holder, lastResult, mate, names, record, scene, unescape, type BoardScene } from "./board-world.steps.ts";

function submit(s: BoardScene, who: { name: string; spawnId: string }, taskId: string, status: string, result?: string): void {
  assert.ok(status === "completed" || status === "failed", `status ${status}`);
  const roleVerify = s.mates.get(who.name)?.roleVerify;
  const r = submitTask(
    s.board,
    { holder: who, taskId, status, ...(result !== undefined ? { result } : {}), ...(roleVerify ? { roleVerify } : {}) },
    s.now,
  );
  record(s, r.ok ? { ok: true, effects: r.effects, outcome: r.outcome, taskId } : { ok: false, reason: r.reason, message: r.message, effects: r.effects });
}

function answer(s: BoardScene, taskId: string, text: string, which: "latest" | "earliest"): void {
  const tokens = s.tokens.get(taskId) ?? [];
  const token = which === "latest" ? tokens.at(-1) : tokens[0];
  assert.ok(token, `no reviewer was started for ${taskId}`);
  const r = gateOutcome(s.board, { token, text: unescape(text) }, s.now);
  record(s, r.ok ? { ok: true, effects: r.effects, outcome: r.outcome, taskId } : { ok: false, reason: r.reason, message: r.message, effects: r.effects });
}

function effectsOf<T extends Effect["type"]>(s: BoardScene, type: T, taskId: string): Extract<Effect, { type: T }>[] {
  return s.effects.filter((e): e is Extract<Effect, { type: T }> => e.type === type && "taskId" in e && e.taskId === taskId);
}

function gone(s: BoardScene, name: string, reason: "shutdown" | "crash"): void {
  const m = mate(s, name);
  const r = releaseHolder(s.board, { name, spawnId: m.spawnId }, reason, s.now);
  s.mates.delete(name);
  record(s, { ok: true, effects: r.effects });
}

When("board teammate {string} submits task {string} as {word}", function (name: string, taskId: string, status: string) {
  const s = scene(this);
  submit(s, holder(mate(s, name)), taskId, status);
});

Given("board teammate {string} submits task {string} as {word} with result {string}", function (name: string, taskId: string, status: string, result: string) {
  const s = scene(this);
  submit(s, holder(mate(s, name)), taskId, status, result);
});

When("a stale incarnation of {string} submits task {string} as {word}", function (name: string, taskId: string, status: string) {
  submit(scene(this), { name, spawnId: `${name}-0` }, taskId, status);
});

When("board teammate {string} stops", function (name: string) {
  gone(scene(this), name, "shutdown");
});

When("board teammate {string} crashes", function (name: string) {
  gone(scene(this), name, "crash");
});

When("the reviewer of task {string} answers {string}", function (taskId: string, text: string) {
  answer(scene(this), taskId, text, "latest");
});

When("the earlier reviewer of task {string} answers {string}", function (taskId: string, text: string) {
  answer(scene(this), taskId, text, "earliest");
});

Then("the submission is accepted as {string}", function (outcome: string) {
  const r = lastResult(scene(this));
  assert.ok(r.ok, r.message);
  assert.equal(r.outcome, outcome);
});

Then("the submission is rejected as {string} naming {string}", function (reason: string, mentions: string) {
  assertRejected(scene(this), reason, mentions);
});

Then("task {string} is {word}", function (taskId: string, status: string) {
  assert.equal(scene(this).board.tasks.get(taskId)?.state.status, status);
});

Then("task {string} is not completed", function (taskId: string) {
  assert.notEqual(scene(this).board.tasks.get(taskId)?.state.status, "completed");
});

Then("task {string} is held by {string}", function (taskId: string, name: string) {
  const state = scene(this).board.tasks.get(taskId)?.state;
  assert.equal(state && holderOf(state)?.name, name);
});

Then("task {string} has no holder", function (taskId: string) {
  const state = scene(this).board.tasks.get(taskId)?.state;
  assert.ok(state);
  assert.equal(holderOf(state), undefined);
});

Then("task {string} keeps the error {string}", function (taskId: string, error: string) {
  const task = scene(this).board.tasks.get(taskId);
  assert.ok(task?.lastError?.includes(error), `lastError ${JSON.stringify(task?.lastError)}`);
});

Then("task {string} depends on {string}", function (taskId: string, deps: string) {
  assert.deepEqual(scene(this).board.tasks.get(taskId)?.dependsOn, names(deps));
});

Then("task {string} locks the resources {string}", function (taskId: string, tags: string) {
  assert.deepEqual(scene(this).board.tasks.get(taskId)?.resources, names(tags));
});

Then("task {string} is superseded by {string}", function (taskId: string, by: string) {
  const state = scene(this).board.tasks.get(taskId)?.state;
  assert.equal(state?.status, "superseded");
  assert.equal(state.status === "superseded" && state.by, by);
});

Then("task {string} has {int} failed review(s)", function (taskId: string, count: number) {
  const state = scene(this).board.tasks.get(taskId)?.state;
  assert.ok(state && "holding" in state, `task ${taskId} has no holding`);
  assert.equal(state.holding.failures, count);
});

Then("board teammate {string} is told task {string} is superseded", function (name: string, taskId: string) {
  const told = effectsOf(scene(this), "tell_holder", taskId).filter((e) => e.about === "superseded" && e.to.name === name);
  assert.equal(told.length, 1);
});

Then("no reviewer is started", function () {
  assert.equal(lastResult(scene(this)).effects.filter((e) => e.type === "start_reviewer").length, 0);
});

Then("a reviewer is started for task {string}", function (taskId: string) {
  const started = lastResult(scene(this)).effects.filter((e) => e.type === "start_reviewer" && e.taskId === taskId);
  assert.equal(started.length, 1);
});

Then("the reviewer prompt for task {string} includes {string}", function (taskId: string, parts: string) {
  const prompt = effectsOf(scene(this), "start_reviewer", taskId).at(-1)?.prompt ?? "";
  for (const part of names(parts)) assert.ok(prompt.includes(part), `prompt lacks ${JSON.stringify(part)}:\n${prompt}`);
});

Then("the reviewer prompt for task {string} does not include {string}", function (taskId: string, text: string) {
  assert.ok(!(effectsOf(scene(this), "start_reviewer", taskId).at(-1)?.prompt ?? "").includes(text));
});

Then("board teammate {string} receives findings for task {string} including {string}", function (name: string, taskId: string, text: string) {
  const findings = effectsOf(scene(this), "send_findings", taskId).at(-1);
  assert.equal(findings?.to.name, name);
  assert.ok(findings?.text.includes(text), findings?.text);
});

Then("the leader receives {int} escalation(s) about task {string}", function (count: number, taskId: string) {
  assert.equal(effectsOf(scene(this), "escalate", taskId).length, count);
});

Then("the reviewer of task {string} is asked for a clarification", function (taskId: string) {
  const r = lastResult(scene(this));
  assert.ok(r.effects.some((e) => e.type === "clarify_reviewer" && e.taskId === taskId));
});

Then("the reviewer of task {string} was asked for {int} clarification(s)", function (taskId: string, count: number) {
  assert.equal(effectsOf(scene(this), "clarify_reviewer", taskId).length, count);
});

Then("the reviewer of task {string} is aborted", function (taskId: string) {
  const s = scene(this);
  const token = s.tokens.get(taskId)?.[0];
  assert.ok(effectsOf(s, "abort_reviewer", taskId).some((e) => e.token === token), "no abort_reviewer for the running reviewer");
});

Then("the reviewer outcome is ignored", function () {
  const r = lastResult(scene(this));
  assert.equal(r.ok, false);
  assert.equal(r.reason, "stale_gate");
  assert.ok(r.effects.some((e) => e.type === "abort_reviewer"));
});

Then("the reviewer text {string} reads as {word}", function (text: string, kind: string) {
  assert.equal(parseVerdict(unescape(text)).kind, kind);
});

Then("the reviewer text {string} reads as fail with {string}", function (text: string, reasons: string) {
  const v = parseVerdict(unescape(text));
  assert.equal(v.kind, "fail");
  assert.equal(v.kind === "fail" && v.reasons, unescape(reasons));
});
