import assert from "node:assert/strict";
import { Given, Then, When } from "@cucumber/cucumber";
import type { OutboxRecord } from "../../src/mail/index.ts";
import type { Worktree } from "../../src/isolation/index.ts";
import { occupies, statusOf } from "../../src/team/lifecycle.ts";
import { LifecycleSim, SIM_SPAWN, simMail, simReport } from "../../tests/support/lifecycle-sim.ts";

const WORKTREE = { name: "alice", spawnId: SIM_SPAWN, dir: "/wt/alice", cwd: "/wt/alice", branch: "pi-team/alice-11111111", base: "abc" } as Worktree;

/** The world's simulated teammate, its clock starting at 0. */
function life(world: object): LifecycleSim {
  const w = world as { life?: LifecycleSim };
  w.life ??= new LifecycleSim({ now: 0 });
  return w.life;
}

Given("stall thresholds of {int} ms and {int} ms", function (stallMs: number, silentMs: number) {
  life(this).heartbeat = { stallMs, silentMs: stallMs === 0 ? 0 : silentMs };
});

Given("a teammate working on a kickoff", function () {
  life(this).startWorking("Do it.");
});

Given("an idle teammate", function () {
  life(this).apply({ type: "ready" });
});

When("mail {string} arrives", function (body: string) {
  life(this).apply({ type: "mail", records: [simMail(body, "bob", 1)] });
});

When("the child accepts the send", function () {
  life(this).answer();
});

When("the leader asks it to stop", function () {
  life(this).apply({ type: "stop_requested" });
});

When("its run settles", function () {
  life(this).apply({ type: "run_settled" });
});

When("its child closes", function () {
  life(this).apply({ type: "closed", exit: { code: null, signal: "SIGKILL" }, stderrTail: "" });
});

When("it reports {string}", function (status: string) {
  life(this).apply({ type: "outbox", records: [simReport(status as OutboxRecord["status"], "done")] });
});

When("{int} s pass in silence", function (seconds: number) {
  const l = life(this);
  for (let t = 1; t <= seconds; t++) {
    l.now = t * 1000;
    l.apply({ type: "tick" });
  }
});

Then("the teammate has 1 send in flight carrying {string}", function (body: string) {
  assert.deepEqual(life(this).sending?.mail.map((r) => r.body), [body]);
});

Then("the send is a {string}", function (kind: string) {
  assert.equal(life(this).sending?.kind, kind);
});

Then("nothing is in flight", function () {
  assert.equal(life(this).sending, undefined);
});

Then("the teammate is stopped as requested", function () {
  const s = life(this).state;
  assert.ok(!occupies(s) && statusOf(s) === "stopped" && "requested" in s && s.requested);
});

Given("a starting teammate with its worktree made", function () {
  life(this).apply({ type: "acquired", holdings: { worktree: WORKTREE } });
});

When("its spawn gives up", function () {
  life(this).apply({ type: "spawn_failed" });
});

When("its holdings are released", function () {
  life(this).apply({ type: "captured" });
});

Then("its worktree is to be {word}", function (how: string) {
  const release = life(this).effects.filter((e) => e.type === "release");
  assert.equal(release.length, 1);
  assert.equal(release[0]?.type === "release" ? release[0].worktree?.how : undefined, how === "captured" ? "capture" : "discard");
});

Then("what it holds is to be released", function () {
  assert.equal(life(this).effects.filter((e) => e.type === "release").length, 1);
});

Then("the teammate is stopped for good", function () {
  assert.equal(life(this).state.phase, "stopped");
});

/** The leader events among the effects: a crash is worded by the shell (`crash_event`), the rest here. */
function eventTypes(l: LifecycleSim): string[] {
  return l.effects.flatMap((e) => (e.type === "harness_event" ? [e.event.type] : e.type === "crash_event" ? ["teammate_crashed"] : []));
}

Then("the leader got no harness event", function () {
  assert.deepEqual(eventTypes(life(this)), []);
});

Then("the leader got the harness event {string} {int} time(s)", function (type: string, count: number) {
  assert.equal(eventTypes(life(this)).filter((t) => t === type).length, count);
});

Then("the leader got {int} health notice(s)", function (count: number) {
  assert.equal(life(this).effects.filter((e) => e.type === "health").length, count);
});
