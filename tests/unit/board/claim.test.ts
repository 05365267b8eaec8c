import { describe, expect, it } from "vitest";
import { claimTask } from "../../../src/board/index.ts";
import { add, expectReason, finish, mate, newBoard, status, take } from "./fixture.ts";

const alice = mate("alice");
const bob = mate("bob");
const free = (h: { name: string; spawnId: string }) => ({ ...h, hasAssignment: false });

describe("claimTask (R37, R49, R50)", () => {
  it("claims the first claimable task by creation order when no id is given", () => {
    const board = newBoard();
    add(board, "A");
    add(board, { subject: "B", dependsOn: ["a"] });
    add(board, "C");
    expect(take(board, alice).id).toBe("a");
    expect(take(board, bob).id).toBe("c");
  });

  it("records holder, spawn id and claim time", () => {
    const board = newBoard();
    add(board, "A");
    const r = claimTask(board, { holder: free(alice), taskId: "A" }, 42);
    expect(r.ok && r.task.state).toEqual({ status: "claimed", holding: { holder: alice, claimedAt: 42, failures: 0, reviews: 0 } });
    expect(r.effects).toEqual([{ type: "persist", revision: board.revision }]);
  });

  it("rejects a task with unfinished dependencies, naming them with their status", () => {
    const board = newBoard();
    add(board, "A");
    add(board, "B");
    add(board, { subject: "C", dependsOn: ["a", "b"] });
    take(board, alice, "a");
    expectReason(claimTask(board, { holder: free(bob), taskId: "c" }, 1), "blocked", "`a` (claimed)", "`b` (pending)");
  });

  it("becomes claimable once its dependencies complete", () => {
    const board = newBoard();
    add(board, "A");
    add(board, { subject: "B", dependsOn: ["a"] });
    take(board, alice, "a");
    finish(board, alice, "a");
    expect(take(board, alice).id).toBe("b");
  });

  it("enforces one assignment at a time", () => {
    const board = newBoard();
    add(board, "A");
    add(board, "B");
    take(board, alice, "a");
    expectReason(claimTask(board, { holder: free(alice), taskId: "b" }, 1), "has_assignment", "@alice", "`a`");
    expectReason(claimTask(board, { holder: { ...bob, hasAssignment: true }, taskId: "b" }, 1), "has_assignment", "@bob");
  });

  it("rejects overlapping resources against holdings and direct assignments, not siblings", () => {
    const board = newBoard();
    add(board, { subject: "A", resources: ["pkg/api"] });
    add(board, { subject: "B", resources: ["pkg/api/auth"] });
    add(board, { subject: "C", resources: ["pkg/apiclient"] });
    add(board, { subject: "D", resources: ["docs"] });
    take(board, alice, "a");
    expectReason(claimTask(board, { holder: free(bob), taskId: "b" }, 1), "resource_conflict", "`pkg/api/auth`", "`pkg/api`", "@alice", "`a`");
    expect(take(board, bob, "c").id).toBe("c");
    const carol = free(mate("carol"));
    expectReason(
      claimTask(board, { holder: carol, taskId: "d", assignments: [{ name: "dave", resources: ["docs/guide"] }] }, 1),
      "resource_conflict",
      "@dave",
    );
    // The claimant's own (closed) assignment never blocks it.
    expect(claimTask(board, { holder: carol, taskId: "d", assignments: [{ name: "carol", resources: ["docs"] }] }, 1).ok).toBe(true);
  });

  it("without an id skips tasks whose resources are locked", () => {
    const board = newBoard();
    add(board, { subject: "A", resources: ["x"] });
    add(board, { subject: "B", resources: ["x/y"] });
    add(board, { subject: "C", resources: ["z"] });
    take(board, alice);
    expect(take(board, bob).id).toBe("c");
    const r = claimTask(board, { holder: free(mate("carol")) }, 1);
    expectReason(r, "none_claimable", "1 pending");
  });

  it("names the holder, completion or replacement of unclaimable tasks", () => {
    const board = newBoard();
    add(board, "A");
    add(board, "B");
    add(board, "Old");
    add(board, { subject: "New", supersedes: ["old"] });
    take(board, alice, "a");
    take(board, bob, "b");
    finish(board, bob, "b");
    const carol = free(mate("carol"));
    expectReason(claimTask(board, { holder: carol, taskId: "a" }, 1), "not_pending", "@alice");
    expectReason(claimTask(board, { holder: carol, taskId: "b" }, 1), "completed", "`b`");
    expectReason(claimTask(board, { holder: carol, taskId: "old" }, 1), "superseded", "`new`");
    expectReason(claimTask(board, { holder: carol, taskId: "zzz" }, 1), "not_found", "`zzz`");
  });

  it("eight racing claims on one task: exactly one wins, seven get the reason", () => {
    const board = newBoard();
    add(board, "Hot task");
    const results = Array.from({ length: 8 }, (_, i) => claimTask(board, { holder: free(mate(`w${i}`)), taskId: "hot-task" }, i));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    const losers = results.filter((r) => !r.ok);
    expect(losers).toHaveLength(7);
    for (const r of losers) expectReason(r, "not_pending", "@w0");
  });

  it("a released task is first again by creation order", () => {
    const board = newBoard();
    add(board, "A");
    add(board, "B");
    take(board, alice, "a");
    finish(board, alice, "a", "failed");
    expect(status(board, "a")).toBe("pending");
    expect(take(board, bob).id).toBe("a");
  });
});
