import { visibleWidth } from "@earendil-works/pi-tui";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { WidgetRow } from "../../../src/ui/console-model.ts";
import { SPINNER_FRAMES, SPINNER_INTERVAL_MS, TeamWidget, WIDGET_MAX_ROWS, widgetRows } from "../../../src/ui/widget.ts";
import { ansiTheme, fixtureSnapshot, NOW, plain } from "./fixture.ts";

function setup(initial: readonly WidgetRow[]) {
  let rows = initial;
  const tui = { terminal: { rows: 30, columns: 80 }, requestRender: vi.fn() };
  const widget = new TeamWidget({ tui, theme: ansiTheme, rows: () => rows });
  return {
    widget,
    tui,
    set(next: readonly WidgetRow[]) {
      rows = next;
    },
  };
}

const WORKING: WidgetRow[] = [
  { name: "alice", activity: "bash npm test -- --run tests/unit/ui and a long tail of arguments that does not fit" },
  { name: "dave", activity: "thinking", stall: "stalled · silent 31m" },
];

describe("TeamWidget (R62)", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("asks for no redraw when told of changes while nobody works (the harness's idle safety poll)", () => {
    const w = setup([]);
    for (let i = 0; i < 50; i++) w.widget.changed();
    expect(w.tui.requestRender).not.toHaveBeenCalled();
  });

  it("redraws at most once per tick while a teammate streams, however often it is told of changes", () => {
    const w = setup([]);
    w.set(WORKING);
    w.widget.changed(); // the widget appears: one redraw now
    expect(w.tui.requestRender).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 200; i++) w.widget.changed(); // text deltas
    vi.advanceTimersByTime(1000);
    expect(w.tui.requestRender).toHaveBeenCalledTimes(1 + 1000 / SPINNER_INTERVAL_MS);
    w.set([]);
    w.widget.changed(); // it goes away: one last redraw
    expect(w.tui.requestRender).toHaveBeenCalledTimes(2 + 1000 / SPINNER_INTERVAL_MS);
  });

  it("renders nothing (hidden) without rows, and never redraws while the team is idle", () => {
    const w = setup([]);
    expect(w.widget.render(80)).toEqual([]);
    vi.advanceTimersByTime(10_000);
    expect(w.tui.requestRender).not.toHaveBeenCalled();
    expect(w.widget.animating).toBe(false);
  });

  it("one line per row: spinner, name, activity and the stall suffix", () => {
    const w = setup(WORKING);
    const lines = plain(w.widget.render(200));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(`${SPINNER_FRAMES[0]} alice · ${WORKING[0]?.activity}`);
    expect(lines[1]).toBe(`${SPINNER_FRAMES[0]} dave · thinking · stalled · silent 31m`);
    w.widget.dispose();
  });

  for (const width of [80, 120]) {
    it(`at ${width} columns a running verify reviewer has its own row, also when no teammate works`, () => {
      const reviews = [{ taskId: "add-multiply-function-2", holder: "ada" }];
      const w = setup(widgetRows([], NOW, reviews));
      expect(plain(w.widget.render(width))).toEqual([`${SPINNER_FRAMES[0]} reviewer · reviewing #add-multiply-function-2 for @ada`]);
      expect(w.widget.animating).toBe(true);
      w.widget.dispose();
      const both = widgetRows(fixtureSnapshot().teammates, NOW, reviews);
      expect(both.at(-1)).toEqual({ name: "reviewer", activity: "reviewing #add-multiply-function-2 for @ada" });
      expect(both.filter((r) => r.name === "reviewer")).toHaveLength(1);
    });
  }

  it("fits every line to the width", () => {
    const w = setup([...WORKING, { name: "研究者研究者研究者", activity: "読んでいます".repeat(10) }]);
    for (const width of [80, 40, 12, 1]) {
      for (const line of w.widget.render(width)) expect(visibleWidth(line)).toBeLessThanOrEqual(width);
    }
    expect(plain(w.widget.render(40))[0]).toMatch(/^⠋ alice · bash npm test.*…$/);
    w.widget.dispose();
  });

  it("shows at most five rows, then +N more", () => {
    const w = setup(Array.from({ length: 8 }, (_, i) => ({ name: `w${i}`, activity: "working" })));
    const lines = plain(w.widget.render(80));
    expect(lines).toHaveLength(WIDGET_MAX_ROWS + 1);
    expect(lines.at(-1)).toBe("  +3 more");
    w.widget.dispose();
  });

  it("animates about four times a second only while rows exist; stops when they go away and on dispose", () => {
    const w = setup([]);
    w.set(WORKING);
    w.widget.changed();
    expect(w.tui.requestRender).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1000);
    expect(w.tui.requestRender).toHaveBeenCalledTimes(1 + 1000 / SPINNER_INTERVAL_MS);
    expect(plain(w.widget.render(80))[0]?.startsWith(SPINNER_FRAMES[4])).toBe(true);

    w.set([]);
    w.widget.changed();
    const calls = w.tui.requestRender.mock.calls.length;
    expect(w.widget.animating).toBe(false);
    vi.advanceTimersByTime(5000);
    expect(w.tui.requestRender).toHaveBeenCalledTimes(calls);
    expect(w.widget.render(80)).toEqual([]);

    w.set(WORKING);
    w.widget.render(80); // a render that sees rows starts the spinner too
    expect(w.widget.animating).toBe(true);
    w.widget.dispose();
    const afterDispose = w.tui.requestRender.mock.calls.length;
    vi.advanceTimersByTime(5000);
    expect(w.tui.requestRender).toHaveBeenCalledTimes(afterDispose);
    expect(w.widget.animating).toBe(false);
  });

  it("team changes while it spins (streamed text: one per token) redraw with the next tick, not each", () => {
    const w = setup([]);
    w.set(WORKING);
    w.widget.changed(); // it appears: at once
    expect(w.tui.requestRender).toHaveBeenCalledTimes(1);
    for (let tick = 0; tick < 4; tick++) {
      for (let i = 0; i < 50; i++) w.widget.changed();
      vi.advanceTimersByTime(SPINNER_INTERVAL_MS);
    }
    expect(w.tui.requestRender).toHaveBeenCalledTimes(1 + 4);
    w.set([]);
    w.widget.changed(); // it goes: at once
    expect(w.tui.requestRender).toHaveBeenCalledTimes(6);
    for (let i = 0; i < 50; i++) w.widget.changed(); // idle team events
    expect(w.tui.requestRender).toHaveBeenCalledTimes(6);
  });

  it("rows vanishing without changed(): one last redraw hides it, then silence", () => {
    const w = setup(WORKING);
    w.set([]);
    vi.advanceTimersByTime(SPINNER_INTERVAL_MS);
    expect(w.tui.requestRender).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(5000);
    expect(w.tui.requestRender).toHaveBeenCalledTimes(1);
  });
});

describe("widgetRows", () => {
  it("starting and working teammates with activity and the console's stall text", () => {
    const rows = widgetRows(fixtureSnapshot().teammates, NOW);
    expect(rows.map((r) => r.name)).toEqual(["scout", "alice", "carol", "dave", "研究者"]);
    expect(rows[0]).toEqual({ name: "scout", activity: "starting…" });
    expect(rows.find((r) => r.name === "carol")?.stall).toBe("stalled 31m");
    expect(rows.find((r) => r.name === "dave")).toEqual({ name: "dave", activity: "working…", stall: "stalled · silent 31m" });
  });
});
