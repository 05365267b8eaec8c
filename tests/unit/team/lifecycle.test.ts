import { describe, expect, it } from "vitest";
import { isQuiet, occupies, statusOf, type HeartbeatConfig, type TeammateEffect } from "../../../src/team/lifecycle.ts";
import { LifecycleSim, simMail, simReport } from "../../support/lifecycle-sim.ts";

const types = (effects: TeammateEffect[]) => effects.map((e) => e.type);

/** A teammate that was spawned with a kickoff and is working on it. */
const working = (heartbeat?: HeartbeatConfig): LifecycleSim => new LifecycleSim(heartbeat ? { heartbeat } : {}).startWorking();

describe("transitions", () => {
  it("ready without a kickoff idles, writes the roster and offers board work", () => {
    const sim = new LifecycleSim();
    expect(types(sim.apply({ type: "ready" }))).toEqual(["write_roster", "board_idle"]);
    expect(statusOf(sim.state)).toBe("idle");
    expect(isQuiet(sim.state)).toBe(true);
  });

  it("ready with a kickoff sends the role and the assignment as one prompt and opens the direct assignment", () => {
    const sim = new LifecycleSim();
    const [send] = sim.apply({ type: "ready", kickoff: "Do the thing." });
    expect(send).toMatchObject({ type: "send", kind: "kickoff" });
    expect(send?.type === "send" && send.text).toMatch(/<role>[\s\S]*You are a worker[\s\S]*<assignment from="leader">[\s\S]*Do the thing/);
    expect(sim.state.phase).toBe("starting");
    expect("life" in sim.state && sim.state.life.direct).toBe("open");
  });

  it("run_started makes it working and the roster says so", () => {
    const sim = working();
    expect(statusOf(sim.state)).toBe("working");
    expect(sim.effects.filter((e) => e.type === "write_roster")).toHaveLength(1);
  });

  it("a report is delivered; the first terminal one closes the direct assignment and suppresses later ones (R27)", () => {
    const sim = working();
    const out = sim.apply({ type: "outbox", records: [simReport("in_progress", "a"), simReport("in_progress", "a2"), simReport("completed", "b"), simReport("in_progress", "c")] });
    expect(out.filter((e) => e.type === "deliver_report")).toHaveLength(3);
    expect(out.at(-1)).toMatchObject({ type: "note", text: expect.stringContaining("after_terminal") });
    expect("life" in sim.state && sim.state.life.direct).toBe("closed");
  });

  it("a report of another incarnation or naming another sender is dropped (R47)", () => {
    const sim = working();
    const forged = { ...simReport("completed"), from: "bob" };
    const out = sim.apply({ type: "outbox", records: [simReport("completed", "x", "22222222-2222-4222-8222-222222222222"), forged] });
    expect(types(out)).toEqual(["note", "note"]);
  });

  it("mail to an idle teammate wakes it with one prompt (the role the first time) and reopens the gate", () => {
    const sim = new LifecycleSim();
    sim.apply({ type: "ready" });
    const [send] = sim.apply({ type: "mail", records: [simMail("one"), simMail("two")] });
    expect(send).toMatchObject({ type: "send", kind: "wake" });
    expect(send?.type === "send" && send.text).toMatch(/<role>[\s\S]*You have 2 new messages/);
    expect(types(sim.answer())).toEqual(["mail_delivered", "write_roster"]);
    expect(statusOf(sim.state)).toBe("working");
    sim.apply({ type: "run_settled" });
    const [again] = sim.apply({ type: "mail", records: [simMail("three")] });
    expect(again?.type === "send" && again.text).not.toMatch(/<role>/);
  });

  it("mail to a working teammate is steered", () => {
    const sim = working();
    expect(sim.apply({ type: "mail", records: [simMail("hi")] })).toEqual([expect.objectContaining({ type: "send", kind: "steer" })]);
    expect(sim.answer()).toEqual([expect.objectContaining({ type: "mail_delivered", via: "steer" })]);
  });

  it("mail to a starting teammate waits for its kickoff run", () => {
    const sim = new LifecycleSim();
    sim.apply({ type: "ready", kickoff: "k" });
    sim.answer();
    expect(sim.apply({ type: "mail", records: [simMail("early")] })).toEqual([]);
    expect(sim.apply({ type: "run_started" })).toEqual([{ type: "write_roster" }, expect.objectContaining({ type: "send", kind: "steer" })]);
  });

  it("the leader steers a working teammate (steered) and queues for an idle one", () => {
    const sim = working();
    const record = simMail("go", "leader");
    expect(sim.apply({ type: "leader_message", id: 7, record, reopen: false })).toEqual([expect.objectContaining({ type: "send", kind: "leader_steer" })]);
    expect(sim.answer()).toContainEqual({ type: "leader_result", id: 7, result: "steered" });
    sim.apply({ type: "outbox", records: [simReport("completed")] });
    sim.apply({ type: "run_settled" });
    expect(sim.apply({ type: "leader_message", id: 8, record, reopen: false })).toEqual([{ type: "queue_leader_message", id: 8, record }]);
  });

  it("a failed leader steer falls back to the inbox; failed mail goes back in front", () => {
    const sim = working();
    const record = simMail("go", "leader");
    sim.apply({ type: "leader_message", id: 1, record, reopen: false });
    expect(types(sim.apply({ type: "sent", ticket: sim.ticket, ok: false, error: "boom" }))).toEqual(["note", "queue_leader_message"]);
    sim.apply({ type: "mail", records: [simMail("m1")] });
    sim.apply({ type: "sent", ticket: sim.ticket, ok: false, error: "boom" });
    expect("life" in sim.state && sim.state.life.mail.map((r) => r.body)).toEqual(["m1"]);
  });

  it("a refused wake keeps the mail and tells the leader once per streak; a later success resets it", () => {
    const sim = new LifecycleSim();
    sim.apply({ type: "ready" });
    sim.apply({ type: "mail", records: [simMail("one")] });
    const first = sim.apply({ type: "sent", ticket: sim.ticket, ok: false, error: "No API key found" });
    expect(first.filter((e) => e.type === "harness_event").map((e) => e.type === "harness_event" && e.event.type)).toEqual(["teammate_delivery_failed"]);
    // Its refused mail is no reason to hold a board offer: it counts as idle, and the board hears.
    expect(isQuiet(sim.state)).toBe(true);
    expect(first.at(-1)).toEqual({ type: "board_idle" });
    sim.apply({ type: "mail", records: [simMail("two")] }); // retried with everything pending
    expect("life" in sim.state && sim.state.life.sending?.mail.map((r) => r.body)).toEqual(["one", "two"]);
    sim.apply({ type: "sent", ticket: sim.ticket, ok: false, error: "No API key found" });
    expect(sim.effects.filter((e) => e.type === "harness_event")).toHaveLength(1);
    sim.apply({ type: "mail", records: [simMail("three")] });
    sim.answer();
    expect("life" in sim.state && sim.state.life.failedSends).toBe(0);
  });

  it("a leader message steered into the run of a terminal report reopens the gate: the answer is owed", () => {
    const sim = working();
    sim.apply({ type: "outbox", records: [simReport("completed", "done")] });
    sim.apply({ type: "leader_message", id: 1, record: simMail("which file?", "leader"), reopen: false });
    sim.answer(false); // steered into the same run
    expect(sim.apply({ type: "outbox", records: [simReport("in_progress", "answer")] })).toEqual([expect.objectContaining({ type: "deliver_report" })]);
  });

  it("reopen opens the gate and ends the direct assignment (R15)", () => {
    const sim = working();
    sim.apply({ type: "outbox", records: [simReport("completed")] });
    sim.apply({ type: "run_settled" });
    sim.apply({ type: "leader_message", id: 1, record: simMail("next", "leader"), reopen: true });
    expect("life" in sim.state && sim.state.life.direct).toBe("none");
    expect(sim.apply({ type: "outbox", records: [simReport("completed", "again")] })).toEqual([expect.objectContaining({ type: "deliver_report" })]);
  });

  it("a requested stop releases the board before the process is signalled; its close is no crash (L22)", () => {
    const sim = working();
    expect(types(sim.apply({ type: "stop_requested" }))).toEqual(["board_gone", "write_roster", "stop_process"]);
    expect(sim.effects).toContainEqual({ type: "board_gone", reason: "shutdown" });
    expect(statusOf(sim.state)).toBe("stopped");
    expect(types(sim.apply({ type: "closed", exit: { code: 0, signal: null }, stderrTail: "" }))).toEqual(["write_roster", "lifeline", "release"]);
    expect(sim.effects).toContainEqual({ type: "lifeline", text: "Teammate @alice shut down.", ok: true });
    expect(sim.state).toMatchObject({ phase: "capturing", requested: true });
    expect(statusOf(sim.state)).toBe("stopped");
    expect(occupies(sim.state)).toBe(false); // the name is free while its holdings are released
    expect(sim.apply({ type: "captured" })).toEqual([]);
    expect(sim.state).toMatchObject({ phase: "stopped", requested: true });
  });

  it("one end-of-life line per incarnation: the first terminal report; a later shutdown adds none (R55)", () => {
    const sim = working();
    const out = sim.apply({ type: "outbox", records: [simReport("completed", "a")] });
    expect(out).toContainEqual({ type: "lifeline", text: "Teammate @alice finished (completed).", ok: true });
    sim.apply({ type: "leader_message", id: 1, record: simMail("more", "leader"), reopen: true });
    sim.apply({ type: "outbox", records: [simReport("failed", "b")] });
    sim.apply({ type: "stop_requested" });
    sim.apply({ type: "closed", exit: { code: 0, signal: null }, stderrTail: "" });
    expect(sim.effects.filter((e) => e.type === "lifeline")).toHaveLength(1);
  });

  it("an unexpected close is a crash: board released and one harness event with the stderr tail (R56)", () => {
    const sim = working();
    const out = sim.apply({ type: "closed", exit: { code: null, signal: "SIGKILL" }, stderrTail: "last words" });
    expect(out[0]).toEqual({ type: "board_gone", reason: "crash" });
    // The shell words the event after board_gone, when it knows which claims were released.
    expect(out.filter((e) => e.type === "crash_event")).toEqual([{ type: "crash_event", how: "signal SIGKILL", undelivered: 0, stderrTail: "last words", claims: [] }]);
    expect(out.findIndex((e) => e.type === "crash_event")).toBeGreaterThan(out.findIndex((e) => e.type === "board_gone"));
    expect(out).toContainEqual({ type: "lifeline", text: "Teammate @alice crashed.", ok: false }); // a failure end, not a ✓
    expect(sim.apply({ type: "run_started" })).toEqual([]);
    expect(sim.apply({ type: "closed", exit: { code: 0, signal: null }, stderrTail: "" })).toEqual([]);
  });

  it("a run that ends on a model error with the assignment open raises teammate_run_failed", () => {
    const sim = working();
    sim.apply({ type: "assistant_message", text: "", tokens: 0, cost: 0, error: "No API key" });
    const out = sim.apply({ type: "run_settled" });
    const event = out.find((e) => e.type === "harness_event");
    expect(event?.type === "harness_event" && event.event.type).toBe("teammate_run_failed");
    expect(out.some((e) => e.type === "send")).toBe(false);
  });
});

describe("the known races", () => {
  it("a wake answered after its fast run already settled leaves the teammate idle, not working forever", () => {
    const sim = new LifecycleSim();
    sim.apply({ type: "ready" }); // no kickoff: idle
    sim.apply({ type: "mail", records: [simMail("wake me")] }); // sent as a wake
    const ticket = sim.ticket;
    // Pi's answer to the prompt arrives after the whole run (fault suite case 1 saw this).
    sim.apply({ type: "run_started" });
    sim.apply({ type: "run_settled" });
    sim.apply({ type: "sent", ticket, ok: true, started: false });
    expect(statusOf(sim.state)).toBe("idle");
    expect(sim.effects).toContainEqual(expect.objectContaining({ type: "mail_delivered", via: "wake" }));
  });

  it("a woken run whose events come before the wake's answer has its report judged with the gate reopened", () => {
    const sim = working();
    sim.apply({ type: "outbox", records: [simReport("completed", "done")] }); // terminal: the gate closes
    sim.apply({ type: "run_settled" });
    sim.apply({ type: "mail", records: [simMail("new work")] });
    const ticket = sim.ticket;
    sim.apply({ type: "run_started" });
    const out = sim.apply({ type: "outbox", records: [simReport("completed", "answer")] });
    expect(out.filter((e) => e.type === "deliver_report")).toHaveLength(1);
    sim.apply({ type: "run_settled" });
    sim.apply({ type: "sent", ticket, ok: true, started: false });
    // The late answer does not reopen the gate the run's terminal report closed.
    expect(sim.apply({ type: "outbox", records: [simReport("in_progress", "late")] }).at(-1)).toMatchObject({ type: "note", text: expect.stringContaining("after_terminal") });
  });

  it("a wake answered before its run starts makes the teammate working at once", () => {
    const sim = new LifecycleSim();
    sim.apply({ type: "ready" });
    sim.apply({ type: "mail", records: [simMail("wake me")] });
    sim.answer();
    expect(statusOf(sim.state)).toBe("working");
  });

  it("mail during a steer is sent right after the steer is answered, not at the end of the run", () => {
    const sim = working();
    sim.apply({ type: "mail", records: [simMail("first")] });
    expect(sim.apply({ type: "mail", records: [simMail("second")] })).toEqual([]); // one send at a time
    const after = sim.answer();
    expect(after).toContainEqual(expect.objectContaining({ type: "mail_delivered", records: [expect.objectContaining({ body: "first" })] }));
    expect(after.at(-1)).toMatchObject({ type: "send", kind: "steer", mail: [expect.objectContaining({ body: "second" })] });
  });

  it("a report arriving while a send is in flight is delivered at once", () => {
    const sim = working();
    sim.apply({ type: "leader_message", id: 1, record: simMail("x", "leader"), reopen: false });
    expect(sim.apply({ type: "outbox", records: [simReport("in_progress")] })).toEqual([expect.objectContaining({ type: "deliver_report" })]);
  });

  it("a shutdown during a run: late answers, settles and starts do nothing, undelivered mail is counted", () => {
    const sim = working();
    sim.apply({ type: "mail", records: [simMail("a")] });
    sim.apply({ type: "mail", records: [simMail("b")] });
    const ticket = sim.ticket;
    sim.apply({ type: "stop_requested" });
    // The steer of "a" did reach the child; nothing more is sent.
    expect(types(sim.apply({ type: "sent", ticket, ok: true, started: true }))).toEqual(["mail_delivered"]);
    expect(sim.apply({ type: "run_settled" })).toEqual([]);
    expect(sim.apply({ type: "run_started" })).toEqual([]);
    expect(sim.apply({ type: "mail", records: [simMail("c")] })).toEqual([]);
    sim.apply({ type: "closed", exit: { code: 0, signal: null }, stderrTail: "" });
    expect(sim.state).toMatchObject({ phase: "capturing", requested: true, undelivered: 2 }); // b and c
  });
});

describe("ending without a report (L31)", () => {
  it("one reminder, then one leader event with the tail of the last text, then nothing", () => {
    const sim = working();
    sim.apply({ type: "assistant_message", text: "I looked at it and it seems fine.", tokens: 3, cost: 0 });
    const first = sim.apply({ type: "run_settled" });
    expect(first).toContainEqual(expect.objectContaining({ type: "send", kind: "reminder", text: expect.stringContaining('status: "completed"') }));
    sim.answer();
    sim.apply({ type: "run_started" });
    const second = sim.apply({ type: "run_settled" });
    const event = second.find((e) => e.type === "harness_event");
    expect(event?.type === "harness_event" && event.event).toMatchObject({ type: "teammate_no_report", body: expect.stringContaining("it seems fine") });
    expect(second.some((e) => e.type === "send")).toBe(false);
    sim.apply({ type: "mail", records: [simMail("ping")] });
    sim.answer();
    const third = sim.apply({ type: "run_settled" });
    expect(third.some((e) => e.type === "harness_event" || e.type === "send")).toBe(false);
  });

  it("a run the user interrupted (issue 21) settles idle with no reminder, no leader event and no run-failed event; the next run still owes the report", () => {
    const sim = working();
    expect(sim.apply({ type: "user_interrupt" })).toEqual([{ type: "note", text: expect.stringContaining("run interrupted by the user") }]);
    sim.apply({ type: "assistant_message", text: "", tokens: 0, cost: 0, error: "Request was aborted" });
    const settled = sim.apply({ type: "run_settled", openClaim: "fix-a" });
    expect(types(settled)).toEqual(["write_roster", "board_idle"]);
    expect(statusOf(sim.state)).toBe("idle");
    expect("life" in sim.state && sim.state.life.direct).toBe("open");
    // Woken again, the run ends without a report: the usual single reminder.
    sim.apply({ type: "mail", records: [simMail("go on")] });
    sim.answer();
    expect(sim.apply({ type: "run_settled", openClaim: "fix-a" })).toContainEqual(expect.objectContaining({ type: "send", kind: "reminder" }));
  });

  it("an interrupt of a teammate that is not working changes nothing", () => {
    const sim = new LifecycleSim();
    sim.apply({ type: "ready" });
    expect(sim.apply({ type: "user_interrupt" })).toEqual([]);
    expect("life" in sim.state && sim.state.life.interrupted).toBeUndefined();
  });

  it("a terminal report means nothing is owed", () => {
    const sim = working();
    sim.apply({ type: "outbox", records: [simReport("completed")] });
    expect(types(sim.apply({ type: "run_settled" }))).toEqual(["write_roster", "board_idle"]);
  });

  it("an open board claim is owed; another claim starts over with a reminder", () => {
    const sim = new LifecycleSim();
    sim.apply({ type: "ready" });
    sim.apply({ type: "mail", records: [simMail("notice", "task-board")] });
    sim.answer();
    expect(sim.apply({ type: "run_settled", openClaim: "fix-a" })).toContainEqual(expect.objectContaining({ kind: "reminder", text: expect.stringContaining("fix-a") }));
    sim.answer();
    expect(sim.apply({ type: "run_settled", openClaim: "fix-a" }).some((e) => e.type === "harness_event")).toBe(true);
    sim.apply({ type: "mail", records: [simMail("notice 2", "task-board")] });
    sim.answer();
    expect(sim.apply({ type: "run_settled", openClaim: "fix-b" })).toContainEqual(expect.objectContaining({ kind: "reminder" }));
  });

  it("a model that swaps claims on every reminder is reminded once, then the leader hears (no loop)", () => {
    const sim = new LifecycleSim();
    sim.apply({ type: "ready" });
    sim.apply({ type: "mail", records: [simMail("notice", "task-board")] });
    sim.answer();
    let reminders = 0;
    for (let i = 0; i < 20; i++) {
      const out = sim.apply({ type: "run_settled", openClaim: i % 2 === 0 ? "task-a" : "task-b" });
      reminders += out.filter((e) => e.type === "send" && e.kind === "reminder").length;
      if (!("life" in sim.state) || !sim.state.life.sending) break;
      sim.answer();
    }
    expect(reminders).toBe(1);
    expect(sim.effects.filter((e) => e.type === "harness_event" && e.event.type === "teammate_no_report")).toHaveLength(1);
  });

  it("a refused reminder is the one leader event at once", () => {
    const sim = working();
    sim.apply({ type: "run_settled" });
    const out = sim.apply({ type: "sent", ticket: sim.ticket, ok: false, error: "no response to prompt within 30000 ms" });
    const event = out.find((e) => e.type === "harness_event");
    expect(event?.type === "harness_event" && event.event).toMatchObject({ type: "teammate_no_report", body: expect.stringContaining("could not be delivered") });
    sim.apply({ type: "run_settled" });
    expect(sim.effects.filter((e) => e.type === "harness_event")).toHaveLength(1);
  });

  it("a teammate with no assignment and no claim owes nothing", () => {
    const sim = new LifecycleSim();
    sim.apply({ type: "ready" });
    sim.apply({ type: "mail", records: [simMail("hello")] });
    sim.answer();
    expect(types(sim.apply({ type: "run_settled" }))).toEqual(["write_roster", "board_idle"]);
  });

  it("pending mail is delivered before any reminder", () => {
    const sim = working();
    sim.apply({ type: "leader_message", id: 1, record: simMail("x", "leader"), reopen: false });
    sim.apply({ type: "mail", records: [simMail("waiting")] }); // queued behind the steer
    sim.answer(); // steer answered, mail is steered next
    sim.answer();
    sim.apply({ type: "mail", records: [simMail("late")] });
    const out = sim.apply({ type: "run_settled" });
    expect(out.filter((e) => e.type === "send").map((e) => e.type === "send" && e.kind)).toEqual([]); // still in flight
  });
});

describe("heartbeats (R52, R53, L4)", () => {
  const hb = (stallMs: number, silentMs: number): HeartbeatConfig => ({ stallMs, silentMs });
  const notices = (sim: LifecycleSim) => sim.effects.filter((e) => e.type === "health");

  it("tier 1: one notice per silence episode, re-armed by output", () => {
    const sim = working(hb(60_000, 0));
    sim.apply({ type: "output", kind: "model" }, 1000);
    expect(sim.apply({ type: "tick" }, 60_999)).toEqual([]);
    const [n] = sim.apply({ type: "tick" }, 61_000);
    expect(n).toMatchObject({ type: "health", title: "[agent] @alice stalled · silent 1m" });
    expect(n?.type === "health" && n.body).toMatch(/spawned 1m ago; lifetime usage 0 tokens, \$0\.0000/);
    expect(sim.apply({ type: "tick" }, 500_000)).toEqual([]); // same episode: no second notice
    sim.apply({ type: "output", kind: "other" }, 600_000);
    expect(sim.apply({ type: "tick" }, 660_000)).toHaveLength(1);
    expect(notices(sim)).toHaveLength(2);
  });

  it("a prompt delivery re-arms it", () => {
    const sim = working(hb(60_000, 0));
    sim.apply({ type: "mail", records: [simMail("x")] }, 50_000);
    sim.answer(); // at 1000 in this sim's clock; use an explicit later delivery instead
    sim.apply({ type: "mail", records: [simMail("y")] }, 59_000);
    sim.apply({ type: "sent", ticket: sim.ticket, ok: true, started: false }, 59_000);
    expect(sim.apply({ type: "tick" }, 61_000)).toEqual([]);
    expect(sim.apply({ type: "tick" }, 119_000)).toHaveLength(1);
  });

  it("tier 2: zero lifetime model output and no tool running is flagged early and names shutdown plus respawn", () => {
    const sim = working(hb(60_000, 10_000));
    const [n] = sim.apply({ type: "tick" }, 11_000);
    expect(n?.type === "health" && n.body).toMatch(/teammate_shutdown[\s\S]*teammate_spawn/);
    expect(sim.apply({ type: "tick" }, 70_000)).toEqual([]); // one notice per episode, whichever tier
  });

  it("tier 2 does not apply once the model produced output, or while a tool runs", () => {
    const spoke = working(hb(60_000, 10_000));
    spoke.apply({ type: "output", kind: "model" }, 1000);
    expect(spoke.apply({ type: "tick" }, 20_000)).toEqual([]);
    const tooling = working(hb(60_000, 10_000));
    tooling.apply({ type: "output", kind: "tool_start" }, 1000);
    expect(tooling.apply({ type: "tick" }, 20_000)).toEqual([]);
    expect(tooling.apply({ type: "tick" }, 61_000)).toHaveLength(1);
  });

  it("stallMs 0 disables both tiers; idle teammates are never flagged", () => {
    const off = working(hb(0, 10_000));
    expect(off.apply({ type: "tick" }, 10_000_000)).toEqual([]);
    const idle = new LifecycleSim({ heartbeat: hb(60_000, 10_000) });
    idle.apply({ type: "ready" });
    expect(idle.apply({ type: "tick" }, 10_000_000)).toEqual([]);
  });

  it("a starting teammate is flagged too", () => {
    const sim = new LifecycleSim({ heartbeat: hb(60_000, 10_000) });
    sim.apply({ type: "ready", kickoff: "k" }, 0);
    expect(sim.apply({ type: "tick" }, 20_000)).toHaveLength(1);
  });
});
