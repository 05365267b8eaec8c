import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Type } from "typebox";
import { WARM_AFTER_MS, warmValidators, warmWhenIdle, type IdleProbe } from "../../../src/worker/warm.ts";

const tools = [{ name: "t", parameters: Type.Object({ to: Type.String() }) }];

describe("warming the worker tools' validators", () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] }));
  afterEach(() => vi.useRealTimers());

  it("never throws, also for an empty call that the schema rejects", () => {
    expect(() => warmValidators(tools)).not.toThrow();
  });

  it("warms once, and only when the teammate is idle with nothing queued after the delay", () => {
    const probe = { idle: false, pending: false, asked: 0 };
    const ctx: IdleProbe = { isIdle: () => (probe.asked++, probe.idle), hasPendingMessages: () => probe.pending };
    const poke = warmWhenIdle(tools, () => ctx);
    poke();
    vi.advanceTimersByTime(WARM_AFTER_MS - 1);
    expect(probe.asked).toBe(0);
    vi.advanceTimersByTime(1);
    expect(probe.asked).toBe(1); // busy (a kickoff): not warmed, tried again after the run
    probe.idle = true;
    probe.pending = true;
    poke();
    vi.advanceTimersByTime(WARM_AFTER_MS);
    expect(probe.asked).toBe(2); // a prompt is queued: not now
    probe.pending = false;
    poke();
    poke(); // one timer at a time
    vi.advanceTimersByTime(WARM_AFTER_MS);
    expect(probe.asked).toBe(3);
    poke();
    vi.advanceTimersByTime(WARM_AFTER_MS * 2);
    expect(probe.asked).toBe(3); // done for good
  });

  it("gives up quietly when the session cannot be asked", () => {
    const poke = warmWhenIdle(tools, () => ({ isIdle: () => { throw new Error("stale ctx"); }, hasPendingMessages: () => false }));
    poke();
    expect(() => vi.advanceTimersByTime(WARM_AFTER_MS)).not.toThrow();
  });
});
