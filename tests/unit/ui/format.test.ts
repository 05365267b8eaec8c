import { visibleWidth } from "@earendil-works/pi-tui";
import { describe, expect, it } from "vitest";
import { clip, clipMiddle, fit, fitSegments, formatCost, formatDuration, formatGauge, formatTokens, oneLine, safeLines } from "../../../src/ui/format.ts";
import { columnWidths, type Column } from "../../../src/ui/table.ts";

describe("formatters", () => {
  it("durations in their largest whole unit", () => {
    expect([0, -5, NaN, 12_400, 59_999, 60_000, 3 * 60_000 + 59_000, 2 * 3_600_000, 50 * 3_600_000].map(formatDuration)).toEqual(["0s", "0s", "0s", "12s", "59s", "1m", "3m", "2h", "2d"]);
  });

  it("tokens and cost", () => {
    expect([850, 1500, 9_950, 45_000, 200_000, 1_200_000, 2_000_000].map(formatTokens)).toEqual(["850", "1.5K", "9.9K", "45K", "200K", "1.2M", "2M"]);
    expect([0, 0.123, 12.5, 120.4].map(formatCost)).toEqual(["$0.00", "$0.12", "$12.50", "$120"]);
  });

  it("the gauge: known, unknown, after a compaction, while compacting", () => {
    expect(formatGauge({ tokens: 45_000, window: 200_000, percent: 22 })).toBe("45K/200K 22%");
    expect(formatGauge(undefined)).toBe("—");
    expect(formatGauge({ tokens: null, window: 200_000, percent: null })).toBe("?/200K");
    expect(formatGauge({ tokens: 45_000, window: 200_000, percent: 22 }, { at: 0, state: "running", by: "auto" })).toBe("compacting…");
    expect(formatGauge({ tokens: 30_000, window: 200_000, percent: 15 }, { at: 0, state: "done", by: "user" })).toBe("30K/200K 15%");
  });

  it("fit and clip give exactly the width, wide characters counted twice", () => {
    for (const w of [1, 2, 3, 7, 20]) {
      expect(visibleWidth(fit("\x1b[31m研究者 and more text\x1b[39m", w))).toBe(w);
      expect(visibleWidth(clip("研究者 and more text", w))).toBe(w);
    }
    expect(clip("研究者", 5)).toBe("研究…");
    expect(clip("abc", 5)).toBe("abc  ");
    expect(clip("abcdef", 4, false)).toBe("abc…");
    expect(fit("x", 0)).toBe("");
  });

  it("fitSegments cuts the first segment that does not fit and styles after cutting", () => {
    const up = (s: string): string => `<${s}>`;
    expect(fitSegments([{ text: "abc", style: up }, { text: "defgh", style: up }, { text: "zz" }], 6)).toBe("<abc><de…>");
    expect(fitSegments([{ text: "abc" }, { text: "de" }], 10)).toBe("abcde");
  });

  it("untrusted text loses terminal sequences and control characters", () => {
    expect(oneLine("  a\tb\nc\x1b[31mred\x1b[0m\x07 ")).toBe("a b cred");
    expect(safeLines("a\tb\r\nc\x1b[2Jd")).toEqual(["a  b", "cd"]);
  });
});

describe("columnWidths", () => {
  const cols: Column[] = [
    { title: "name", min: 4, max: 10, rank: 0 },
    { title: "status", min: 6, max: 20, rank: 0 },
    { title: "extra", min: 5, max: 8, rank: 2 },
    { title: "more", min: 5, max: 8, rank: 3 },
    { title: "rest", min: 6, max: 6, rank: 1, flex: true },
  ];
  const rows = [[{ text: "alice" }, { text: "working 12s" }, { text: "xxxxxxxx" }, { text: "yyyy" }, { text: "activity" }]];

  it("content widths within min..max, the flex column takes the rest", () => {
    expect(columnWidths(cols, rows, 60)).toEqual([5, 11, 8, 5, 27]);
  });

  it("drops the highest rank first, then shrinks the widest toward its min", () => {
    expect(columnWidths(cols, rows, 40)).toEqual([5, 11, 8, 5, 7]);
    expect(columnWidths(cols, rows, 34)).toEqual([5, 11, 8, 0, 7]);
    expect(columnWidths(cols, rows, 24)).toEqual([5, 11, 0, 0, 6]);
    expect(columnWidths(cols, rows, 14)).toEqual([5, 8, 0, 0, 0]);
    expect(columnWidths(cols, rows, 5)).toEqual([4, 6, 0, 0, 0]); // rank 0 at min: the line is cut later
  });

  it("keeps the flex column while shrinking the others toward their min makes room for it", () => {
    const wide = [[{ text: "alice" }, { text: "x".repeat(20) }, { text: "xxxxxxxx" }, { text: "yyyy" }, { text: "activity" }]];
    // name 5 + status 20 + rest 6 + 2 gaps = 33 > 30; status can give 14 columns, so rest stays.
    expect(columnWidths(cols, wide, 30)).toEqual([5, 17, 0, 0, 6]);
    expect(columnWidths(cols, wide, 14)).toEqual([5, 8, 0, 0, 0]); // 4 + 6 + 6 + 2 gaps > 14: dropped
  });
});

describe("clipMiddle", () => {
  it("keeps both ends of a cut id, padded to the width; a fitting text is left whole", () => {
    expect(clipMiddle("#add-multiply-function-2", 14)).toBe("#add-mu…tion-2");
    expect(clipMiddle("#add-multiply-function", 14)).toBe("#add-mu…nction");
    expect(clipMiddle("#docs", 8)).toBe("#docs   ");
    expect(clipMiddle("#研究者-2", 6, false)).toBe("#研…-2");
    expect(clipMiddle("abc", 0)).toBe("");
  });
});
