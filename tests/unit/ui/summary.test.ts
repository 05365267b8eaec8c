import { describe, expect, it } from "vitest";
import type { TeammateRow } from "../../../src/ui/console-model.ts";
import { consoleSummary, SUMMARY_ROWS_PER_PAGE } from "../../../src/ui/summary.ts";
import { fixtureSnapshot } from "./fixture.ts";

describe("consoleSummary (R61, RPC and print modes)", () => {
  const text = consoleSummary(fixtureSnapshot());

  it("has no ANSI or other control characters except newlines", () => {
    expect(text).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
  });

  it("has a heading per page and the team model", () => {
    expect(text.split("\n")[0]).toBe("pi-resident-teams · team model: anthropic/claude-sonnet-4");
    for (const h of ["Teammates (9)", "Roles (6)", "Board (6)", "Mail (6)"]) expect(text.split("\n")).toContain(h);
  });

  it("lists each page's rows with the same cells the console draws", () => {
    expect(text).toContain("  @alice · working 12s · 45K/200K 22% · 12K $0.12 · claude-sonnet-4 (role) · #ui-console Build the console · pi-team/alice-1234abcd · bash npm test");
    expect(text).toContain("  @frank · stopped (exit 137) · — ");
    expect(text).toContain("  @dave · stalled · silent 31m");
    expect(text).toContain("  @grace · stopped (SIGKILL)");
    expect(text).toContain("  worker · project · git · Pi defaults · role pin anthropic/claude-sonnet-4 · verify yes · worktree yes · @alice @scout");
    expect(text).toContain("  ✗ skipped  /repo/.pi/agents/broken.md  /model is 42; expected a string provider/id or inherit");
    expect(text).toContain("  6 tasks · 1 in_review · 1 claimed · 1 parked · 1 pending · 1 completed · 1 superseded");
    expect(text).toContain("  #ui-widget · claimed · Subject of ui-widget · @bob · deps 1/2 · verify pending");
    expect(text).toContain("  5s ago · report · alice → leader · Console done, tests green · reported (completed)");
  });

  it("bounds each page with +N more", () => {
    const base = fixtureSnapshot();
    const many: TeammateRow[] = Array.from({ length: 25 }, (_, i) => ({ ...(base.teammates[0] as TeammateRow), name: `w${i}` }));
    const s = consoleSummary({ ...base, teammates: many });
    expect(s).toContain("Teammates (25)");
    expect(s).toContain(`  @w${SUMMARY_ROWS_PER_PAGE - 1} ·`);
    expect(s).not.toContain(`  @w${SUMMARY_ROWS_PER_PAGE} ·`);
    expect(s).toContain("  +5 more");
  });

  it("says so when a page is empty", () => {
    const s = consoleSummary({ ...fixtureSnapshot(), mail: [], teammates: [] });
    expect(s).toContain("Mail (0)\n  No mail yet.");
    expect(s).toContain("Teammates (0)\n  No teammates.");
  });
});
