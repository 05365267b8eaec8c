import { describe, expect, it } from "vitest";
import { allowResubmit, gateOutcome, RESULT_PREVIEW, renderTaskDetail, renderTaskList, resultPreview, submitTask, type RosterRow } from "../../../src/board/index.ts";
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

describe("task_list results (issue 6)", () => {
  function completedWith(result: string) {
    const board = newBoard();
    add(board, "Write report");
    take(board, mate("alice"), "write-report");
    submitTask(board, { holder: mate("alice"), taskId: "write-report", status: "completed", result }, 3_000);
    return board;
  }

  it("shows a short result of a completed task on its line, whole and without a hint", () => {
    const text = renderTaskList(completedWith("All 3 routes patched."), { audience: "leader", roster: [] });
    expect(text).toContain("- `write-report` [completed] Write report · by @alice · result: All 3 routes patched.");
    expect(text).not.toContain("full result");
  });

  it("bounds a long or multi-line result to one line of at most 200 chars with an ellipsis and a hint", () => {
    const long = `Line one\n\n  line two\t${"x".repeat(5_000)}`;
    const text = renderTaskList(completedWith(long), { audience: "worker", self: "bob", roster: [] });
    const line = text.split("\n").find((l) => l.startsWith("- `write-report`"))!;
    const preview = /result: (.*) \(full result: task_list\(\{ taskId: "write-report" \}\)\)$/.exec(line)?.[1];
    expect(preview).toBeDefined();
    expect(preview!.length).toBeLessThanOrEqual(RESULT_PREVIEW);
    expect(preview!.endsWith("…")).toBe(true);
    expect(preview!.startsWith("Line one line two xxx")).toBe(true);
  });

  it("resultPreview cuts at the bound and says so", () => {
    expect(resultPreview("a\nb")).toEqual({ text: "a b", cut: false });
    expect(resultPreview("abcdef", 4)).toEqual({ text: "abc…", cut: true });
    expect(resultPreview("x".repeat(RESULT_PREVIEW)).cut).toBe(false);
  });

  it("task_list({ taskId }) shows the whole result and the task's details", () => {
    const long = `HEAD\n${"y".repeat(3_000)}\nTAIL`;
    const board = completedWith(long);
    const r = renderTaskDetail(board, "  Write-Report ");
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.text).toContain("Task `write-report`: Write report");
    expect(r.text).toContain("Status: completed by @alice");
    expect(r.text).toContain(long);
  });

  it("an unknown id is not_found, naming it and listing the ids that exist", () => {
    const board = completedWith("ok");
    add(board, "Second");
    const r = renderTaskDetail(board, "nope");
    expect(r).toMatchObject({ ok: false, reason: "not_found" });
    if (r.ok) return;
    expect(r.message).toContain('no task "nope"');
    expect(r.message).toContain("`write-report`, `second`");
    const empty = renderTaskDetail(newBoard(), "x");
    expect(!empty.ok && empty.message).toContain("no tasks yet");
    const many = newBoard();
    for (let i = 0; i < 30; i++) add(many, `T ${i}`);
    const capped = renderTaskDetail(many, "zzz");
    expect(!capped.ok && capped.message).toContain("the newest 20 of 30");
    expect(!capped.ok && capped.message).toContain("`t-29`");
    expect(!capped.ok && capped.message).not.toContain("`t-0`,");
  });

  it("a parked task says whether the leader allowed one more attempt", () => {
    const board = newBoard();
    add(board, { subject: "Gated", verify: "ok" });
    take(board, mate("alice"), "gated");
    for (const n of [1, 2]) {
      const r = submitTask(board, { holder: mate("alice"), taskId: "gated", status: "completed", result: `try ${n}` }, n);
      const start = r.effects.find((e) => e.type === "start_reviewer");
      gateOutcome(board, { token: start?.type === "start_reviewer" ? start.token : "", text: "VERDICT: FAIL - no" }, n);
    }
    expect(renderTaskList(board, { audience: "leader", roster: [] })).toContain("[parked] Gated · by @alice · 2 failed reviews · waits for the leader");
    allowResubmit(board, mate("alice"), 9);
    expect(renderTaskList(board, { audience: "leader", roster: [] })).toContain("2 failed reviews · one more attempt allowed");
    const detail = renderTaskDetail(board, "gated");
    expect(detail.ok && detail.text).toContain("The leader allowed one more attempt");
    expect(detail.ok && detail.text).toContain("try 2");
  });
});
