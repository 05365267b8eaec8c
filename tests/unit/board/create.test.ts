import { describe, expect, it } from "vitest";
import { claimTask, createTask, type Effect } from "../../../src/board/index.ts";
import { add, expectReason, finish, mate, newBoard, status, take } from "./fixture.ts";

const alice = mate("alice");

describe("createTask validation (R34, R40)", () => {
  it("rejects an empty subject", () => {
    expectReason(createTask(newBoard(), { subject: "   " }, 1), "invalid_input", "subject");
  });

  it("rejects unknown references, naming every unknown id", () => {
    const board = newBoard();
    add(board, "A");
    const r = createTask(board, { subject: "B", dependsOn: ["a", "nope"], supersedes: ["ghost"] }, 1);
    expectReason(r, "unknown_ref", "`nope`", "`ghost`");
    expect(r.ok ? "" : r.message).not.toContain("`a`");
    expect(board.tasks.size).toBe(1);
  });

  it("rejects a self dependency (the id the task would get)", () => {
    expectReason(createTask(newBoard(), { subject: "Fix auth", dependsOn: ["fix-auth"] }, 1), "self_reference", "`fix-auth`");
    expectReason(createTask(newBoard(), { subject: "Fix auth", supersedes: ["Fix-Auth"] }, 1), "self_reference", "`fix-auth`");
  });

  it("rejects depending on and superseding the same task", () => {
    const board = newBoard();
    add(board, "Old");
    expectReason(createTask(board, { subject: "New", dependsOn: ["old"], supersedes: ["old"] }, 1), "depends_and_supersedes", "`old`");
  });

  it("rejects superseding a completed task", () => {
    const board = newBoard();
    add(board, "Old");
    take(board, alice, "old");
    finish(board, alice, "old");
    expectReason(createTask(board, { subject: "New", supersedes: ["old"] }, 1), "supersede_completed", "`old`");
  });

  it("rejects superseding twice and depending on superseded work", () => {
    const board = newBoard();
    add(board, "Old");
    add(board, { subject: "New", supersedes: ["old"] });
    expectReason(createTask(board, { subject: "Newer", supersedes: ["old"] }, 1), "already_superseded", "`old`", "`new`");
    expectReason(createTask(board, { subject: "Later", dependsOn: ["old"] }, 1), "superseded_dependency", "`old`", "`new`");
  });

  it("rejects bad resource tags", () => {
    expectReason(createTask(newBoard(), { subject: "X", resources: ["../etc"] }, 1), "invalid_resource", '"../etc"');
  });

  it("rejects a cycle closed by re-pointing, naming the path", () => {
    const board = newBoard();
    add(board, "S");
    add(board, { subject: "D", dependsOn: ["s"] });
    expectReason(createTask(board, { subject: "X", dependsOn: ["d"], supersedes: ["s"] }, 1), "cycle", "`x` → `d` → `x`", "`s`");
    expect(board.tasks.size).toBe(2);
    expect(status(board, "s")).toBe("pending");
  });

  it("finds longer cycles", () => {
    const board = newBoard();
    add(board, "S");
    add(board, { subject: "D1", dependsOn: ["s"] });
    add(board, { subject: "D2", dependsOn: ["d1"] });
    add(board, { subject: "D3", dependsOn: ["d2"] });
    expectReason(createTask(board, { subject: "X", dependsOn: ["d3"], supersedes: ["s"] }, 1), "cycle", "`x` → `d3` → `d2` → `d1` → `x`");
  });

  it("sees no cycle through a claimed path or unrelated dependents", () => {
    const board = newBoard();
    add(board, "S");
    add(board, "Base");
    add(board, { subject: "D", dependsOn: ["base"] });
    add(board, { subject: "E", dependsOn: ["s"] });
    const r = createTask(board, { subject: "X", dependsOn: ["d"], supersedes: ["s"] }, 1);
    expect(r.ok).toBe(true);
    expect(board.tasks.get("e")?.dependsOn).toEqual(["x"]);
  });
});

describe("createTask effects", () => {
  it("adds a pending task, dedupes and lower-cases ids, and persists", () => {
    const board = newBoard();
    add(board, "A");
    const r = createTask(board, { subject: " B ", dependsOn: ["A", "a", " a "], resources: ["./x/", "x"] }, 5);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.task).toMatchObject({ id: "b", subject: "B", dependsOn: ["a"], resources: ["x"], state: { status: "pending" }, createdAt: 5 });
    expect(r.effects).toEqual([{ type: "persist", revision: board.revision }]);
  });

  it("supersedes a pending task and re-points its pending dependents only", () => {
    const board = newBoard();
    add(board, "Old");
    add(board, { subject: "Dep", dependsOn: ["old"] });
    const r = createTask(board, { subject: "New", supersedes: ["old"] }, 9);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(board.tasks.get("old")?.state).toEqual({ status: "superseded", by: "new", supersededAt: 9 });
    expect(r.repointed).toEqual([{ taskId: "dep", from: "old", to: "new" }]);
    expect(board.tasks.get("dep")?.dependsOn).toEqual(["new"]);
  });

  it("keeps a live holder's lock and tells it; an in-review task gets its reviewer aborted", () => {
    const board = newBoard();
    add(board, { subject: "Old", resources: ["api"], verify: "tests pass" });
    take(board, alice, "old");
    const submitted = finish(board, alice, "old");
    const token = submitted.effects.find((e): e is Extract<Effect, { type: "start_reviewer" }> => e.type === "start_reviewer")?.token;
    const r = createTask(board, { subject: "New", supersedes: ["old"] }, 9);
    if (!r.ok) throw new Error(r.message);
    expect(r.effects.map((e) => e.type)).toEqual(["abort_reviewer", "tell_holder", "persist"]);
    expect(r.effects[0]).toMatchObject({ token, reason: "superseded" });
    expect(r.effects[1]).toMatchObject({ to: alice, about: "superseded", taskId: "old" });
    expect(board.tasks.get("old")?.state).toMatchObject({ status: "superseded", holder: alice });
    add(board, { subject: "Other", resources: ["api/x"] });
    const bob = mate("bob");
    expectReason(claimTask(board, { holder: { ...bob, hasAssignment: false }, taskId: "other" }, 10), "resource_conflict", "`api`", "@alice");
  });
});
