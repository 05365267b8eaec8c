import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BoardCallWatch } from "../../../src/boardhost/board-calls.ts";
import type { Member } from "../../../src/team/member.ts";
import type { TeammateOutput } from "../../../src/team/teammate-output.ts";

const alice = { name: "alice", spawnId: "s-alice" } as Member;
const bob = { name: "bob", spawnId: "s-bob" } as Member;
const start = (tool: string, callId: string): TeammateOutput => ({ kind: "tool_started", tool, callId, args: {} });
const end = (tool: string, callId: string): TeammateOutput => ({ kind: "tool_ended", tool, callId, failed: false });

describe("BoardCallWatch (the intent watch's safety net)", () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] }));
  afterEach(() => vi.useRealTimers());

  it("runs no timer while no board call is open, whatever else the teammates do", () => {
    const rescan = vi.fn();
    const watch = new BoardCallWatch(rescan, 100);
    watch.observe(alice, start("send_message", "c1"));
    watch.observe(alice, end("send_message", "c1"));
    watch.observe(alice, { kind: "run_started" });
    expect(watch.armed).toBe(false);
    vi.advanceTimersByTime(10_000);
    expect(rescan).not.toHaveBeenCalled();
  });

  it("rescans every period from a task_claim's start to its end, then stops", () => {
    const rescan = vi.fn();
    const watch = new BoardCallWatch(rescan, 100);
    watch.observe(alice, start("task_claim", "c1"));
    expect(watch.armed).toBe(true);
    vi.advanceTimersByTime(350);
    expect(rescan).toHaveBeenCalledTimes(3);
    watch.observe(alice, end("task_claim", "c1"));
    expect(watch.armed).toBe(false);
    vi.advanceTimersByTime(1000);
    expect(rescan).toHaveBeenCalledTimes(3);
  });

  it("stays armed while any teammate has a call open; a settled run, a gone teammate or close disarm", () => {
    const watch = new BoardCallWatch(() => undefined, 100);
    watch.observe(alice, start("task_submit", "a1"));
    watch.observe(bob, start("task_claim", "b1"));
    watch.observe(alice, { kind: "settled" }); // its end event was never seen
    expect(watch.armed).toBe(true);
    watch.forget(bob);
    expect(watch.armed).toBe(false);
    watch.observe(bob, start("task_claim", "b2"));
    watch.close();
    expect(watch.armed).toBe(false);
  });
});
