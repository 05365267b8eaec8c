import { describe, expect, it } from "vitest";
import { renderTaskList, type RosterRow } from "../../../src/board/index.ts";
import { add, mate, newBoard, take } from "./fixture.ts";

const roster: RosterRow[] = [
  { name: "alice", status: "working", agent: "worker", model: "faux/m", assignment: "Review auth" },
  { name: "bob", status: "idle", agent: "worker" },
  ...Array.from({ length: 10 }, (_, i) => ({ name: `w${i}`, status: "idle" })),
];

describe("renderTaskList (R46)", () => {
  it("leader view: counts, tasks with their state, and the full roster", () => {
    const board = newBoard();
    add(board, { subject: "A", resources: ["api"] });
    add(board, { subject: "B", dependsOn: ["a"] });
    take(board, mate("alice"), "a");
    const text = renderTaskList(board, { audience: "leader", roster, boardLabel: "/x/board.json" });
    expect(text).toContain("Board /x/board.json: 2 tasks (1 claimed, 1 pending).");
    expect(text).toContain("- `a` [claimed] A · by @alice · resources: api");
    expect(text).toContain("- `b` [pending] B · waits for a");
    expect(text).toContain("Roster (12):");
    expect(text).toContain("@alice · working · agent worker · model faux/m · assignment: Review auth");
    expect(text).toContain("@w9 · idle");
  });

  it("worker view: same task lines, own tasks marked, a bounded peers tail without self", () => {
    const board = newBoard();
    add(board, "A");
    take(board, mate("alice"), "a");
    const text = renderTaskList(board, { audience: "worker", self: "alice", roster });
    expect(text).toContain("- `a` [claimed] A · by @alice (you)");
    expect(text).toContain("Peers (send_message to reach them), last 8 of 11:");
    expect(text).not.toContain("- @alice");
    expect(text).not.toContain("Roster (");
    expect(text).toContain("@w9 · idle");
    expect(text).not.toContain("@bob");
  });

  it("bounds large boards to a page plus counts, with the next offset", () => {
    const board = newBoard();
    for (let i = 0; i < 500; i++) add(board, `Task ${i}`);
    const text = renderTaskList(board, { audience: "leader", roster: [] });
    expect(text.split("\n").filter((l) => l.startsWith("- `"))).toHaveLength(50);
    expect(text).toContain("Showing tasks 1–50 of 500. Call task_list({ offset: 50 }) for more.");
    const last = renderTaskList(board, { audience: "leader", roster: [], offset: 480 });
    expect(last).toContain("Showing tasks 481–500 of 500.");
    expect(last).toContain("`task-499`");
    expect(text).toContain("Roster: no teammates. Call teammate_spawn");
  });

  it("an empty board says so", () => {
    expect(renderTaskList(newBoard(), { audience: "leader", roster: [] })).toContain("No tasks yet. Add one with task_create.");
  });
});
