/**
 * Steps of features/compaction.feature: the real Compactor and the real pure lifecycle of one
 * teammate (@ada), with the team's queue and Pi's answers faked (tests/support/compaction-world.ts).
 */
import assert from "node:assert/strict";
import { Given, Then, When } from "@cucumber/cucumber";
import type { OutboxRecord } from "../../src/mail/index.ts";
import { CompactionWorld } from "../../tests/support/compaction-world.ts";

interface Ctx {
  at: number;
  world?: CompactionWorld;
  line?: string;
}

function ctx(w: object): Ctx {
  const c = w as { compaction?: Ctx };
  c.compaction ??= { at: 80 };
  return c.compaction;
}

function world(w: object): CompactionWorld {
  const c = ctx(w);
  c.world ??= new CompactionWorld(c.at);
  return c.world;
}

Given("the compaction threshold is {int}%", function (at: number) {
  ctx(this).at = at;
});

Given("@ada works on a direct assignment", function () {
  world(this).working();
});

Given("@ada works on a board task", function () {
  const w = world(this);
  w.idle();
  w.mail("Board notice: task t1 is claimable.", "task-board");
  w.accept();
  w.apply({ type: "run_started" });
});

Given("@ada's context is at {int}% of its window", function (percent: number) {
  world(this).child.percent = percent;
});

Given("Pi fails @ada's compactions with {string}", function (error: string) {
  world(this).child.compact = () => new Error(error);
});

Given("Pi takes its time to compact @ada", function () {
  world(this).child.hold = true;
});

When("@ada sends its {string} report", function (status: OutboxRecord["status"]) {
  world(this).report(status);
});

When("the board accepts a submission by @ada", function () {
  const w = world(this);
  w.compactor.boundary(w.mate); // what LeaderHarness#assignmentBoundary does for an accepted task_submit
});

When("@ada's run settles", async function () {
  const w = world(this);
  w.settle();
  await w.flush();
});

When("mail {string} wakes @ada", async function (body: string) {
  const w = world(this);
  w.mail(body);
  w.accept();
  await w.flush();
});

When("mail {string} arrives for @ada", function (body: string) {
  world(this).mail(body);
});

When("Pi finishes compacting @ada", async function () {
  const w = world(this);
  w.release();
  await w.flush();
});

When("the user compacts @ada", async function () {
  const w = world(this);
  ctx(this).line = await w.compactor.compact(w.mate, "user");
});

Then("@ada's child was asked to compact {int} time(s)", function (n: number) {
  assert.equal(world(this).commands.filter((c) => c === "compact").length, n);
});

Then("the last compaction of @ada is {string} by {string}", function (state: string, by: string) {
  const last = world(this).infos.at(-1);
  assert.deepEqual([last?.state, last?.by], [state, by]);
});

Then("the leader's model is woken only for @ada's report", function () {
  assert.deepEqual(world(this).leaderTurns().map((e) => e.type), ["deliver_report"]);
});

Then("nothing is sent to @ada", function () {
  assert.deepEqual(world(this).sends(), world(this).sends("kickoff"));
});

Then("@ada is woken with {string}", function (body: string) {
  const wakes = world(this).sends("wake");
  assert.equal(wakes.length, 1);
  assert.deepEqual(wakes[0]?.mail.map((r) => r.body), [body]);
});

Then("the console says {string}", function (line: string) {
  assert.equal(ctx(this).line, line);
});
