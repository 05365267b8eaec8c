import { visibleWidth } from "@earendil-works/pi-tui";
import { describe, expect, it, vi } from "vitest";
import {
  FINISH_ENTRY_TYPE,
  HARNESS_EVENT_TYPE,
  registerTeamRenderers,
  renderFinishEntry,
  renderHarnessEvent,
  renderTeammateReport,
  stripWrapper,
  TEAMMATE_REPORT_TYPE,
} from "../../../src/ui/renderers.ts";
import { ansiTheme, plain } from "./fixture.ts";

const HINT = "HINT-KEY to expand";
const options = (expanded: boolean) => ({ expanded, outputPad: 1, keyHint: vi.fn((_id: string, desc: string) => `HINT-KEY ${desc}`) });

const REPORT = {
  content: '<teammate-report from="alice" status="completed">\nwrapped\n</teammate-report>',
  details: { v: 1, id: "m1", from: "alice", spawnId: "s1", status: "completed", at: 1, body: "\n  Console done, tests green  \nSecond line of the report\nLAST line" },
};

function lines(c: { render(w: number): readonly string[] }, width: number): string[] {
  const out = c.render(width);
  for (const l of out) expect(visibleWidth(l)).toBeLessThanOrEqual(width);
  return plain(out).map((l) => l.trimEnd());
}

describe("renderTeammateReport (R32, L17)", () => {
  it("collapsed: one line @from · status · title plus the expand hint from the options", () => {
    const o = options(false);
    const out = lines(renderTeammateReport(REPORT, o, ansiTheme), 100);
    expect(out).toEqual([` @alice · completed · Console done, tests green (${HINT})`]);
    expect(o.keyHint).toHaveBeenCalledWith("app.tools.expand", "to expand");
  });

  it("collapsed at 40 columns: still one line, the hint kept, the title cut", () => {
    const out = lines(renderTeammateReport(REPORT, options(false), ansiTheme), 40);
    expect(out).toHaveLength(1);
    expect(out[0]).toContain(`(${HINT})`);
    expect(out[0]).toMatch(/^ @alice · complet… \(HINT-KEY to expand\)$/);
  });

  it("expanded: the header and the full body, wrapped to the width", () => {
    const out = lines(renderTeammateReport(REPORT, options(true), ansiTheme), 40);
    expect(out[0]).toContain("@alice · completed · Console done");
    expect(out.join("\n")).toContain("Second line of the report");
    expect(out.at(-1)).toContain("LAST line");
    expect(out.join("\n")).not.toContain(HINT);
  });

  it("uses the message background, unbroken by the title's cut (no SGR reset)", () => {
    const raw = renderTeammateReport(REPORT, options(false), ansiTheme).render(40);
    expect(raw[0]).toContain("\x1b[44m");
    expect(raw[0]).not.toContain("\x1b[0m");
  });

  it("titles by the first line with text: a line of escape codes only is skipped", () => {
    const escaped = { ...REPORT, details: { ...REPORT.details, body: "\u001b[1m\u001b[0m\nReal title\nmore" } };
    expect(lines(renderTeammateReport(escaped, options(false), ansiTheme), 80)[0]).toMatch(/^ @alice · completed · Real title /);
  });

  it("odd details: falls back to the content without its wrapper, never throws", () => {
    for (const details of [undefined, null, 42, "x", [], { from: 7, status: {}, body: 3 }]) {
      const out = lines(renderTeammateReport({ content: REPORT.content, details }, options(false), ansiTheme), 60);
      expect(out).toHaveLength(1);
      expect(out[0]).toContain("wrapped");
    }
    const empty = lines(renderTeammateReport({ content: "", details: { from: "bob", status: "failed", body: "  \n " } }, options(false), ansiTheme), 60);
    expect(empty[0]).toContain("@bob · failed · (no content)");
  });
});

describe("renderHarnessEvent", () => {
  const EVENT = {
    content: '<harness-event type="crashed" teammate="bob">\nbob exited with code 137.\nStderr tail: killed\n</harness-event>',
    details: { type: "crashed", teammate: "bob" },
  };

  it("collapsed: ⚑ type · @teammate · title plus the hint", () => {
    expect(lines(renderHarnessEvent(EVENT, options(false), ansiTheme), 100)).toEqual([` ⚑ crashed · @bob · bob exited with code 137. (${HINT})`]);
  });

  it("expanded: the body without the wrapper lines", () => {
    const out = lines(renderHarnessEvent(EVENT, options(true), ansiTheme), 60).join("\n");
    expect(out).toContain("Stderr tail: killed");
    expect(out).not.toContain("<harness-event");
    expect(out).not.toContain("</harness-event>");
  });

  it("names several teammates (array or comma-joined) and survives odd details", () => {
    const many = lines(renderHarnessEvent({ content: "Reloaded.", details: { type: "teammates-stopped", teammates: ["a", "b"] } }, options(false), ansiTheme), 100);
    expect(many[0]).toContain("⚑ teammates-stopped · @a, @b · Reloaded.");
    const joined = lines(renderHarnessEvent({ content: "x", details: { type: "t", teammate: "a,b" } }, options(false), ansiTheme), 100);
    expect(joined[0]).toContain("@a, @b");
    const odd = lines(renderHarnessEvent({ content: [{ type: "text", text: "From parts" }], details: 5 }, options(false), ansiTheme), 60);
    expect(odd).toHaveLength(1);
    expect(odd[0]).toContain("⚑ event · From parts");
  });
});

describe("renderFinishEntry and registerTeamRenderers", () => {
  it("one dim line, fitted", () => {
    const c = renderFinishEntry({ data: { text: "Teammate @x finished (completed).", teammate: "x" } }, { expanded: false }, ansiTheme);
    expect(lines(c, 80)).toEqual([" ✓ Teammate @x finished (completed)."]);
    expect(lines(c, 20)).toHaveLength(1);
    expect(lines(renderFinishEntry({ data: { teammate: "y" } }, { expanded: true }, ansiTheme), 80)).toEqual([" ✓ Teammate @y finished."]);
    expect(lines(renderFinishEntry({}, { expanded: true }, ansiTheme), 80)).toEqual([" ✓ A teammate finished."]);
  });

  it("a failure end carries ✗ in the error tone, a clean end ✓, at 80 and 120 columns (R55)", () => {
    const entry = (text: string, ok?: boolean) => ({ data: { teammate: "dee", text, ...(ok === undefined ? {} : { ok }) } });
    for (const width of [80, 120]) {
      const line = (text: string, ok?: boolean) => lines(renderFinishEntry(entry(text, ok), { expanded: false }, ansiTheme), width);
      expect(line("Teammate @dee crashed.", false)).toEqual([" ✗ Teammate @dee crashed."]);
      expect(line("Teammate @dee finished (failed).", false)).toEqual([" ✗ Teammate @dee finished (failed)."]);
      expect(line("Teammate @dee shut down.", true)).toEqual([" ✓ Teammate @dee shut down."]);
      expect(line("Teammate @dee finished (completed).", true)).toEqual([" ✓ Teammate @dee finished (completed)."]);
      // Entries of sessions written before `ok` was stored are judged by their text.
      expect(line("Teammate @dee crashed.")).toEqual([" ✗ Teammate @dee crashed."]);
      expect(line("Teammate @dee shut down.")).toEqual([" ✓ Teammate @dee shut down."]);
    }
    const styled = renderFinishEntry(entry("Teammate @dee crashed.", false), { expanded: false }, ansiTheme).render(80).join("");
    expect(styled).toContain(ansiTheme.fg("error", "✗ "));
  });

  it("registers the two message renderers and the entry renderer", () => {
    const pi = { registerMessageRenderer: vi.fn(), registerEntryRenderer: vi.fn() };
    registerTeamRenderers(pi);
    expect(pi.registerMessageRenderer.mock.calls.map((c) => c[0])).toEqual([TEAMMATE_REPORT_TYPE, HARNESS_EVENT_TYPE]);
    expect(pi.registerEntryRenderer.mock.calls.map((c) => c[0])).toEqual([FINISH_ENTRY_TYPE]);
  });

  it("stripWrapper leaves unwrapped text alone", () => {
    expect(stripWrapper("plain\ntext", "harness-event")).toBe("plain\ntext");
    expect(stripWrapper('<harness-event type="x">\nin\n</harness-event>\nafter', "harness-event")).toBe("in");
  });
});
