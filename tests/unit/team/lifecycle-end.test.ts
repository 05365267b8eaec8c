/**
 * The whole life in the machine: resources recorded as they are acquired, every end releasing
 * exactly what is recorded (`release`, then `captured`), and what a successor is told (R16, R20).
 */
import { describe, expect, it } from "vitest";
import { runEvents } from "../../support/lifecycle-sim.ts";
import type { Worktree } from "../../../src/isolation/index.ts";
import type { OutboxRecord } from "../../../src/mail/index.ts";
import type { PiChild } from "../../../src/process/index.ts";
import { initialState, occupies, statusOf, type TeammateEffect, type TeammateEvent, type TeammateState, type TransitionContext } from "../../../src/team/lifecycle.ts";

const SPAWN = "22222222-2222-4222-8222-222222222222";
const ctx: TransitionContext = {
  facts: { name: "bo", agent: "builder", role: "You build.", startedAt: 0, log: "/tmp/bo.log" },
  heartbeat: { stallMs: 0, silentMs: 0 },
};
const wt = { name: "bo", spawnId: SPAWN, dir: "/wt/bo-22222222", cwd: "/wt/bo-22222222", branch: "pi-team/bo-22222222", base: "abc" } as Worktree;
const proc = { pid: 7 } as PiChild;
const claim = { id: "t1", subject: "Fix the parser" };

const run = (state: TeammateState, ...events: TeammateEvent[]) => runEvents(ctx, state, ...events);

const release = (effects: TeammateEffect[]) => effects.filter((e) => e.type === "release");
const report = (status: OutboxRecord["status"], body: string): OutboxRecord =>
  ({ v: 2, id: `m-${body}`, at: 5, from: "bo", spawnId: SPAWN, status, body, sig: "-" }) as OutboxRecord;

describe("a spawn that gives up releases exactly what it acquired", () => {
  it("nothing acquired: a requested end with an empty release", () => {
    const r = run(initialState(SPAWN, 0), { type: "spawn_failed" });
    expect(r.effects.map((e) => e.type)).toEqual(["board_gone", "write_roster", "write_roster", "lifeline", "release"]);
    expect(release(r.effects)).toEqual([{ type: "release", stop: false, reap: false, worktree: undefined, launchDirs: [] }]);
    expect(r.state).toMatchObject({ phase: "capturing", requested: true });
    expect(occupies(r.state)).toBe(false);
  });

  it("a launch dir and a worktree: both released, the worktree discarded (it holds no work)", () => {
    const r = run(
      initialState(SPAWN, 0),
      { type: "acquired", holdings: { launchDirs: ["/box/bo"] } },
      { type: "acquired", holdings: { worktree: wt } },
      { type: "acquired", holdings: { launchDirs: ["/box/bo"], transport: "stream" } }, // the plan names the box again
      { type: "spawn_failed" },
    );
    expect(release(r.effects)).toEqual([{ type: "release", stop: false, reap: false, worktree: { wt, how: "discard" }, launchDirs: ["/box/bo"] }]);
    expect(r.state.holdings.transport).toBe("stream");
  });

  it("a child started after a stop was asked for: stopped and reaped, the board released once", () => {
    const r = run(initialState(SPAWN, 0), { type: "acquired", holdings: { worktree: wt } }, { type: "stop_requested", claims: [] }, { type: "acquired", holdings: { proc } }, { type: "spawn_failed" });
    expect(r.effects.filter((e) => e.type === "board_gone")).toHaveLength(1);
    expect(release(r.effects)).toEqual([{ type: "release", stop: true, reap: true, worktree: { wt, how: "discard" }, launchDirs: [] }]);
  });

  it("a spawn_failed once the child closed changes nothing", () => {
    const idle = run(initialState(SPAWN, 0), { type: "ready" }).state;
    const ended = run(idle, { type: "closed", exit: { code: 1, signal: null }, stderrTail: "" }).state;
    expect(run(ended, { type: "spawn_failed" })).toEqual({ state: ended, effects: [] });
  });
});

describe("the end of a life: capturing, then stopped", () => {
  it("a close keeps the worktree (capture); `captured` records the kept branch and a dir left in place", () => {
    const started = run(initialState(SPAWN, 0), { type: "acquired", holdings: { worktree: wt, proc, launchDirs: ["/box/bo"] } }, { type: "ready" }).state;
    const closed = run(started, { type: "closed", exit: { code: 0, signal: null }, stderrTail: "" });
    expect(release(closed.effects)).toEqual([{ type: "release", stop: false, reap: true, worktree: { wt, how: "capture" }, launchDirs: ["/box/bo"] }]);
    expect(statusOf(closed.state)).toBe("stopped");
    const kept = { name: wt.branch, base: "abc" };
    const done = run(closed.state, { type: "run_started" }, { type: "captured", kept, leftAt: wt.dir });
    expect(done.state).toMatchObject({ phase: "stopped", holdings: { kept, leftAt: wt.dir, launchDirs: [], worktree: wt } });
    expect(run(done.state, { type: "captured" }).state).toBe(done.state);
  });

  it("claims: a crash records those it held at its close; a requested stop those at its stop, and the close keeps them", () => {
    const idle = run(initialState(SPAWN, 0), { type: "ready" }).state;
    const crash = run(idle, { type: "closed", exit: { code: 1, signal: null }, stderrTail: "", claims: [claim] });
    expect(crash.effects).toContainEqual(expect.objectContaining({ type: "crash_event", claims: [claim] }));
    expect(crash.state.holdings.claimsAtStop).toEqual([claim]);
    const stop = run(idle, { type: "stop_requested", claims: [claim] }, { type: "closed", exit: { code: 0, signal: null }, stderrTail: "", claims: [] });
    expect(stop.state.holdings.claimsAtStop).toEqual([claim]);
  });
});

describe("the direct assignment for a successor (R16)", () => {
  it("the kickoff is open until a completed or failed report; a reopen opens a new one though `direct` is none", () => {
    const s0 = initialState(SPAWN, 0, "Build the parser.");
    expect(s0.holdings.assignment).toEqual({ text: "Build the parser.", open: true });
    const started = run(s0, { type: "ready", kickoff: "Build the parser." });
    const ticket = "life" in started.state && started.state.life.sending ? started.state.life.sending.ticket : -1;
    const progress = run(started.state, { type: "sent", ticket, ok: true, started: false }, { type: "run_started" }, { type: "outbox", records: [report("in_progress", "half")] });
    expect(progress.state.holdings.assignment?.open).toBe(true);
    const done = run(progress.state, { type: "outbox", records: [report("completed", "done")] });
    expect(done.state.holdings.assignment).toEqual({ text: "Build the parser.", open: false });
    const record = { v: 1, id: "l1", at: 5, from: "leader", to: "bo", body: "Now the lexer." } as never;
    const reopened = run(done.state, { type: "leader_message", id: 1, record, reopen: true });
    expect(reopened.state.holdings.assignment).toEqual({ text: "Now the lexer.", open: true });
    expect("life" in reopened.state && reopened.state.life.direct).toBe("none");
  });

  it("keeps the latest three delivered reports, oldest first", () => {
    const started = run(initialState(SPAWN, 0), { type: "ready" }, { type: "run_started" });
    const r = run(started.state, { type: "outbox", records: ["a", "b", "c", "d"].map((b) => report("in_progress", b)) });
    expect(r.state.holdings.reports.map((x) => x.body)).toEqual(["b", "c", "d"]);
  });
});
