import { describe, expect, it } from "vitest";
import { TaskCosts, type Usage } from "../../../src/feed/task-costs.ts";
import { add, finish, mate, newBoard, take } from "../board/fixture.ts";

describe("TaskCosts: a task costs its holders' usage over their holdings plus its reviewers'", () => {
  it("counts the holder's usage from the claim to the submission, not before or after", () => {
    const board = newBoard();
    const costs = new TaskCosts();
    const usage = new Map<string, Usage>([["ada-1", { tokens: 1000, cost: 0.1 }]]);
    const of = (id: string) => usage.get(id);
    const t = add(board, "a");
    costs.observe(board, of);
    take(board, mate("ada"), t.id);
    costs.observe(board, of);
    usage.set("ada-1", { tokens: 1600, cost: 0.16 });
    expect(costs.of(t.id, of).tokens).toBe(600); // open holding, counted up to now
    finish(board, mate("ada"), t.id);
    costs.observe(board, of);
    usage.set("ada-1", { tokens: 9000, cost: 0.9 }); // later work is not this task's
    const c = costs.of(t.id, of);
    expect(c.tokens).toBe(600);
    expect(c.cost).toBeCloseTo(0.06);
  });

  it("sums two holdings by different incarnations and adds reviewers", () => {
    const board = newBoard();
    const costs = new TaskCosts();
    const usage = new Map<string, Usage>([["ada-1", { tokens: 0, cost: 0 }], ["bo-1", { tokens: 50, cost: 0 }]]);
    const of = (id: string) => usage.get(id);
    const t = add(board, "a");
    take(board, mate("ada"), t.id);
    costs.observe(board, of);
    usage.set("ada-1", { tokens: 100, cost: 0.01 });
    finish(board, mate("ada"), t.id, "failed");
    costs.observe(board, of);
    take(board, mate("bo"), t.id);
    costs.observe(board, of);
    usage.set("bo-1", { tokens: 250, cost: 0.02 });
    costs.reviewer(t.id, { tokens: 7, cost: 0.001 });
    expect(costs.of(t.id, of).tokens).toBe(100 + 200 + 7);
  });

  it("keeps the usage at the claim, not the live record it was read from (the feed updates it in place)", () => {
    const board = newBoard();
    const costs = new TaskCosts();
    const live: Usage = { tokens: 934, cost: 0.01 }; // one record, changed in place as the teammate works
    const of = (id: string) => (id === "cy-1" ? live : undefined);
    const t = add(board, "a");
    take(board, mate("cy"), t.id);
    costs.observe(board, of);
    live.tokens = 1971;
    live.cost = 0.03;
    expect(costs.of(t.id, of).tokens).toBe(1037);
    finish(board, mate("cy"), t.id);
    costs.observe(board, of);
    live.tokens = 5000;
    expect(costs.of(t.id, of)).toEqual({ tokens: 1037, cost: expect.closeTo(0.02) });
  });
});
