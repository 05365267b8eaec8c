import { describe, expect, it } from "vitest";
import { FinishLine } from "../../../src/leader/finish-line.ts";

describe("FinishLine (R55): the finish entry follows the report it announces", () => {
  it("waits while the teammate's report is on its way, then appends once it is shown", () => {
    const out: string[] = [];
    const f = new FinishLine((t, line) => out.push(`${t}: ${line.text}`));
    f.delivered("ada");
    f.lifeline("ada", { text: "Teammate @ada finished (completed).", ok: true });
    expect(out).toEqual([]);
    f.shown("ada");
    expect(out).toEqual(["ada: Teammate @ada finished (completed)."]);
    f.shown("ada"); // a stray shown never appends twice
    expect(out).toHaveLength(1);
  });

  it("appends at once with no report on its way (a shutdown, a crash), and waits for every report in flight", () => {
    const out: string[] = [];
    const oks: boolean[] = [];
    const f = new FinishLine((t, line) => {
      out.push(t);
      oks.push(line.ok);
    });
    f.lifeline("bo", { text: "Teammate @bo crashed.", ok: false });
    expect(out).toEqual(["bo"]);
    f.delivered("cy");
    f.delivered("cy");
    f.lifeline("cy", { text: "done", ok: true });
    f.shown("cy");
    expect(out).toEqual(["bo"]);
    f.shown("cy");
    expect(out).toEqual(["bo", "cy"]);
    expect(oks).toEqual([false, true]); // the failure mark travels with a waiting line too
  });
});
