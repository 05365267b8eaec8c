import * as tui from "@earendil-works/pi-tui";
import { describe, expect, it, vi } from "vitest";
import { fixtureSnapshot, KEY, makeConsole } from "./fixture.ts";

// Counts the detail's word wrapping, the costly part of a frame (50-80 ms for a 60 KB body).
vi.mock("@earendil-works/pi-tui", async (importOriginal) => {
  const mod = await importOriginal<typeof import("@earendil-works/pi-tui")>();
  return { ...mod, wrapTextWithAnsi: vi.fn(mod.wrapTextWithAnsi) };
});
const wraps = vi.mocked(tui.wrapTextWithAnsi);

const BODY_LINES = 2000;

/** The console on the Mail page with the first row's body `BODY_LINES` lines long, its detail open. */
function bigDetail() {
  const snap = fixtureSnapshot();
  const body = Array.from({ length: BODY_LINES }, (_, i) => `line ${i} ${"word ".repeat(15)}`).join("\n");
  const s = { ...snap, mail: [{ ...snap.mail[0]!, body }, ...snap.mail.slice(1)] };
  const c = makeConsole({ page: "mail", snapshot: () => s, rows: 30 });
  c.press(KEY.enter);
  return c;
}

describe("TeamConsole detail: a long body is wrapped once, not on every frame", () => {
  it("scrolling and refreshes re-wrap only the lines that changed", () => {
    const c = bigDetail();
    wraps.mockClear();
    c.console.render(100);
    expect(wraps.mock.calls.length).toBeGreaterThanOrEqual(BODY_LINES);
    wraps.mockClear();
    for (let i = 0; i < 10; i++) {
      c.press("j");
      c.console.render(100);
    }
    c.console.refresh();
    c.console.render(100);
    expect(wraps.mock.calls.length).toBeLessThan(20);
    expect(c.screen(100).at(-1)).toMatch(/ 11-\d+\/\d+/);
  });

  it("a new width wraps again, to that width", () => {
    const c = bigDetail();
    c.console.render(100);
    wraps.mockClear();
    const narrow = c.screen(40);
    expect(wraps.mock.calls.length).toBeGreaterThanOrEqual(BODY_LINES);
    expect(narrow.every((l) => tui.visibleWidth(l) <= 40)).toBe(true);
  });
});
