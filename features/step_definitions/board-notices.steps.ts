/**
 * Board steps: one-shot notices and the board clock (features/board-notices.feature).
 */
import assert from "node:assert/strict";
import { Given, Then, When } from "@cucumber/cucumber";
import { resolveNoticePace } from "../../src/board/index.ts";
import { planRound, scene } from "./board-world.steps.ts";

const MINUTE = 60_000;

Given("the board clock reads {int} minutes", function (minutes: number) {
  scene(this).now = minutes * MINUTE;
});

When("{int} minute(s) pass(es) on the board clock", function (minutes: number) {
  scene(this).now += minutes * MINUTE;
});

When("the board plans notices", function () {
  planRound(scene(this), false);
});

Given("PI_TEAMMATE_NOTICE_PACE_MS is {string}", function (value: string) {
  scene(this).paceMs = resolveNoticePace(value === "" ? undefined : value).paceMs;
});

Then("the notice pace is {int} ms", function (pace: number) {
  assert.equal(scene(this).paceMs, pace);
});

Then("board teammate {string} is notified about {string}", function (name: string, taskId: string) {
  const notice = scene(this).notices.find((e) => e.type === "notify_teammate" && e.to.name === name);
  assert.ok(notice && notice.type === "notify_teammate", `@${name} got no notice`);
  assert.ok(notice.taskIds.includes(taskId), `@${name} was told about ${notice.taskIds.join(", ")}`);
  assert.ok(notice.text.includes(`\`${taskId}\``));
});

Then("nobody is notified", function () {
  assert.deepEqual(scene(this).notices, []);
});
