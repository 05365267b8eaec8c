/**
 * Board steps: setup, task_create, task_list and task_claim (features/board.feature,
 * features/board-claims.feature).
 */
import assert from "node:assert/strict";
import { Given, Then, When, type DataTable } from "@cucumber/cucumber";
import {
  TaskClaimParams,
  TaskCreateParams,
  TaskListParams,
  TaskSubmitParams,
  claimTask,
  createBoard,
  createTask,
  describeCreate,
  normalizeCreateInput,
  renderTaskList,
  submitTask,
  type CreateInput,
} from "../../src/board/index.ts";
import { assertRejected, assignments, holder, lastResult, mate, names, planRound, record, scene, type BoardScene } from "./board-world.steps.ts";

function create(s: BoardScene, input: CreateInput): void {
  const r = createTask(s.board, input, s.now);
  if (!r.ok) {
    record(s, { ok: false, reason: r.reason, message: r.message, effects: r.effects });
    return;
  }
  record(s, { ok: true, effects: r.effects, taskId: r.task.id });
  s.created = r.task.id;
  planRound(s, true, [r.task.id]);
  const plan = { effects: s.notices, notified: s.notices.flatMap((e) => (e.type === "notify_teammate" ? [e.to.name] : [])) };
  s.text = describeCreate(s.board, { created: r, plan, living: s.mates.size, boardLabel: "~/.pi/agent/tasks/<session>/board.json" });
  s.last = { ok: true, effects: r.effects, taskId: r.task.id };
}

function inputFromRow(row: Record<string, string>): CreateInput {
  const list = (key: string): string[] => names(row[key] ?? "");
  return {
    subject: row.subject ?? "",
    ...(row.description ? { description: row.description } : {}),
    ...(row.verify ? { verify: row.verify } : {}),
    dependsOn: list("dependsOn"),
    resources: list("resources"),
    supersedes: list("supersedes"),
  };
}

function claim(s: BoardScene, name: string, taskId?: string): void {
  const m = mate(s, name);
  const input = { holder: { ...holder(m), hasAssignment: m.hasAssignment }, assignments: assignments(s) };
  const r = claimTask(s.board, taskId === undefined ? input : { ...input, taskId }, s.now);
  record(s, r.ok ? { ok: true, effects: r.effects, taskId: r.task.id } : { ok: false, reason: r.reason, message: r.message, effects: r.effects });
}

/** Claims `taskId` for `name`, failing the step when rejected. */
export function mustClaim(s: BoardScene, name: string, taskId: string): void {
  claim(s, name, taskId);
  const r = lastResult(s);
  assert.ok(r.ok, r.message);
  mate(s, name).idle = false;
}

Given("an empty task board", function () {
  scene(this).board = createBoard();
});

Given("the board has a task {string}", function (subject: string) {
  const s = scene(this);
  const r = createTask(s.board, { subject }, s.now);
  assert.ok(r.ok, r.ok ? "" : r.message);
});

Given("the board has tasks:", function (table: DataTable) {
  const s = scene(this);
  for (const row of table.hashes()) {
    const r = createTask(s.board, inputFromRow(row), s.now);
    assert.ok(r.ok, r.ok ? "" : r.message);
  }
});

Given("the board has {int} tasks", function (count: number) {
  const s = scene(this);
  for (let i = 0; i < count; i++) createTask(s.board, { subject: `Task ${i}` }, s.now);
});

Given("board teammates {string} are idle", function (list: string) {
  const s = scene(this);
  for (const name of names(list)) mate(s, name).idle = true;
});

Given("board teammate {string} is busy", function (name: string) {
  mate(scene(this), name).idle = false;
});

Given("board teammate {string} is idle", function (name: string) {
  mate(scene(this), name).idle = true;
});

Given("board teammate {string} has a direct assignment", function (name: string) {
  mate(scene(this), name).hasAssignment = true;
});

Given("board teammate {string} has a direct assignment on {string}", function (name: string, resources: string) {
  const m = mate(scene(this), name);
  m.hasAssignment = true;
  m.assignmentResources = names(resources);
});

Given("board teammate {string} has role verify {string}", function (name: string, verify: string) {
  mate(scene(this), name).roleVerify = verify;
});

Given("board teammate {string} holds task {string}", function (name: string, taskId: string) {
  mustClaim(scene(this), name, taskId);
});

Given("board teammate {string} has completed task {string}", function (name: string, taskId: string) {
  const s = scene(this);
  mustClaim(s, name, taskId);
  const r = submitTask(s.board, { holder: holder(mate(s, name)), taskId, status: "completed" }, s.now);
  assert.ok(r.ok && r.outcome === "completed", r.ok ? r.outcome : r.message);
});

Given("board teammate {string} holds a task on {string}", function (name: string, tags: string) {
  const s = scene(this);
  const r = createTask(s.board, { subject: "Held work", resources: names(tags) }, s.now);
  assert.ok(r.ok, r.ok ? "" : r.message);
  mustClaim(s, name, r.task.id);
});

When("the leader creates a task {string}", function (subject: string) {
  create(scene(this), { subject });
});

When("the leader creates a task from:", function (table: DataTable) {
  create(scene(this), inputFromRow(table.rowsHash()));
});

function callCreate(s: BoardScene, json: string): void {
  const input = normalizeCreateInput(JSON.parse(json));
  if (!input.ok) {
    record(s, { ok: false, reason: input.reason, message: input.message, effects: [] });
    return;
  }
  create(s, input.value);
}

When("the leader calls task_create with arguments {string}", function (json: string) {
  callCreate(scene(this), json);
});

When("the leader calls task_create with arguments:", function (json: string) {
  callCreate(scene(this), json);
});

When("the leader supersedes task {string}", function (taskId: string) {
  create(scene(this), { subject: `Replacement for ${taskId}`, supersedes: [taskId] });
});

When("board teammate {string} claims task {string}", function (name: string, taskId: string) {
  claim(scene(this), name, taskId);
});

When("board teammate {string} claims the next task", function (name: string) {
  claim(scene(this), name);
});

When("board teammates {string} all claim task {string}", function (list: string, taskId: string) {
  const s = scene(this);
  const results = names(list).map((name) => {
    claim(s, name, taskId);
    return { name, ...lastResult(s) };
  });
  s.race = results;
});

When("the leader lists the board", function () {
  const s = scene(this);
  const roster = [...s.mates.values()].map((m) => ({ name: m.name, status: m.idle ? "idle" : "working" }));
  s.text = renderTaskList(s.board, { audience: "leader", roster });
});

When("board teammate {string} lists the board", function (name: string) {
  const s = scene(this);
  const roster = [...s.mates.values()].map((m) => ({ name: m.name, status: m.idle ? "idle" : "working" }));
  s.text = renderTaskList(s.board, { audience: "worker", self: name, roster });
});

Then("the task is created with id {string}", function (id: string) {
  const r = lastResult(scene(this));
  assert.ok(r.ok, r.message);
  assert.equal(r.taskId, id);
});

Then("the create is rejected as {string} naming {string}", function (reason: string, ids: string) {
  const s = scene(this);
  assertRejected(s, reason, names(ids).map((id) => `\`${id}\``).join(","));
});

Then("the create input is rejected naming the field {string} and the value {string}", function (field: string, value: string) {
  const r = lastResult(scene(this));
  assert.equal(r.ok, false);
  assert.ok(r.message?.includes(field) && r.message.includes(value), `${JSON.stringify(r.message)} should name ${field} and ${value}`);
});

Then("every board tool parameter schema has a plain object root", function () {
  for (const schema of [TaskCreateParams, TaskListParams, TaskClaimParams, TaskSubmitParams]) {
    assert.equal(schema.type, "object");
    assert.ok(!("anyOf" in schema) && !("oneOf" in schema));
  }
});

Then("the create result says {string}", function (text: string) {
  const s = scene(this);
  assert.ok(s.text?.includes(text), `${JSON.stringify(s.text)} does not say ${JSON.stringify(text)}`);
});

Then("the board lists task ids {string}", function (ids: string) {
  assert.deepEqual([...scene(this).board.tasks.keys()], names(ids));
});

Then("the listing includes {string}", function (text: string) {
  const s = scene(this);
  assert.ok(s.text?.includes(text), `listing does not include ${JSON.stringify(text)}:\n${s.text}`);
});

Then("the listing does not include {string}", function (text: string) {
  assert.ok(!scene(this).text?.includes(text));
});

Then("the listing shows {int} tasks", function (count: number) {
  const lines = (scene(this).text ?? "").split("\n").filter((l) => l.startsWith("- `"));
  assert.equal(lines.length, count);
});

Then("the claim is accepted for task {string}", function (taskId: string) {
  const r = lastResult(scene(this));
  assert.ok(r.ok, r.message);
  assert.equal(r.taskId, taskId);
});

Then("the claim is rejected as {string} naming {string}", function (reason: string, mentions: string) {
  assertRejected(scene(this), reason, mentions);
});

Then("a task on {string} can be claimed by {string}: {word}", function (tags: string, name: string, answer: string) {
  const s = scene(this);
  const r = createTask(s.board, { subject: "Wanted work", resources: names(tags) }, s.now);
  assert.ok(r.ok, r.ok ? "" : r.message);
  claim(s, name, r.task.id);
  const claimed = lastResult(s);
  assert.equal(claimed.ok, answer === "yes", claimed.message);
  if (!claimed.ok) assert.equal(claimed.reason, "resource_conflict");
});

Then("exactly one claim wins and the other {int} are rejected as {string} naming the winner", function (losers: number, reason: string) {
  const race = scene(this).race ?? [];
  const winners = race.filter((r) => r.ok);
  assert.equal(winners.length, 1);
  const lost = race.filter((r) => !r.ok);
  assert.equal(lost.length, losers);
  for (const r of lost) {
    assert.equal(r.reason, reason);
    assert.ok(r.message?.includes(`@${winners[0]?.name}`), r.message);
  }
});
