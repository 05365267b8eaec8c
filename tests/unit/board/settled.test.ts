/**
 * The board-settled rule (issue 6 item 5): one summary per settle episode, none while a
 * teammate works, none for an empty board, and again only after new work settled.
 */
import { describe, expect, it } from "vitest";
import {
  allowResubmit,
  checkSettled,
  createTask,
  gateOutcome,
  settledKey,
  SUMMARY_TASKS,
  submitTask,
  type Board,
  type Effect,
  type SettledDecision,
} from "../../../src/board/index.ts";
import { add, finish, mate, newBoard, take } from "./fixture.ts";

const alice = mate("alice");

/** The shell's loop in miniature: checks, and remembers the key of what it delivered. */
function shell(board: Board) {
  let lastKey: string | undefined;
  const fired: string[] = [];
  return {
    fired,
    check(teamWorking = false): SettledDecision {
      const d = checkSettled(board, { teamWorking, lastKey });
      if (d.kind === "settled") {
        lastKey = d.key;
        fired.push(d.text);
      }
      return d;
    },
  };
}

function complete(board: Board, id: string, result = `result of ${id}`): void {
  take(board, alice, id);
  submitTask(board, { holder: alice, taskId: id, status: "completed", result }, 3_000);
}

function tokenOf(effects: readonly Effect[]): string {
  const e = effects.find((x) => x.type === "start_reviewer");
  return e?.type === "start_reviewer" ? e.token : "";
}

describe("checkSettled", () => {
  it("never fires for an empty board", () => {
    const s = shell(newBoard());
    expect(s.check()).toEqual({ kind: "quiet", why: "no_tasks" });
    expect(settledKey(newBoard())).toBeUndefined();
  });

  it("fires once when two tasks complete, not per task and not again on re-checks", () => {
    const board = newBoard();
    add(board, "A");
    add(board, "B");
    const s = shell(board);
    expect(s.check()).toEqual({ kind: "quiet", why: "open_work" });
    complete(board, "a");
    expect(s.check()).toEqual({ kind: "quiet", why: "open_work" });
    complete(board, "b", "B is done:\nall of it");
    const d = s.check();
    expect(d.kind).toBe("settled");
    if (d.kind !== "settled") return;
    expect(d.counts.completed).toBe(2);
    expect(d.text).toContain("2 tasks (2 completed)");
    expect(d.text).toContain("- `a` [completed] A · by @alice · result: result of a");
    expect(d.text).toContain("- `b` [completed] B · by @alice · result: B is done: all of it");
    expect(d.text).toContain('task_list({ taskId: "<id>" })');
    for (let i = 0; i < 3; i++) expect(s.check()).toEqual({ kind: "quiet", why: "already_summarised" });
    expect(s.fired).toHaveLength(1);
  });

  it("waits while a teammate works and fires once it stops", () => {
    const board = newBoard();
    add(board, "A");
    complete(board, "a");
    const s = shell(board);
    expect(s.check(true)).toEqual({ kind: "quiet", why: "team_working" });
    expect(s.check(true)).toEqual({ kind: "quiet", why: "team_working" });
    expect(s.check(false).kind).toBe("settled");
    expect(s.fired).toHaveLength(1);
  });

  it("re-fires after a new task is created and settles, and only then", () => {
    const board = newBoard();
    add(board, "A");
    complete(board, "a");
    const s = shell(board);
    s.check();
    add(board, "B");
    expect(s.check()).toEqual({ kind: "quiet", why: "open_work" });
    complete(board, "b");
    expect(s.check(true)).toEqual({ kind: "quiet", why: "team_working" });
    const d = s.check();
    expect(d.kind).toBe("settled");
    expect(d.kind === "settled" && d.text).toContain("2 tasks (2 completed)");
    expect(s.fired).toHaveLength(2);
  });

  it("counts parked and superseded tasks as settled; a holder's acknowledgement does not re-fire", () => {
    const board = newBoard();
    add(board, "Old");
    take(board, alice, "old");
    const replaced = createTask(board, { subject: "New", supersedes: ["old"] }, 5);
    expect(replaced.ok).toBe(true);
    const s = shell(board);
    expect(s.check().kind).toBe("quiet"); // `new` is pending
    take(board, mate("bob"), "new");
    finish(board, mate("bob"), "new");
    expect(s.check().kind).toBe("settled");
    submitTask(board, { holder: alice, taskId: "old", status: "failed" }, 6); // acknowledges the supersede
    expect(s.check()).toEqual({ kind: "quiet", why: "already_summarised" });
  });

  it("a parked task settles the board; the allowance reopens it; the next park re-fires", () => {
    const board = newBoard();
    add(board, { subject: "Gated", verify: "ok" });
    take(board, alice, "gated");
    for (const n of [1, 2]) gateOutcome(board, { token: tokenOf(finish(board, alice, "gated").effects), text: "VERDICT: FAIL - no" }, n);
    const s = shell(board);
    const first = s.check();
    expect(first.kind).toBe("settled");
    expect(first.kind === "settled" && first.text).toContain('[parked] Gated · with @alice after 2 failed reviews');
    expect(first.kind === "settled" && first.text).toContain('send_message({ to: "alice", message: "<what to fix>", reopen: true })');
    allowResubmit(board, alice, 10);
    expect(s.check()).toEqual({ kind: "quiet", why: "open_work" }); // back in the holder's hands
    gateOutcome(board, { token: tokenOf(finish(board, alice, "gated").effects), text: "VERDICT: FAIL - still no" }, 11);
    expect(s.check().kind).toBe("settled");
    expect(s.fired).toHaveLength(2);
  });

  it("bounds the summary of a large board", () => {
    const board = newBoard();
    for (let i = 0; i < 100; i++) {
      add(board, `T ${i}`);
      complete(board, `t-${i}`, "z".repeat(1_000));
    }
    const d = shell(board).check();
    expect(d.kind).toBe("settled");
    if (d.kind !== "settled") return;
    expect(d.text.split("\n").filter((l) => l.startsWith("- `"))).toHaveLength(SUMMARY_TASKS);
    expect(d.text).toContain(`… and ${100 - SUMMARY_TASKS} older task(s)`);
    expect(d.text.length).toBeLessThan(SUMMARY_TASKS * 320);
  });
});
