import { describe, expect, it } from "vitest";
import { TeamBus } from "../../../src/team/bus.ts";

const holder = { name: "ada", spawnId: "ada-1" };

describe("TeamBus", () => {
  it("calls the listeners of a signal's type only, synchronously and in subscription order", () => {
    const bus = new TeamBus();
    const heard: string[] = [];
    bus.on("tell", ({ text }) => heard.push(`first ${text}`));
    bus.on("board_changed", () => heard.push("changed"));
    bus.on("tell", ({ to, text }) => heard.push(`second ${text} to ${to.name}`));
    bus.emit({ type: "tell", to: holder, text: "notice" });
    expect(heard).toEqual(["first notice", "second notice to ada"]);
  });

  it("stops calling a listener once unsubscribed", () => {
    const bus = new TeamBus();
    let calls = 0;
    const off = bus.on("board_changed", () => (calls += 1));
    bus.emit({ type: "board_changed" });
    off();
    bus.emit({ type: "board_changed" });
    expect(calls).toBe(1);
  });

  it("isolates a listener's throw: later listeners still run, the emitter never sees it, and it is reported as a note", () => {
    const bus = new TeamBus(() => 42);
    const notes: Array<{ at: number; text: string }> = [];
    const heard: string[] = [];
    bus.on("note", ({ note }) => notes.push({ at: note.at, text: note.text }));
    bus.on("tell", () => {
      throw new Error("boom");
    });
    bus.on("tell", ({ text }) => heard.push(text));
    expect(() => bus.emit({ type: "tell", to: holder, text: "after" })).not.toThrow();
    expect(heard).toEqual(["after"]);
    expect(notes).toEqual([{ at: 42, text: "tell listener failed: boom" }]);
  });

  it("drops the throw of a note listener instead of noting it (no note about a note)", () => {
    const bus = new TeamBus();
    let calls = 0;
    bus.on("note", () => {
      calls += 1;
      throw new Error("note listener down");
    });
    expect(() => bus.emit({ type: "note", note: { at: 1, text: "x" } })).not.toThrow();
    expect(calls).toBe(1);
  });
});
