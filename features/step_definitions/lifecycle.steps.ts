import assert from "node:assert/strict";
import { Given, Then, When } from "@cucumber/cucumber";
import { makeInboxRecord, type OutboxRecord } from "../../src/mail/index.ts";
import type { Worktree } from "../../src/isolation/index.ts";
import { initialState, occupies, statusOf, transition, type TeammateEffect, type TeammateEvent, type TeammateState } from "../../src/team/lifecycle.ts";

const SPAWN = "11111111-1111-4111-8111-111111111111";
const WORKTREE = { name: "alice", spawnId: SPAWN, dir: "/wt/alice", cwd: "/wt/alice", branch: "pi-team/alice-11111111", base: "abc" } as Worktree;

interface Life {
  state: TeammateState;
  effects: TeammateEffect[];
  now: number;
  heartbeat: { stallMs: number; silentMs: number };
}

function life(world: object): Life {
  const w = world as { life?: Life };
  w.life ??= { state: initialState(SPAWN, 0), effects: [], now: 0, heartbeat: { stallMs: 0, silentMs: 0 } };
  return w.life;
}

function apply(l: Life, e: TeammateEvent): void {
  const facts = { name: "alice", agent: "worker", role: "You are a worker.", startedAt: 0, log: "/tmp/alice.log" };
  const step = transition(l.state, e, l.now, { facts, heartbeat: l.heartbeat });
  l.state = step.state;
  l.effects.push(...step.effects);
}

function inFlight(l: Life) {
  return !("life" in l.state) ? undefined : l.state.life.sending;
}

function accept(l: Life): void {
  const sending = inFlight(l);
  assert.ok(sending, "a send in flight");
  apply(l, { type: "sent", ticket: sending.ticket, ok: true, started: false });
}

Given("stall thresholds of {int} ms and {int} ms", function (stallMs: number, silentMs: number) {
  life(this).heartbeat = { stallMs, silentMs: stallMs === 0 ? 0 : silentMs };
});

Given("a teammate working on a kickoff", function () {
  const l = life(this);
  apply(l, { type: "ready", kickoff: "Do it." });
  accept(l);
  apply(l, { type: "run_started" });
});

Given("an idle teammate", function () {
  apply(life(this), { type: "ready" });
});

When("mail {string} arrives", function (body: string) {
  apply(life(this), { type: "mail", records: [makeInboxRecord({ from: "bob", to: "alice", body }, 1)] });
});

When("the child accepts the send", function () {
  accept(life(this));
});

When("the leader asks it to stop", function () {
  apply(life(this), { type: "stop_requested" });
});

When("its run settles", function () {
  apply(life(this), { type: "run_settled" });
});

When("its child closes", function () {
  apply(life(this), { type: "closed", exit: { code: null, signal: "SIGKILL" }, stderrTail: "" });
});

When("it reports {string}", function (status: string) {
  const record = { v: 2, id: "r1", at: 1, from: "alice", spawnId: SPAWN, status, body: "done", sig: "-" } as OutboxRecord;
  apply(life(this), { type: "outbox", records: [record] });
});

When("{int} s pass in silence", function (seconds: number) {
  const l = life(this);
  for (let t = 1; t <= seconds; t++) {
    l.now = t * 1000;
    apply(l, { type: "tick" });
  }
});

Then("the teammate has 1 send in flight carrying {string}", function (body: string) {
  assert.deepEqual(inFlight(life(this))?.mail.map((r) => r.body), [body]);
});

Then("the send is a {string}", function (kind: string) {
  assert.equal(inFlight(life(this))?.kind, kind);
});

Then("nothing is in flight", function () {
  assert.equal(inFlight(life(this)), undefined);
});

Then("the teammate is stopped as requested", function () {
  const s = life(this).state;
  assert.ok(!occupies(s) && statusOf(s) === "stopped" && "requested" in s && s.requested);
});

Given("a starting teammate with its worktree made", function () {
  apply(life(this), { type: "acquired", holdings: { worktree: WORKTREE } });
});

When("its spawn gives up", function () {
  apply(life(this), { type: "spawn_failed" });
});

When("its holdings are released", function () {
  apply(life(this), { type: "captured" });
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
function eventTypes(l: Life): string[] {
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
