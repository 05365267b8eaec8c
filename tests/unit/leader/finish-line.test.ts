import { describe, expect, it } from "vitest";
import { FinishLine } from "../../../src/leader/finish-line.ts";

describe("FinishLine (R55): the finish entry follows the report it announces", () => {
  it("waits while the teammate's report is on its way, then appends once it is shown", () => {
    const out: string[] = [];
    const f = new FinishLine((t, text) => out.push(`${t}: ${text}`));
    f.delivered("ada");
    f.lifeline("ada", "Teammate @ada finished (completed).");
    expect(out).toEqual([]);
    f.shown("ada");
    expect(out).toEqual(["ada: Teammate @ada finished (completed)."]);
    f.shown("ada"); // a stray shown never appends twice
    expect(out).toHaveLength(1);
  });

  it("appends at once with no report on its way (a shutdown, a crash), and waits for every report in flight", () => {
    const out: string[] = [];
    const f = new FinishLine((t) => out.push(t));
    f.lifeline("bo", "Teammate @bo crashed.");
    expect(out).toEqual(["bo"]);
    f.delivered("cy");
    f.delivered("cy");
    f.lifeline("cy", "done");
    f.shown("cy");
    expect(out).toEqual(["bo"]);
    f.shown("cy");
    expect(out).toEqual(["bo", "cy"]);
  });
});
