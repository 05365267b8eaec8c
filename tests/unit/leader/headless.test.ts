/**
 * The headless hold (src/leader/headless.ts) against a fake Pi, a fake team and a fake process:
 * what ends a wait, that only print and json modes install anything, and what each signal does.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  registerHeadless,
  SIGINT_EXIT_CODE,
  waitForTeam,
  type HeadlessProcess,
  STUCK_EXIT_CODE,
} from "../../../src/leader/headless.ts";
import type { ActivityChange, TeamActivity } from "../../../src/team/team-activity.ts";

class FakeTeam implements TeamActivity {
  listeners = new Set<(change: ActivityChange) => void>();
  isBusy: boolean;
  constructor(busy: boolean) {
    this.isBusy = busy;
  }
  busy(): boolean {
    return this.isBusy;
  }
  subscribe(listener: (change: ActivityChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  set(busy: boolean): void {
    this.isBusy = busy;
    for (const l of [...this.listeners]) l("status");
  }
  deliver(): void {
    for (const l of [...this.listeners]) l("delivery");
  }
}

type Handler = (event: unknown, ctx: unknown) => unknown;

/** A Pi that records handlers by event name; `pi.on` returns an unsubscribe as Pi's does. */
function fakePi() {
  const handlers = new Map<string, Set<Handler>>();
  const pi = {
    on(event: string, handler: Handler) {
      const set = handlers.get(event) ?? new Set<Handler>();
      handlers.set(event, set);
      set.add(handler);
      return () => set.delete(handler);
    },
  } as unknown as ExtensionAPI;
  const count = (event: string) => handlers.get(event)?.size ?? 0;
  const emit = (event: string, payload: unknown = {}, ctx: unknown = {}) =>
    Promise.all([...(handlers.get(event) ?? [])].map((h) => h(payload, ctx)));
  return { pi, count, emit };
}

/** A process that records listeners and exits. */
function fakeProcess() {
  const listeners = new Map<string, Set<() => void>>();
  const exits: number[] = [];
  const errors: string[] = [];
  const proc: HeadlessProcess = {
    stderr: { write: (text: string) => errors.push(text) },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener);
    },
    off(event, listener) {
      listeners.get(event)?.delete(listener);
    },
    exit(code) {
      exits.push(code);
    },
  };
  const fire = (event: string) => {
    for (const l of [...(listeners.get(event) ?? [])]) l();
  };
  const total = () => [...listeners.values()].reduce((n, s) => n + s.size, 0);
  return { proc, fire, total, exits, errors };
}

const settleEvent = (pending = 0) => ({ type: "agent_before_settle", context: { pendingMessages: Array.from({ length: pending }) } });

/** Resolves after pending microtasks and one macrotask: long enough for a non-waiting promise to settle. */
const tick = () => new Promise((r) => setImmediate(r));

async function state(p: Promise<unknown>): Promise<"pending" | "resolved"> {
  let done = false;
  void p.then(() => (done = true));
  await tick();
  return done ? "resolved" : "pending";
}

afterEach(() => {
  vi.useRealTimers();
});

describe("waitForTeam", () => {
  it("resolves settled at once when nothing is busy", async () => {
    expect(await waitForTeam([new FakeTeam(false), new FakeTeam(false)], new AbortController().signal)).toBe("settled");
  });

  it("keeps waiting while any activity is busy, then resolves settled and unsubscribes", async () => {
    const a = new FakeTeam(true);
    const b = new FakeTeam(true);
    const wait = waitForTeam([a, b], new AbortController().signal);
    a.set(false);
    expect(await state(wait)).toBe("pending");
    b.set(false);
    expect(await wait).toBe("settled");
    expect(a.listeners.size + b.listeners.size).toBe(0);
  });

  it("resolves delivered on a delivery even though the team is still busy", async () => {
    const team = new FakeTeam(true);
    const wait = waitForTeam([team], new AbortController().signal);
    team.deliver();
    expect(await wait).toBe("delivered");
    expect(team.listeners.size).toBe(0);
  });

  it("resolves aborted when the signal aborts, and at once when it already has", async () => {
    const team = new FakeTeam(true);
    const controller = new AbortController();
    const wait = waitForTeam([team], controller.signal);
    controller.abort();
    expect(await wait).toBe("aborted");
    expect(team.listeners.size).toBe(0);
    expect(await waitForTeam([team], controller.signal)).toBe("aborted");
  });

  it("re-checks busy() on an unref'd safety timer when a change was never announced", async () => {
    vi.useFakeTimers();
    const team = new FakeTeam(true);
    const wait = waitForTeam([team], new AbortController().signal, 1000);
    team.isBusy = false; // no notification
    await vi.advanceTimersByTimeAsync(999);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await wait).toBe("settled");
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("registerHeadless", () => {
  function setup(mode: string, team = new FakeTeam(true), extra: { stuck?: () => string | undefined } = {}) {
    const p = fakePi();
    const proc = fakeProcess();
    const stopTeam = vi.fn(async () => undefined);
    registerHeadless(p.pi, { activities: () => [team], stopTeam, proc: proc.proc, ...extra });
    return { ...p, ...proc, team, stopTeam, start: () => p.emit("session_start", { reason: "startup" }, { mode }) };
  }

  it.each(["tui", "rpc"])("installs nothing in %s mode", async (mode) => {
    const s = setup(mode);
    await s.start();
    expect(s.count("agent_before_settle")).toBe(0);
    expect(s.total()).toBe(0);
  });

  it.each(["print", "json"])("in %s mode holds the settle until the team is settled; session_shutdown removes everything", async (mode) => {
    const s = setup(mode);
    await s.start();
    await s.start(); // a second session_start does not install twice
    expect(s.count("agent_before_settle")).toBe(1);
    expect(s.total()).toBe(4); // SIGTERM, SIGHUP, SIGINT, beforeExit
    const settle = s.emit("agent_before_settle", settleEvent());
    expect(await state(settle)).toBe("pending");
    s.team.set(false);
    expect(await settle).toEqual([undefined]); // no continuation asked: Pi continues only with a queued delivery
    await s.emit("session_shutdown");
    expect(s.count("agent_before_settle")).toBe(0);
    expect(s.total()).toBe(0);
  });

  it("returns on a delivery (Pi continues with it) and at once when a delivery is already queued", async () => {
    const s = setup("print");
    await s.start();
    const settle = s.emit("agent_before_settle", settleEvent());
    s.team.deliver();
    await settle;
    expect(await state(s.emit("agent_before_settle", settleEvent(1)))).toBe("resolved");
    expect(s.team.listeners.size).toBe(0);
  });

  it.each(["SIGTERM", "SIGHUP"])("%s releases the wait (Pi's own handler then disposes) and no wait starts again", async (signal) => {
    const s = setup("print");
    await s.start();
    const settle = s.emit("agent_before_settle", settleEvent());
    s.fire(signal);
    await settle;
    expect(await state(s.emit("agent_before_settle", settleEvent()))).toBe("resolved");
    expect(s.stopTeam).not.toHaveBeenCalled();
    expect(s.exits).toEqual([]);
  });

  it("beforeExit releases the current wait only", async () => {
    const s = setup("print");
    await s.start();
    const settle = s.emit("agent_before_settle", settleEvent());
    s.fire("beforeExit");
    await settle;
    expect(await state(s.emit("agent_before_settle", settleEvent()))).toBe("pending");
  });

  it("SIGINT stops the team, then exits 130 while the run stays held; a second SIGINT exits at once", async () => {
    const s = setup("print");
    let finishStop!: () => void;
    s.stopTeam.mockImplementation(() => new Promise<undefined>((r) => (finishStop = () => r(undefined))));
    await s.start();
    const settle = s.emit("agent_before_settle", settleEvent());
    s.fire("SIGINT");
    expect(s.stopTeam).toHaveBeenCalledTimes(1);
    s.team.set(false); // the team stopping must not let the run settle (it would exit 0)
    expect(await state(settle)).toBe("pending");
    expect(s.exits).toEqual([]);
    finishStop();
    await tick();
    expect(s.exits).toEqual([SIGINT_EXIT_CODE]);
    expect(await state(settle)).toBe("pending");
    s.fire("SIGINT");
    expect(s.exits).toEqual([SIGINT_EXIT_CODE, SIGINT_EXIT_CODE]);
    expect(s.stopTeam).toHaveBeenCalledTimes(1);
  });

  it("a run that ends on a stuck board prints the summary on stderr and sets exit code 3 (W21)", async () => {
    let stuck: string | undefined = "The task board is stuck: 1 task (1 pending); ...";
    const s = setup("print", new FakeTeam(true), { stuck: () => stuck });
    await s.start();
    const settle = s.emit("agent_before_settle", settleEvent());
    s.team.set(false);
    await settle;
    expect(s.errors.join("")).toMatch(/^pi-resident-teams: The task board is stuck: 1 task \(1 pending\)/);
    expect(s.errors.join("")).toContain(`Exit code ${STUCK_EXIT_CODE}`);
    expect(s.proc.exitCode).toBe(STUCK_EXIT_CODE);
    expect(s.exits).toEqual([]); // Pi still prints the leader's answer and exits by itself
    stuck = undefined;
    s.proc.exitCode = undefined;
    s.errors.length = 0;
    await s.emit("agent_before_settle", settleEvent());
    expect(s.errors).toEqual([]);
    expect(s.proc.exitCode).toBeUndefined();
  });

  it("a delivery ends the wait without a stuck check: the run goes on", async () => {
    const stuck = vi.fn(() => "stuck");
    const s = setup("print", new FakeTeam(true), { stuck });
    await s.start();
    const settle = s.emit("agent_before_settle", settleEvent());
    s.team.deliver();
    await settle;
    expect(stuck).not.toHaveBeenCalled();
  });
});
