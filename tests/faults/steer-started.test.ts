/**
 * Fault suite, the defect behind mail order across wakes (found by case 5 under CPU load: a
 * few flood messages reached the teammate one model request after messages appended later).
 * On the pure lifecycle: a steer that pi answers with "started" (the run it was meant for had
 * just ended, so pi started a new run with it) must leave the teammate `working`. It used to
 * stay `idle`, so the next mail went out as a wake (a followUp prompt) to a running pi, and mail
 * steered after it overtook it (pi drains steering messages before follow-ups).
 */
import { describe, expect, it } from "vitest";
import { makeInboxRecord } from "../../src/mail/index.ts";
import { initialState, transition, type TeammateEffect, type TeammateEvent, type TeammateState } from "../../src/team/lifecycle.ts";

const ctx = { facts: { name: "alice", agent: "sink", role: "You read your mail.", startedAt: 0, log: "/dev/null" }, heartbeat: { stallMs: 0, silentMs: 0 } };
const mail = (body: string) => makeInboxRecord({ from: "bob", fromSpawnId: "s-bob", to: "alice", body }, 1);

describe("a steer that started a new run", () => {
  it("leaves the teammate working, so the next mail is steered behind it, not sent as a wake", () => {
    let s: TeammateState = initialState("s-alice", 0);
    let effects: TeammateEffect[] = [];
    const step = (e: TeammateEvent) => ({ state: s, effects } = transition(s, e, 1, ctx));
    step({ type: "ready" });
    step({ type: "mail", records: [mail("M1")] }); // wake carrying M1
    step({ type: "sent", ticket: 1, ok: true, started: false });
    step({ type: "run_started" });
    step({ type: "mail", records: [mail("M2")] }); // a steer carrying M2, in flight...
    step({ type: "run_settled" }); // ...while the run ends
    step({ type: "sent", ticket: 2, ok: true, started: true }); // pi started a new run with M2
    expect(s.phase).toBe("working");
    step({ type: "mail", records: [mail("M3")] });
    const send = effects.find((e): e is Extract<TeammateEffect, { type: "send" }> => e.type === "send");
    expect(send?.kind).toBe("steer");
  });
});
