import { describe, expect, it } from "vitest";
import { legendText } from "../../../src/ui/console-render.ts";
import { expectFrame, KEY, makeConsole, settle } from "./fixture.ts";

/** Issue 21: the user's own hands in the console, `s` (a message) and `a` (interrupt). */
const statusLine = (lines: readonly string[]): string => lines[lines.length - 2] ?? "";
const legend = (lines: readonly string[]): string => lines[lines.length - 1] ?? "";

describe("TeamConsole: s composes a message to the selected teammate", () => {
  it("opens Pi's editor under the recipient's name; Enter sends through the actions, and the list comes back with the receipt", async () => {
    const c = makeConsole();
    c.press("j", "s"); // alice, working
    const open = c.screen();
    expect(open.join("\n")).toContain("Message to @alice");
    expect(legend(open)).toContain("Enter send · Shift+Enter new line · Esc cancel");
    c.press(..."Stop the refactor, keep the tests".split(""), KEY.enter);
    await settle();
    expect(c.actions.send).toHaveBeenCalledWith("alice", "Stop the refactor, keep the tests");
    const after = c.screen();
    expect(statusLine(after)).toContain("@alice: steered (33 chars)");
    expect(after.join("\n")).not.toContain("Message to @alice");
  });

  it("Esc cancels with nothing sent; q and x are text in the editor, not keys of the console", async () => {
    const c = makeConsole();
    c.press("j", "s", "q", "x");
    expect(c.done).not.toHaveBeenCalled();
    expect(c.screen().join("\n")).toContain("Message to @alice");
    c.press(KEY.esc);
    await settle();
    expect(c.actions.send).not.toHaveBeenCalled();
    expect(statusLine(c.screen())).toContain("Not sent.");
  });

  it("does not send a blank message, and refuses a teammate that is not living", async () => {
    const c = makeConsole();
    c.press("j", "s", " ", KEY.enter);
    await settle();
    expect(c.actions.send).not.toHaveBeenCalled();
    c.press(KEY.esc, KEY.end, "k", "k", "s"); // a stopped one (frank or grace)
    expect(statusLine(c.screen())).toMatch(/@(frank|grace) is not living \(stopped/);
  });

  it("acts on the Teammates page only", () => {
    const c = makeConsole({ page: "board" });
    c.press("s");
    expect(statusLine(c.screen())).toContain("s acts on the Teammates page (Tab to it).");
  });

  it("fits the frame at 80 and 120 columns while composing", () => {
    for (const columns of [80, 120]) {
      const c = makeConsole({ columns, rows: 20 });
      c.press("j", "s", ..."hello".split(""));
      expectFrame(c.screen(columns), columns, 20);
    }
  });
});

describe("TeamConsole: a interrupts the selected teammate's run", () => {
  it("asks y/n, then calls the interrupt action", async () => {
    const c = makeConsole();
    c.press("j", "a");
    expect(statusLine(c.screen())).toContain("Interrupt @alice's run (it stays, idle, with its context and claims)? y/n");
    c.press("y");
    await settle();
    expect(c.actions.interrupt).toHaveBeenCalledWith("alice");
    expect(statusLine(c.screen())).toContain("@alice interrupted: idle, with its context and claims");
  });

  it("n cancels; a stopping teammate is refused", async () => {
    const c = makeConsole();
    c.press("j", "a", "n");
    await settle();
    expect(c.actions.interrupt).not.toHaveBeenCalled();
    c.press(KEY.end, "k", "k", "k", "a"); // erin, stopping
    expect(statusLine(c.screen())).toContain("@erin is stopping.");
  });
});

describe("the Teammates legend", () => {
  it("names every key where it fits, and drops the arrows and Enter at 80 columns", () => {
    expect(legendText("list", "teammates", { width: 120 })).toBe("↑↓ move · Enter detail · s send · a interrupt · t transcript · x stop · c compact · Tab page · q close");
    const short = legendText("list", "teammates", { width: 80 });
    expect(short).toBe("s send · a interrupt · t transcript · x stop · c compact · Tab page · q close");
    expect(short.length + 1).toBeLessThanOrEqual(80);
  });

  it("offers no s, a, x or c while a stopped teammate is selected", () => {
    const c = makeConsole();
    expect(c.screen(120).at(-1)).toContain("s send");
    c.press(KEY.end, "k"); // @grace, stopped
    const legend = c.screen(120).at(-1)!;
    expect(legend).toContain("t transcript");
    for (const key of ["s send", "a interrupt", "x stop", "c compact"]) expect(legend).not.toContain(key);
  });
});
