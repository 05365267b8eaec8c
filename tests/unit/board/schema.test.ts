import { describe, expect, it } from "vitest";
import {
  BOARD_FORMAT_VERSION,
  createTask,
  loadBoard,
  parseBoardFile,
  reviveBoard,
  serializeBoard,
  type Board,
  type BoardFile,
} from "../../../src/board/index.ts";
import { add, finish, mate, newBoard, status, take } from "./fixture.ts";

const alice = mate("alice");
const bob = mate("bob");

function sample(): Board {
  const board = newBoard();
  add(board, { subject: "A", resources: ["api"], description: "do it" });
  add(board, { subject: "R", verify: "works" });
  take(board, mate("rita"), "r");
  finish(board, mate("rita"), "r");
  add(board, { subject: "B", dependsOn: ["a"] });
  add(board, "Old");
  add(board, "C");
  take(board, alice, "a");
  finish(board, alice, "a");
  take(board, bob, "old");
  createTask(board, { subject: "New", supersedes: ["old"] }, 5);
  return board;
}

function parsed(text: string): BoardFile {
  const r = parseBoardFile(text);
  if (!r.ok) throw new Error(r.message);
  return r.file;
}

describe("board.json v1", () => {
  it("round-trips a board, indexes included", () => {
    const board = sample();
    const text = serializeBoard(board);
    expect(text.split("\n").length).toBeGreaterThan(board.tasks.size);
    const again = loadBoard(parsed(text));
    expect(serializeBoard(again)).toBe(text);
    expect(again.revision).toBe(board.revision);
    expect(again.index.counts).toEqual(board.index.counts);
    expect(again.index.ready.map((t) => t.id)).toEqual(board.index.ready.map((t) => t.id));
    expect([...again.index.gates]).toEqual([...board.index.gates]);
    expect(add(again, "A").id).toBe("a-2");
  });

  it("an empty board serialises and parses", () => {
    const file = parsed(serializeBoard(newBoard()));
    expect(file).toEqual({ version: BOARD_FORMAT_VERSION, revision: 0, nextSeq: 1, nextGate: 1, tasks: [] });
  });

  it.each([
    ["", "empty"],
    ["   \n", "empty"],
    ['{"version":1,"tasks":[', "corrupt_json"],
    ["null", "invalid_schema"],
    ['{"tasks":[]}', "invalid_schema"],
    ['{"version":2,"revision":0,"nextSeq":1,"nextGate":1,"tasks":[]}', "unsupported_version"],
    ['{"version":"1","revision":0,"nextSeq":1,"nextGate":1,"tasks":[]}', "unsupported_version"],
    ['{"version":1,"revision":0,"nextSeq":1,"nextGate":1,"tasks":{}}', "invalid_schema"],
  ])("never treats %j as an empty board (%s)", (text, reason) => {
    const r = parseBoardFile(text);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.reason).toBe(reason);
      expect(r.message).toContain("never overwrite");
    }
  });

  it("names the path of a schema problem", () => {
    const file = JSON.parse(serializeBoard(sample()));
    file.tasks[1].state = { status: "claimed" };
    const r = parseBoardFile(JSON.stringify(file));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain("/tasks/1/state");
  });

  it.each([
    ["duplicate ids", (f: { tasks: { id: string; seq: number; dependsOn: string[]; resources: string[] }[] }) => { f.tasks[1]!.id = f.tasks[0]!.id; }, "appears twice"],
    ["unknown dependency", (f: { tasks: { id: string; seq: number; dependsOn: string[]; resources: string[] }[] }) => { f.tasks[0]!.dependsOn = ["ghost"]; }, "`ghost`"],
    ["unnormalised resource", (f: { tasks: { id: string; seq: number; dependsOn: string[]; resources: string[] }[] }) => { f.tasks[0]!.resources = ["./api/"]; }, "./api/"],
    ["duplicate seq", (f: { tasks: { id: string; seq: number; dependsOn: string[]; resources: string[] }[] }) => { f.tasks[1]!.seq = f.tasks[0]!.seq; }, "seq"],
  ])("rejects an inconsistent file: %s", (_name, mutate, mention) => {
    const file = JSON.parse(serializeBoard(sample()));
    mutate(file);
    const r = parseBoardFile(JSON.stringify(file));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.reason).toBe("inconsistent");
      expect(r.message).toContain(mention);
    }
  });
});

describe("reviveBoard (R60)", () => {
  it("returns dead holders' claims to pending and clears dead holders of superseded tasks", () => {
    const board = sample();
    add(board, "D");
    take(board, mate("carol"), "d");
    const revived = reviveBoard(parsed(serializeBoard(board)), [mate("carol"), mate("rita")], 100);
    expect(revived.released).toEqual([]);
    expect(revived.dropped).toEqual(["old"]);
    expect(revived.board.tasks.get("old")?.state).toEqual({ status: "superseded", by: "new", supersededAt: 5 });
    expect(status(revived.board, "d")).toBe("claimed");
    const none = reviveBoard(parsed(serializeBoard(board)), [], 100);
    expect(none.released.sort()).toEqual(["d", "r"]);
    expect(none.board.tasks.get("d")?.lastError).toContain("@carol");
    expect(none.effects.at(-1)).toEqual({ type: "persist", revision: board.revision + 1 });
  });

  it("a same-name teammate with another spawn id does not keep the claim", () => {
    const board = newBoard();
    add(board, "A");
    take(board, alice, "a");
    expect(reviveBoard(parsed(serializeBoard(board)), [mate("alice", "alice-9")], 1).released).toEqual(["a"]);
  });

  it("restarts the review of a living holder with a fresh token and the same attempt", () => {
    const board = newBoard();
    add(board, { subject: "A", verify: "ok" });
    take(board, alice, "a");
    finish(board, alice, "a");
    const old = board.tasks.get("a")?.state;
    const revived = reviveBoard(parsed(serializeBoard(board)), [alice], 50);
    const state = revived.board.tasks.get("a")?.state;
    expect(state?.status).toBe("in_review");
    if (state?.status !== "in_review" || old?.status !== "in_review") return;
    expect(state.gate.token).not.toBe(old.gate.token);
    expect(state.gate.attempt).toBe(old.gate.attempt);
    expect(revived.restarted).toEqual(["a"]);
    expect(revived.effects[0]).toMatchObject({ type: "start_reviewer", token: state.gate.token, holder: alice });
  });

  it("an unchanged board revives with no effects", () => {
    const board = newBoard();
    add(board, "A");
    add(board, "B");
    take(board, bob, "a");
    const revived = reviveBoard(parsed(serializeBoard(board)), [bob], 1);
    expect(revived.effects).toEqual([]);
    expect(revived.board.revision).toBe(board.revision);
  });
});
