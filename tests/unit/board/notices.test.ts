import { describe, expect, it } from "vitest";
import {
  DEFAULT_NOTICE_PACE_MS,
  NOTICED_CAP,
  createNoticeBook,
  offerRefusal,
  planNotices,
  resolveNoticePace,
  type Board,
  type NoticeBook,
  type NoticeTeammate,
} from "../../../src/board/index.ts";
import { add, finish, mate, newBoard, take } from "./fixture.ts";

const idle = (name: string, spawnId = `${name}-1`): NoticeTeammate => ({ name, spawnId, idle: true, hasAssignment: false });
const busy = (name: string): NoticeTeammate => ({ ...idle(name), idle: false });
const MIN = 60_000;

function plan(board: Board, book: NoticeBook, teammates: NoticeTeammate[], now: number, extra: { synchronous?: boolean; paceMs?: number; onlyTaskIds?: string[]; assignments?: { name: string; resources: string[] }[]; direct?: { to: string[] } } = {}) {
  return planNotices(board, book, { teammates, now, ...extra });
}

describe("planNotices: the user's direct offer (issue 21)", () => {
  it("tells the chosen teammate alone, past the pace, past an offer to another and past its own earlier notice", () => {
    const board = newBoard();
    const book = createNoticeBook();
    add(board, "A");
    expect(plan(board, book, [idle("alice"), idle("bob")], 0).notified).toEqual(["alice"]); // a is outstanding with alice
    plan(board, book, [idle("alice"), idle("bob")], 1); // bob: nothing left for him
    const direct = { synchronous: true, onlyTaskIds: ["a"], direct: { to: ["bob"] } };
    const offered = plan(board, book, [idle("alice"), idle("bob")], 2, direct);
    expect(offered.notified).toEqual(["bob"]);
    expect(offered.effects[0]).toMatchObject({ to: { name: "bob" }, taskIds: ["a"], synchronous: true });
    // Offered again at once, though bob was just told of it in this epoch.
    expect(plan(board, book, [idle("alice"), idle("bob")], 3, direct).notified).toEqual(["bob"]);
  });

  it("tells nobody when the chosen teammate is working, holds work, or the task cannot be claimed now", () => {
    const board = newBoard();
    const book = createNoticeBook();
    add(board, "A");
    add(board, { subject: "B", dependsOn: ["a"] });
    const direct = (ids: string[], to: string) => ({ synchronous: true, onlyTaskIds: ids, direct: { to: [to] } });
    expect(plan(board, book, [busy("bob")], 0, direct(["a"], "bob")).effects).toEqual([]);
    expect(plan(board, book, [idle("bob")], 0, direct(["b"], "bob")).effects).toEqual([]); // waits for a
    take(board, mate("bob"), "a");
    expect(plan(board, book, [idle("bob")], 0, direct(["a"], "bob")).effects).toEqual([]);
  });
});

describe("offerRefusal: why a direct offer woke nobody", () => {
  it("names the task's status, a working teammate, one holding work, else why the task waits", () => {
    const board = newBoard();
    const a = add(board, "A");
    const b = add(board, { subject: "B", dependsOn: ["a"] });
    expect(offerRefusal(board, b, idle("bob"), "waits for `a` (pending)")).toBe("waits for `a` (pending)");
    expect(offerRefusal(board, b, idle("bob"), undefined)).toBe("it cannot be claimed now");
    expect(offerRefusal(board, b, busy("bob"), undefined)).toBe("@bob is working");
    expect(offerRefusal(board, b, { ...idle("bob"), hasAssignment: true }, undefined)).toBe("@bob holds other work");
    take(board, mate("bob"), "a");
    expect(offerRefusal(board, a, idle("bob"), undefined)).toBe("it is claimed");
    expect(offerRefusal(board, b, idle("bob"), undefined)).toBe("@bob holds other work");
  });
});

describe("planNotices (R36, R54, L11)", () => {
  it("tells an idle teammate once about a claimable task", () => {
    const board = newBoard();
    const book = createNoticeBook();
    add(board, "A");
    const first = plan(board, book, [idle("alice")], 0);
    expect(first.notified).toEqual(["alice"]);
    expect(first.effects[0]).toMatchObject({ type: "notify_teammate", to: { name: "alice", spawnId: "alice-1" }, taskIds: ["a"], synchronous: false });
    expect(plan(board, book, [idle("alice")], 10 * MIN).effects).toEqual([]);
  });

  it("a declined task never wakes the teammate again; a released one re-arms once", () => {
    const board = newBoard();
    const book = createNoticeBook();
    add(board, "A");
    plan(board, book, [idle("alice")], 0);
    expect(plan(board, book, [idle("alice")], 60 * MIN).effects).toEqual([]);
    const bob = mate("bob");
    take(board, bob, "a");
    finish(board, bob, "a", "failed");
    const rearmed = plan(board, book, [idle("alice"), busy("bob")], 61 * MIN);
    expect(rearmed.effects).toHaveLength(1);
    expect(rearmed.effects[0]).toMatchObject({ to: { name: "alice" }, taskIds: ["a"] });
    expect(plan(board, book, [idle("alice")], 200 * MIN).effects).toEqual([]);
  });

  it("paces notices per teammate; the synchronous create notice ignores the pace", () => {
    const board = newBoard();
    const book = createNoticeBook();
    add(board, "A");
    plan(board, book, [idle("alice")], 0);
    add(board, "B");
    expect(plan(board, book, [idle("alice")], DEFAULT_NOTICE_PACE_MS - 1).effects).toEqual([]);
    expect(plan(board, book, [idle("alice")], DEFAULT_NOTICE_PACE_MS).effects[0]).toMatchObject({ taskIds: ["b"] });
    add(board, "C");
    const sync = plan(board, book, [idle("alice")], DEFAULT_NOTICE_PACE_MS + 1, { synchronous: true, onlyTaskIds: ["c"] });
    expect(sync.effects[0]).toMatchObject({ taskIds: ["c"], synchronous: true });
    expect(plan(board, book, [idle("alice")], DEFAULT_NOTICE_PACE_MS + 2, { paceMs: 0 }).effects).toEqual([]);
  });

  it("never notices busy, assigned or holding teammates", () => {
    const board = newBoard();
    const book = createNoticeBook();
    add(board, "A");
    add(board, "B");
    take(board, mate("carol"), "b");
    const r = plan(board, book, [busy("alice"), { ...idle("bob"), hasAssignment: true }, idle("carol")], 0);
    expect(r.effects).toEqual([]);
  });

  it("skips tasks overlapping an active assignment or holding", () => {
    const board = newBoard();
    const book = createNoticeBook();
    add(board, { subject: "A", resources: ["api/auth"] });
    add(board, { subject: "B", resources: ["web"] });
    add(board, { subject: "C", resources: ["api/authz"] });
    take(board, mate("dave"), "b");
    add(board, { subject: "D", resources: ["web/css"] });
    const r = plan(board, book, [idle("alice")], 0, { assignments: [{ name: "erin", resources: ["api"] }] });
    expect(r.effects).toEqual([]);
    const later = plan(board, book, [idle("alice")], 0, { assignments: [{ name: "erin", resources: ["api/auth"] }] });
    expect(later.effects[0]).toMatchObject({ taskIds: ["c"] });
  });

  it("an idle team with nothing claimable gets no effect", () => {
    const board = newBoard();
    add(board, "A");
    add(board, { subject: "B", dependsOn: ["a"] });
    take(board, mate("zed"), "a");
    expect(plan(board, createNoticeBook(), [idle("alice"), idle("bob")], 0)).toEqual({ effects: [], notified: [] });
  });

  it("shares tasks out instead of broadcasting, longest-unnoticed teammate first", () => {
    const board = newBoard();
    const book = createNoticeBook();
    add(board, "A");
    add(board, "B");
    add(board, "C");
    const r = plan(board, book, [idle("bob"), idle("alice")], 0);
    expect(r.effects.map((e) => e.type === "notify_teammate" && [e.to.name, e.taskIds])).toEqual([
      ["alice", ["a", "c"]],
      ["bob", ["b"]],
    ]);
  });

  it("a task offered to a teammate still busy with the notice is not offered to another; declining passes it on", () => {
    const board = newBoard();
    const book = createNoticeBook();
    add(board, "A");
    plan(board, book, [idle("alice"), busy("bob")], 0);
    expect(plan(board, book, [busy("alice"), idle("bob")], 1).effects).toEqual([]);
    const passed = plan(board, book, [idle("alice"), idle("bob")], 2);
    expect(passed.effects).toHaveLength(1);
    expect(passed.effects[0]).toMatchObject({ to: { name: "bob" }, taskIds: ["a"] });
  });

  it("a respawned teammate (new spawn id) starts with a fresh memory; dead teammates are dropped", () => {
    const board = newBoard();
    const book = createNoticeBook();
    add(board, "A");
    plan(board, book, [idle("alice")], 0);
    expect(plan(board, book, [idle("alice", "alice-2")], 1).notified).toEqual(["alice"]);
    plan(board, book, [], 2);
    expect(book.size).toBe(0);
  });

  it("keeps each noticed set within the cap, pruned to claimable ids first", () => {
    const board = newBoard();
    const book = createNoticeBook();
    for (let i = 0; i < NOTICED_CAP + 40; i++) add(board, `Task ${i}`);
    for (let round = 0; round < 70; round++) plan(board, book, [idle("alice")], round * DEFAULT_NOTICE_PACE_MS);
    const noticed = book.get("alice")?.noticed;
    expect(noticed?.size).toBeLessThanOrEqual(NOTICED_CAP);
    expect(noticed?.size).toBeGreaterThan(NOTICED_CAP - 5);
  });

  it("resolveNoticePace reads PI_TEAMMATE_NOTICE_PACE_MS", () => {
    expect(resolveNoticePace(undefined)).toEqual({ paceMs: DEFAULT_NOTICE_PACE_MS });
    expect(resolveNoticePace("1000")).toEqual({ paceMs: 1000 });
    expect(resolveNoticePace("0")).toEqual({ paceMs: 0 });
    const bad = resolveNoticePace("5m");
    expect(bad.paceMs).toBe(DEFAULT_NOTICE_PACE_MS);
    expect(bad.warning).toContain('"5m"');
  });
});
