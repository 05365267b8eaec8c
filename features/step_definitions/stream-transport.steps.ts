import assert from "node:assert/strict";
import { Given, Then, When } from "@cucumber/cucumber";
import { streamTeam, type Fake } from "../../tests/support/stream-team.ts";

interface StreamWorld {
  team: ReturnType<typeof streamTeam>;
  mates: Map<string, Fake>;
  last?: unknown;
}

function world(w: object): StreamWorld {
  const s = w as { stream?: StreamWorld };
  s.stream ??= { team: streamTeam(), mates: new Map() };
  return s.stream;
}

const mate = (s: StreamWorld, name: string): Fake => {
  const f = s.mates.get(name);
  assert.ok(f, `no teammate ${name}`);
  return f;
};

function carry(s: StreamWorld, from: string, data: unknown): void {
  s.last = data;
  s.team.records.onEntry(mate(s, from).member, s.team.entry(data));
}

Given("stream teammates {string}", function (names: string) {
  const s = world(this);
  for (const name of names.split(",").map((n) => n.trim())) s.mates.set(name, s.team.add(name));
});

Given("file teammate {string}", function (name: string) {
  const s = world(this);
  const f = s.team.add(name);
  (f.member as { transport: string }).transport = "files"; // its records are files; its answers come on its pipe
  s.mates.set(name, f);
});

When("the board decides {word} intent {string} with {string}", function (owner: string, id: string, message: string) {
  const s = world(this);
  s.team.records.decided(mate(s, owner.replace(/'s$/, "")).member, id, { ok: true, message });
});

Then("{word}'s pipe carries nothing", function (owner: string) {
  assert.deepEqual(mate(world(this), owner.replace(/'s$/, "")).down, []);
});

When("{word}'s pipe carries a {string} report {string} that names {string} as its sender", function (owner: string, status: string, body: string, sender: string) {
  carry(world(this), owner.replace(/'s$/, ""), { kind: "report", id: `r-${body}`, body, status, from: sender });
});

When("{word}'s pipe carries mail to {string} saying {string} that names {string} as its sender", function (owner: string, to: string, body: string, sender: string) {
  carry(world(this), owner.replace(/'s$/, ""), { kind: "mail", id: `m-${to}`, to, body, from: sender });
});

When("{word}'s pipe carries the same record again", function (owner: string) {
  const s = world(this);
  carry(s, owner.replace(/'s$/, ""), s.last);
});

Then("{word}'s queue gets one report from {string} with status {string}", function (owner: string, from: string, status: string) {
  const events = mate(world(this), owner.replace(/'s$/, "")).events;
  const reports = events.flatMap((e) => (e.type === "outbox" ? e.records : []));
  assert.deepEqual(reports.map((r) => [r.from, r.status]), [[from, status]]);
});

Then("{word}'s queue gets nothing", function (owner: string) {
  assert.deepEqual(mate(world(this), owner.replace(/'s$/, "")).events, []);
});

Then("{word}'s queue gets mail from {string} saying {string}", function (owner: string, from: string, body: string) {
  const events = mate(world(this), owner.replace(/'s$/, "")).events;
  const mail = events.flatMap((e) => (e.type === "mail" ? e.records : []));
  assert.deepEqual(mail.map((r) => [r.from, r.body]), [[from, body]]);
});

Then("{word}'s pipe is answered {string} with {string}", function (owner: string, verdict: string, text: string) {
  const down = mate(world(this), owner.replace(/'s$/, "")).down;
  assert.equal(down.length, 1);
  const a = down[0]!;
  assert.ok(a.kind === "answer");
  assert.equal(a.ok, verdict === "ok");
  assert.ok(a.text.includes(text), `${JSON.stringify(a.text)} should include ${JSON.stringify(text)}`);
});

/** `n` peer messages on the pipes, alternating from `a` to `b` and back, each id fresh. */
function exchange(s: StreamWorld, a: string, b: string, n: number): void {
  for (let i = 0; i < n; i++) {
    const [from, to] = i % 2 === 0 ? [a, b] : [b, a];
    carry(s, from, { kind: "mail", id: `chat-${from}-${i}`, to, body: `chat ${i}` });
  }
}

When("{word} and {word} send each other {int} peer messages on their pipes", function (a: string, b: string, n: number) {
  exchange(world(this), a, b, n);
});

Given("{word} and {word} sent each other {int} peer messages on their pipes", function (a: string, b: string, n: number) {
  exchange(world(this), a, b, n);
});

When("the leader messages {string}", function (name: string) {
  world(this).team.peers.reset(name, "a leader message"); // what the leader's send_message does first
});

Then("the leader has one {string} event naming {string} and {string} with the count {int}", function (type: string, a: string, b: string, count: number) {
  const events = world(this).team.events;
  assert.deepEqual(events.map((e) => e.type), [type]);
  assert.ok(events[0]!.body.includes(`@${a} and @${b} exchanged ${count} peer messages`), events[0]!.body);
});

Then("the leader still has one {string} event", function (type: string) {
  assert.deepEqual(world(this).team.events.map((e) => e.type), [type]);
});

Then("{word} last pipe answer is {string} with {string}", function (owner: string, verdict: string, text: string) {
  const a = mate(world(this), owner.replace(/'s$/, "")).down.at(-1);
  assert.ok(a?.kind === "answer");
  assert.equal(a.ok, verdict === "ok");
  assert.ok(a.text.includes(text), `${JSON.stringify(a.text)} should include ${JSON.stringify(text)}`);
});

Then("{int} pieces of peer mail were delivered between {word} and {word}", function (n: number, a: string, b: string) {
  const s = world(this);
  const mail = [a, b].flatMap((name) => mate(s, name).events.flatMap((e) => (e.type === "mail" ? e.records : [])));
  assert.equal(mail.length, n);
});
