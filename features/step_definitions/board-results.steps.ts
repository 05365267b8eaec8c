/**
 * Board steps for parked tasks, results and the board-settled summary
 * (features/board-verify.feature, features/board-settled.feature). Thin calls into src/board;
 * the fake shell's part is only "who is working" and "which summary key was delivered last".
 */
import assert from "node:assert/strict";
import { Given, Then, When } from "@cucumber/cucumber";
import { allowResubmit, checkSettled, gateOutcome, renderTaskDetail, submitTask, type Effect } from "../../src/board/index.ts";
import { holder, mate, names, record, scene, unescape, type BoardScene } from "./board-world.steps.ts";

/** What the fake shell remembers about board-settled summaries. */
interface SettleScene {
  lastKey?: string;
  summaries: string[];
}

function settle(world: object): SettleScene {
  const w = world as { boardSettle?: SettleScene };
  w.boardSettle ??= { summaries: [] };
  return w.boardSettle;
}

function submitAndFail(s: BoardScene, name: string, taskId: string, reason: string): void {
  const r = submitTask(s.board, { holder: holder(mate(s, name)), taskId, status: "completed", result: `attempt by ${name}` }, s.now);
  record(s, r.ok ? { ok: true, effects: r.effects, outcome: r.outcome, taskId } : { ok: false, reason: r.reason, message: r.message, effects: r.effects });
  const start = r.effects.find((e) => e.type === "start_reviewer");
  assert.ok(start?.type === "start_reviewer", `no reviewer started for ${taskId}`);
  const g = gateOutcome(s.board, { token: start.token, text: `VERDICT: FAIL - ${reason}` }, s.now);
  record(s, g.ok ? { ok: true, effects: g.effects, outcome: g.outcome, taskId } : { ok: false, reason: g.reason, message: g.message, effects: g.effects });
}

function escalations(s: BoardScene, taskId: string): Extract<Effect, { type: "escalate" }>[] {
  return s.effects.filter((e): e is Extract<Effect, { type: "escalate" }> => e.type === "escalate" && e.taskId === taskId);
}

Given("task {string} is parked with {string} after two failed reviews", function (taskId: string, name: string) {
  const s = scene(this);
  submitAndFail(s, name, taskId, "first");
  submitAndFail(s, name, taskId, "second");
  assert.equal(s.board.tasks.get(taskId)?.state.status, "parked");
});

When("the leader reopens board teammate {string}", function (name: string) {
  const s = scene(this);
  const r = allowResubmit(s.board, holder(mate(s, name)), s.now);
  record(s, { ok: true, effects: r.effects, ...(r.allowed[0] ? { taskId: r.allowed[0] } : {}) });
});

Then("board teammate {string} is told one more attempt of task {string} is allowed", function (name: string, taskId: string) {
  const told = scene(this).last?.effects.filter((e) => e.type === "tell_holder" && e.about === "resubmit_allowed" && e.taskId === taskId && e.to.name === name) ?? [];
  assert.equal(told.length, 1);
});

Then("the escalation about task {string} names board teammate {string} and says {string}", function (taskId: string, name: string, text: string) {
  const [e, ...more] = escalations(scene(this), taskId);
  assert.ok(e, `no escalation about ${taskId}`);
  assert.equal(more.length, 0);
  assert.equal(e.holder.name, name);
  assert.ok(e.text.includes(text), `escalation lacks ${JSON.stringify(text)}:\n${e.text}`);
});

When("the shell checks whether the board settled", function () {
  const s = scene(this);
  const memo = settle(this);
  const teamWorking = [...s.mates.values()].some((m) => !m.idle);
  const d = checkSettled(s.board, { teamWorking, lastKey: memo.lastKey });
  if (d.kind === "settled") {
    memo.lastKey = d.key;
    memo.summaries.push(d.text);
  }
});

Then("the leader has received {int} board summary/summaries", function (count: number) {
  assert.equal(settle(this).summaries.length, count, settle(this).summaries.join("\n---\n"));
});

Then("the last board summary names {string}", function (parts: string) {
  const text = settle(this).summaries.at(-1) ?? "";
  for (const part of names(parts)) assert.ok(text.includes(part), `summary lacks ${JSON.stringify(part)}:\n${text}`);
});

When("board teammate {string} submits task {string} as completed with the long result {string} repeated {int} times", function (name: string, taskId: string, chunk: string, times: number) {
  const s = scene(this);
  const r = submitTask(s.board, { holder: holder(mate(s, name)), taskId, status: "completed", result: unescape(chunk).repeat(times) }, s.now);
  record(s, r.ok ? { ok: true, effects: r.effects, outcome: r.outcome, taskId } : { ok: false, reason: r.reason, message: r.message, effects: r.effects });
});

When("the leader views task {string}", function (taskId: string) {
  const s = scene(this);
  const r = renderTaskDetail(s.board, taskId);
  if (r.ok) {
    s.text = r.text;
    record(s, { ok: true, effects: [], taskId });
  } else {
    s.text = r.message;
    record(s, { ok: false, reason: r.reason, message: r.message, effects: [] });
  }
});

Then("the listing line of task {string} is at most {int} characters long", function (taskId: string, max: number) {
  const line = (scene(this).text ?? "").split("\n").find((l) => l.startsWith(`- \`${taskId}\``));
  assert.ok(line, `no line for ${taskId}`);
  assert.ok(line.length <= max, `line is ${line.length} chars: ${line}`);
});
