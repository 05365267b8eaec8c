import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { HeartbeatTimer } from "../../../src/harness/heartbeat-timer.ts";
import { SYSTEM_CLOCK } from "../../../src/harness/harness-ports.ts";
import { initialState } from "../../../src/team/lifecycle.ts";
import type { TeammateState } from "../../../src/team/lifecycle-types.ts";
import type { Member } from "../../../src/team/member.ts";

const SPAWN = "11111111-1111-4111-8111-111111111111";

/** Only `state` is read by the timer. */
function member(phase: "idle" | "working", lastOutputAt = 0): Member {
  const start = initialState(SPAWN, lastOutputAt);
  const life = !("life" in start) ? undefined : start.life;
  const state = (phase === "working" ? { phase, life, runError: undefined } : { phase, life }) as TeammateState;
  return { state } as Member;
}

describe("HeartbeatTimer: one timer for the team, armed only while someone works (R52)", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(0);
  });
  afterEach(() => vi.useRealTimers());

  it("an idle team has no timer", () => {
    const ticks = vi.fn();
    const timer = new HeartbeatTimer({ stallMs: 60_000, silentMs: 10_000 }, SYSTEM_CLOCK, ticks);
    timer.arm([member("idle"), member("idle")]);
    expect(timer.armed).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("is armed for the earliest due time, fires once there, and is cleared when everyone idles", () => {
    const ticks = vi.fn();
    const timer = new HeartbeatTimer({ stallMs: 60_000, silentMs: 10_000 }, SYSTEM_CLOCK, ticks);
    timer.arm([member("working", 0), member("working", 5_000)]);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(9_999);
    expect(ticks).not.toHaveBeenCalled();
    vi.advanceTimersByTime(2);
    expect(ticks).toHaveBeenCalledTimes(1);
    timer.arm([member("idle"), member("idle")]);
    expect(timer.armed).toBe(false);
    vi.advanceTimersByTime(1_000_000);
    expect(ticks).toHaveBeenCalledTimes(1);
  });

  it("re-arming on every event keeps one timer; a later due time does not move an earlier timer", () => {
    const ticks = vi.fn();
    const timer = new HeartbeatTimer({ stallMs: 60_000, silentMs: 0 }, SYSTEM_CLOCK, ticks);
    for (let i = 0; i < 1000; i++) timer.arm([member("working", i)]);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(60_001);
    expect(ticks).toHaveBeenCalledTimes(1);
  });

  it("a threshold beyond setTimeout's limit (30 days) is clamped, never a 1 ms spin", () => {
    const ticks = vi.fn();
    const timer = new HeartbeatTimer({ stallMs: 30 * 24 * 3_600_000, silentMs: 0 }, SYSTEM_CLOCK, ticks);
    timer.arm([member("working")]);
    vi.advanceTimersByTime(60_000);
    expect(ticks).not.toHaveBeenCalled();
  });

  it("disabled thresholds never arm it", () => {
    const timer = new HeartbeatTimer({ stallMs: 0, silentMs: 0 }, SYSTEM_CLOCK, vi.fn());
    timer.arm([member("working")]);
    expect(timer.armed).toBe(false);
  });
});
