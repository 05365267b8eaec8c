import { describe, expect, it } from "vitest";
import { LOOP_CALLS, LOOP_WINDOW_MS, loopEventText, ModelCallRate, resolveLoopCalls } from "../../../src/team/model-call-rate.ts";

/** Counts `n` calls `stepMs` apart from `t0`; returns every non-undefined answer with the call's index. */
function calls(rate: ModelCallRate, n: number, stepMs: number, t0 = 0) {
  const raised = [];
  for (let i = 0; i < n; i++) {
    const s = rate.call(t0 + i * stepMs);
    if (s) raised.push({ i, ...s });
  }
  return raised;
}

describe("model-call rate (issue 18)", () => {
  it("defaults to 100 calls in 60 s and refuses nonsense limits", () => {
    expect([LOOP_CALLS, LOOP_WINDOW_MS]).toEqual([100, 60_000]);
    expect(() => new ModelCallRate({ calls: 1, windowMs: 1000 })).toThrow(/at least 2; got 1/);
    expect(() => new ModelCallRate({ calls: 10, windowMs: 0 })).toThrow(/positive number of ms; got 0/);
  });

  it("PI_TEAMMATE_LOOP_CALLS sets the calls, 0 turns the rule off, a bad value keeps the default with a warning", () => {
    expect(resolveLoopCalls({})).toEqual({ calls: LOOP_CALLS, warnings: [] });
    expect(resolveLoopCalls({ PI_TEAMMATE_LOOP_CALLS: " " })).toEqual({ calls: LOOP_CALLS, warnings: [] });
    expect(resolveLoopCalls({ PI_TEAMMATE_LOOP_CALLS: "0" })).toEqual({ calls: 0, warnings: [] });
    expect(resolveLoopCalls({ PI_TEAMMATE_LOOP_CALLS: " 300 " })).toEqual({ calls: 300, warnings: [] });
    for (const bad of ["lots", "1", "-5", "2.5"]) {
      expect(resolveLoopCalls({ PI_TEAMMATE_LOOP_CALLS: bad })).toEqual({
        calls: LOOP_CALLS,
        warnings: [`PI_TEAMMATE_LOOP_CALLS="${bad}" is not a whole number of model calls of at least 2 (0 turns the rule off); using 100.`],
      });
    }
  });

  it("raises once when the 100th call of a streak falls within 60 s of its first, never again in that streak", () => {
    const rate = new ModelCallRate();
    // The loop the issue saw: 975 calls in 45 s.
    expect(calls(rate, 975, 46)).toEqual([{ i: 99, calls: 100, spanMs: 99 * 46, total: 100 }]);
  });

  it("does not raise at a working pace: a call every 0.7 s, for as long as it goes", () => {
    expect(calls(new ModelCallRate(), 2000, 700)).toEqual([]);
  });

  it("judges a sliding window: slow calls first, then a fast run reaches the rate with the streak's total", () => {
    const rate = new ModelCallRate({ calls: 10, windowMs: 1000 });
    expect(calls(rate, 30, 5000)).toEqual([]);
    // Calls 31.. come 50 ms apart from t = 200 s: the 10th of them is the first window of 10 within 1 s.
    expect(calls(rate, 20, 50, 200_000)).toEqual([{ i: 9, calls: 10, spanMs: 450, total: 40 }]);
  });

  it("a reset starts a new streak, which may raise again; the window never spans a reset", () => {
    const rate = new ModelCallRate({ calls: 10, windowMs: 1000 });
    expect(calls(rate, 9, 10)).toEqual([]);
    rate.reset();
    expect(calls(rate, 9, 10, 100)).toEqual([]); // 18 calls in 190 ms, but only 9 since the reset
    expect(calls(rate, 1, 10, 190)).toEqual([{ i: 0, calls: 10, spanMs: 90, total: 10 }]);
    expect(calls(rate, 50, 10, 200)).toEqual([]);
    rate.reset();
    expect(calls(rate, 10, 10, 1000)).toEqual([{ i: 9, calls: 10, spanMs: 90, total: 10 }]);
  });

  it("the event text gives the figures, that nothing was stopped, and what the leader can do", () => {
    expect(loopEventText("ana", { calls: 100, spanMs: 4_554, total: 100 })).toBe(
      "@ana made 100 model calls in 4.6 s with no report or board step. A teammate at work makes at most about one a second: it is probably looping, repeating the same call.\n" +
        "Nothing was stopped. Tell it what to do with send_message (that also starts its count again), or shut it down with teammate_shutdown. You get this once per streak: the next only after its next report, board claim or submission, or message from you.",
    );
    expect(loopEventText("ana", { calls: 100, spanMs: 50_000, total: 340 }).split("\n")[0]).toBe(
      "@ana made 100 model calls in 50 s with no report or board step (340 since the last one). A teammate at work makes at most about one a second: it is probably looping, repeating the same call.",
    );
  });
});
