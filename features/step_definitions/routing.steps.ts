import assert from "node:assert/strict";
import { Given, Then, When } from "@cucumber/cucumber";
import {
  admitReport,
  reopenGate,
  routeFromLeader,
  routeFromWorker,
  type LeaderRoute,
  type ReportGate,
  type ReportStatus,
  type TeammateStatus,
  type WorkerRoute,
} from "../../src/team/routing.ts";

interface RoutingState {
  roster: Map<string, { name: string; status: TeammateStatus }>;
  worker?: WorkerRoute;
  leader?: LeaderRoute;
  gate?: ReportGate;
  delivered: string[];
}

function state(world: object): RoutingState {
  const w = world as { routing?: RoutingState };
  w.routing ??= { roster: new Map(), delivered: [] };
  return w.routing;
}

const living = (s: RoutingState) => [...s.roster.values()].filter((t) => t.status !== "stopped").map((t) => t.name);

Given("living teammates {string}", function (names: string) {
  const s = state(this);
  for (const name of names.split(",").map((n) => n.trim())) s.roster.set(name, { name, status: "idle" });
});

Given("teammate {string} is {word}", function (name: string, status: string) {
  state(this).roster.set(name, { name, status: status as TeammateStatus });
});

When("{string} sends to {string} with status {string}", function (from: string, to: string, status: string) {
  const s = state(this);
  s.worker = routeFromWorker(from, { to, message: "hi", status }, living(s));
});

When("{string} sends to {string} without status", function (from: string, to: string) {
  const s = state(this);
  s.worker = routeFromWorker(from, { to, message: "hi" }, living(s));
});

Then("the message is routed as a report with status {string}", function (status: string) {
  const r = state(this).worker;
  assert.equal(r?.kind, "report");
  assert.equal(r.kind === "report" && r.status, status);
});

Then("the report is terminal", function () {
  const r = state(this).worker;
  assert.ok(r?.kind === "report" && r.terminal);
});

Then("the report is not terminal", function () {
  const r = state(this).worker;
  assert.ok(r?.kind === "report" && !r.terminal);
});

Then("the message is routed as peer mail to {string}", function (to: string) {
  assert.deepEqual(state(this).worker, { kind: "peer", to });
});

Then("the send is refused mentioning {string}", function (text: string) {
  const r = state(this).worker;
  assert.equal(r?.kind, "error");
  assert.ok(r.kind === "error" && r.message.includes(text), JSON.stringify(r));
});

When("the leader sends to {string}", function (to: string) {
  const s = state(this);
  s.leader = routeFromLeader({ to, message: "hi" }, s.roster);
});

When("the leader sends to {string} with status {string}", function (to: string, status: string) {
  const s = state(this);
  s.leader = routeFromLeader({ to, message: "hi", status }, s.roster);
});

Then("the leader's message is {word}", function (kind: string) {
  assert.equal(state(this).leader?.kind, kind);
});

Then("the leader's send is refused mentioning {string}", function (text: string) {
  const r = state(this).leader;
  assert.ok(r?.kind === "error" && r.message.includes(text), JSON.stringify(r));
});

Then("the leader is told {string}", function (text: string) {
  const r = state(this).leader;
  assert.ok(r && r.kind !== "error" && r.note?.includes(text), JSON.stringify(r));
});

Given("a report gate for spawn {string}", function (spawnId: string) {
  state(this).gate = { spawnId, closed: false };
});

When("reports arrive: {string}", function (list: string) {
  const s = state(this);
  for (const item of list.split(",").map((x) => x.trim())) {
    const [spawnId = "", status = ""] = item.split(" ");
    const d = admitReport(s.gate!, { spawnId, status: status as ReportStatus });
    s.gate = d.gate;
    if (d.deliver) s.delivered.push(status);
  }
});

When("the teammate is woken", function () {
  const s = state(this);
  s.gate = reopenGate(s.gate!);
});

Then("the delivered reports are {string}", function (list: string) {
  assert.deepEqual(state(this).delivered, list.split(",").map((x) => x.trim()));
});
