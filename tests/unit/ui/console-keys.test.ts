import { describe, expect, it } from "vitest";
import type { ConsoleSnapshot } from "../../../src/ui/console-model.ts";
import { fixtureSnapshot, KEY, makeConsole, settle } from "./fixture.ts";

function selected(lines: readonly string[]): string {
  return lines.find((l) => l.startsWith("▸")) ?? "";
}

function statusLine(lines: readonly string[]): string {
  return lines[lines.length - 2] ?? "";
}

describe("TeamConsole keys: list", () => {
  it("down/j and up/k move the selection marker; Home/End jump", () => {
    const c = makeConsole();
    expect(selected(c.screen())).toContain("@scout");
    c.press(KEY.down);
    expect(selected(c.screen())).toContain("@alice");
    c.press("j");
    expect(selected(c.screen())).toContain("@bob");
    c.press("k");
    expect(selected(c.screen())).toContain("@alice");
    c.press(KEY.up, KEY.up);
    expect(selected(c.screen())).toContain("@scout");
    c.press(KEY.end);
    expect(selected(c.screen())).toContain("@研究者");
    c.press(KEY.home);
    expect(selected(c.screen())).toContain("@scout");
  });

  it("PgDn/PgUp move by the visible height and the window follows the selection", () => {
    const c = makeConsole({ rows: 8 }); // header, titles, 4 rows, status, legend
    c.press(KEY.pageDown);
    const after = c.screen();
    expect(selected(after)).toContain("@dave");
    expect(after.join("\n")).not.toContain("@scout");
    c.press(KEY.pageDown, KEY.pageDown);
    expect(selected(c.screen())).toContain("@研究者");
    c.press(KEY.pageUp);
    expect(selected(c.screen())).toContain("@dave");
  });

  it("Tab and Shift+Tab cycle teammates → roles → board → mail", () => {
    const c = makeConsole();
    const tab = (): string => (c.screen()[0] ?? "").match(/\[(\w+) \d+\]/)?.[1] ?? "";
    expect(tab()).toBe("Teammates");
    c.press(KEY.tab);
    expect(tab()).toBe("Roles");
    c.press(KEY.tab, KEY.tab);
    expect(tab()).toBe("Mail");
    c.press(KEY.tab);
    expect(tab()).toBe("Teammates");
    c.press(KEY.shiftTab);
    expect(tab()).toBe("Mail");
  });

  it("Enter opens the detail, PgDn scrolls it, Esc returns to the list with the same selection", () => {
    const c = makeConsole({ rows: 10 });
    c.press("j", KEY.enter);
    const top = c.screen();
    expect(top[1]).toContain("@alice · role worker");
    c.press(KEY.pageDown);
    const scrolled = c.screen();
    expect(scrolled[1]).not.toContain("@alice · role worker");
    expect(scrolled.at(-1)).toMatch(/ 8-14\/\d+/);
    c.press("k");
    expect(c.screen().at(-1)).toMatch(/ 7-13\/\d+/);
    c.press(KEY.home);
    expect(c.screen()[1]).toContain("@alice · role worker");
    c.press(KEY.esc);
    expect(selected(c.screen())).toContain("@alice");
    expect(c.done).not.toHaveBeenCalled();
    c.press(KEY.enter, "q");
    expect(selected(c.screen())).toContain("@alice");
  });

  it("PgDn in a detail or the picker steps a whole page before their first frame (keys pasted at once)", () => {
    const c = makeConsole({ rows: 10 });
    c.press("j", KEY.enter, KEY.pageDown);
    expect(c.screen().at(-1)).toMatch(/ 8-14\/\d+/);
    const stepped = makeConsole({ rows: 10 });
    stepped.press("m");
    stepped.screen();
    stepped.press(KEY.pageDown);
    const pasted = makeConsole({ rows: 10 });
    pasted.press("m", KEY.pageDown);
    expect(selected(pasted.screen())).toBe(selected(stepped.screen()));
    expect(selected(pasted.screen())).not.toContain("Pi default");
  });

  it("q, Esc and Ctrl+C close through done with the last status line; input after done is ignored", async () => {
    for (const key of ["q", KEY.esc, KEY.ctrlC]) {
      const c = makeConsole();
      c.press("x", "y");
      await settle();
      c.press(key);
      expect(c.done).toHaveBeenCalledTimes(1);
      expect(c.done).toHaveBeenCalledWith("Shut down @scout.");
      const renders = c.tui.requestRender.mock.calls.length;
      c.press("j", "x", "y", "q", KEY.enter);
      await settle();
      expect(c.done).toHaveBeenCalledTimes(1);
      expect(c.actions.shutdown).toHaveBeenCalledTimes(1);
      expect(c.tui.requestRender).toHaveBeenCalledTimes(renders);
    }
    const fresh = makeConsole();
    fresh.press("q");
    expect(fresh.done).toHaveBeenCalledWith(undefined);
  });

  it("an action still running at closing gives its result later, once, through lateResult", async () => {
    const c = makeConsole();
    let finish!: (line: string) => void;
    c.actions.compact.mockImplementation(() => new Promise<string>((r) => (finish = r)));
    c.press(KEY.down, KEY.down, "c", "y"); // bob, idle
    await settle();
    c.press("q");
    expect(c.done).toHaveBeenCalledWith("Compacting @bob's context…");
    expect(c.late).not.toHaveBeenCalled();
    finish("@bob compaction failed: no model");
    await settle();
    expect(c.late).toHaveBeenCalledTimes(1);
    expect(c.late).toHaveBeenCalledWith("@bob compaction failed: no model", "success");
    const quick = makeConsole();
    quick.press("x", "y");
    await settle();
    quick.press("q");
    expect(quick.late).not.toHaveBeenCalled(); // its result was in the closing notice
  });

  it("the notice at closing is the last action's result, never a hint or a cancelled question", async () => {
    const hinted = makeConsole();
    hinted.press(KEY.tab, "x", KEY.shiftTab, "x", "n");
    expect(hinted.screen().join("\n")).toContain("Cancelled.");
    hinted.press("q");
    expect(hinted.done).toHaveBeenCalledWith(undefined);
    const acted = makeConsole();
    acted.press("x", "y");
    await settle();
    acted.press(KEY.tab, "x", KEY.shiftTab, "x", "n", KEY.esc);
    expect(acted.done).toHaveBeenCalledWith("Shut down @scout.");
  });
});

describe("TeamConsole keys: teammate actions", () => {
  it("x then y shuts the selected teammate down exactly once and shows the result", async () => {
    const c = makeConsole();
    c.press("j", "x");
    expect(statusLine(c.screen())).toContain("Shut down @alice? y/n");
    c.press("y");
    expect(statusLine(c.screen())).toContain("Shutting down @alice…");
    await settle();
    expect(c.actions.shutdown).toHaveBeenCalledTimes(1);
    expect(c.actions.shutdown).toHaveBeenCalledWith("alice");
    expect(statusLine(c.screen())).toContain("Shut down @alice.");
    c.press("y");
    await settle();
    expect(c.actions.shutdown).toHaveBeenCalledTimes(1);
  });

  it("x then n (or Esc) cancels", async () => {
    const c = makeConsole();
    c.press("x", "n", "x", KEY.esc);
    await settle();
    expect(c.actions.shutdown).not.toHaveBeenCalled();
    expect(statusLine(c.screen())).toContain("Cancelled.");
    expect(c.done).not.toHaveBeenCalled();
  });

  it("c then y compacts the selected teammate", async () => {
    const c = makeConsole();
    c.press("j", "j", "c");
    expect(statusLine(c.screen())).toContain("Compact @bob's context? y/n");
    c.press("y");
    await settle();
    expect(c.actions.compact).toHaveBeenCalledTimes(1);
    expect(c.actions.compact).toHaveBeenCalledWith("bob");
    expect(statusLine(c.screen())).toContain("Compacted @bob");
  });

  it("on a stopped teammate x and c say it is not living and call nothing", async () => {
    const c = makeConsole();
    c.press(KEY.end, "k", "k", "x"); // @frank, stopped (exit 137)
    expect(statusLine(c.screen())).toContain("@frank is not living (stopped (exit 137))");
    c.press("y", "c", "y");
    await settle();
    expect(c.actions.shutdown).not.toHaveBeenCalled();
    expect(c.actions.compact).not.toHaveBeenCalled();
  });

  it("a rejected action shows its error message", async () => {
    const c = makeConsole();
    c.actions.shutdown.mockRejectedValueOnce(new Error("@scout did not stop within 5s"));
    c.press("x", "y");
    await settle();
    expect(statusLine(c.screen())).toContain("@scout did not stop within 5s");
  });

  it("CSI-u encoded keys work (Kitty keyboard protocol)", async () => {
    const c = makeConsole();
    c.press("\x1b[106u", "\x1b[120u"); // j, x
    expect(statusLine(c.screen())).toContain("Shut down @alice? y/n");
    c.press("\x1b[121u"); // y
    await settle();
    expect(c.actions.shutdown).toHaveBeenCalledWith("alice");
  });
});

describe("TeamConsole keys: model picker", () => {
  it("m, typing filters, Enter sets the chosen model", async () => {
    const c = makeConsole();
    c.press("m", "h", "a", "i", "k");
    const s = c.screen().join("\n");
    expect(s).toContain("> haik");
    expect(selected(c.screen())).toContain("anthropic/claude-haiku-4");
    expect(s).not.toContain("openai/gpt-5");
    c.press(KEY.enter);
    await settle();
    expect(c.actions.setTeamModel).toHaveBeenCalledWith({ provider: "anthropic", id: "claude-haiku-4" });
    expect(statusLine(c.screen())).toContain("Team model set to anthropic/claude-haiku-4.");
  });

  it("the first entry is Pi default and gives undefined; down moves to the first model", async () => {
    const c = makeConsole({ page: "mail" });
    c.press("m");
    expect(selected(c.screen())).toContain("Pi default");
    c.press(KEY.enter);
    await settle();
    expect(c.actions.setTeamModel).toHaveBeenCalledWith(undefined);
    c.press("m", KEY.down, KEY.enter);
    await settle();
    expect(c.actions.setTeamModel).toHaveBeenLastCalledWith({ provider: "anthropic", id: "claude-sonnet-4" });
  });

  it("typing q, x, j or Tab goes to the filter: nothing closes, nothing else happens; Esc goes back", async () => {
    const c = makeConsole();
    c.press("m", "q", "x", "j", KEY.tab, "y");
    await settle();
    expect(c.done).not.toHaveBeenCalled();
    expect(c.actions.shutdown).not.toHaveBeenCalled();
    expect(c.screen().join("\n")).toContain("> qxj");
    expect(c.screen().join("\n")).toContain("No matching models.");
    c.press(KEY.enter);
    await settle();
    expect(c.actions.setTeamModel).not.toHaveBeenCalled();
    c.press(KEY.esc);
    expect(c.screen()[0]).toContain("[Teammates 9]");
    expect(selected(c.screen())).toContain("@scout");
    expect(c.done).not.toHaveBeenCalled();
  });

  it("passes focus down to the input (its cursor marker shows only while focused)", () => {
    const c = makeConsole();
    c.press("m");
    expect(c.console.render(80).join("")).not.toContain("\x1b_pi:c");
    c.console.focused = true;
    c.press("a");
    expect(c.console.focused).toBe(true);
    expect(c.console.render(80).join("")).toContain("\x1b_pi:c");
  });

  it("a mode opened while the console has focus shows its cursor at once (picker, composer, form)", () => {
    for (const open of [["m"], ["s"], [KEY.tab, KEY.tab, "n"]]) {
      const c = makeConsole();
      c.console.focused = true;
      c.press(...open);
      expect(c.console.render(80).join(""), open.join(" ")).toContain("\x1b_pi:c");
    }
  });
});

describe("TeamConsole refresh", () => {
  it("re-reads the snapshot only on refresh, keeps the selection by key and asks for a render", () => {
    let snap: ConsoleSnapshot = fixtureSnapshot();
    const c = makeConsole({ snapshot: () => snap });
    c.screen();
    c.screen(60);
    expect(c.snapshot).toHaveBeenCalledTimes(1);
    c.press("j", "j"); // @bob
    snap = { ...snap, now: snap.now + 60_000, teammates: [...snap.teammates].reverse() };
    const before = c.tui.requestRender.mock.calls.length;
    c.console.refresh();
    expect(c.snapshot).toHaveBeenCalledTimes(2);
    expect(c.tui.requestRender.mock.calls.length).toBe(before + 1);
    const lines = c.screen();
    expect(selected(lines)).toContain("@bob");
    expect(selected(lines)).toContain("idle 4m");
    expect(lines[2]).toContain("@研究者");
  });

  it("caches the frame per size and state", () => {
    const c = makeConsole();
    const a = c.console.render(80);
    expect(c.console.render(80)).toBe(a);
    expect(c.console.render(81)).not.toBe(a);
    c.press("j");
    expect(c.console.render(80)).not.toBe(a);
    c.tui.terminal.rows = 12;
    expect(c.console.render(80)).toHaveLength(12);
  });

  it("an open detail follows its row across refreshes; a selection whose row vanished stays in place", () => {
    let snap: ConsoleSnapshot = fixtureSnapshot();
    const c = makeConsole({ snapshot: () => snap });
    c.press("j", KEY.enter);
    snap = { ...snap, teammates: snap.teammates.map((t) => (t.name === "alice" ? { ...t, activity: "NEW-ACTIVITY" } : t)) };
    c.console.refresh();
    expect(c.screen().join("\n")).toContain("activity: NEW-ACTIVITY");
    c.press(KEY.esc);
    snap = { ...snap, teammates: snap.teammates.filter((t) => t.name !== "alice") };
    c.console.refresh();
    expect(selected(c.screen())).toContain("@bob");
  });
});
