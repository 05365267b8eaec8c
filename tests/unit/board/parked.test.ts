/**
 * Parked tasks stay parked (R45, L10, issue 6 item 4): after two FAILs a `completed` submit is
 * refused with no reviewer until the leader allows one more attempt (send_message reopen).
 * Regression: a holder resubmitting a parked task started 12 reviewers in 4 s.
 */
import { describe, expect, it } from "vitest";
import { allowResubmit, describeResubmit, gateOutcome, loadBoard, parseBoardFile, serializeBoard, submitTask, type Board, type Effect } from "../../../src/board/index.ts";
import { add, expectReason, finish, mate, newBoard, status, take } from "./fixture.ts";

const alice = mate("alice");
const bob = mate("bob");
const types = (effects: readonly Effect[]) => effects.map((e) => e.type);

function tokenOf(effects: readonly Effect[]): string {
  const start = effects.find((e) => e.type === "start_reviewer");
  if (!start || start.type !== "start_reviewer") throw new Error(`no start_reviewer effect in ${types(effects).join(", ")}`);
  return start.token;
}

/** A board with `fix-auth` parked with alice after two FAILs, plus the escalation effects seen. */
function parkedBoard(): { board: Board; escalations: Effect[] } {
  const board = newBoard();
  add(board, { subject: "Fix auth", verify: "All handlers validate tokens.", resources: ["api/auth"] });
  take(board, alice, "fix-auth");
  const escalations: Effect[] = [];
  for (const reason of ["one", "two"]) {
    const r = gateOutcome(board, { token: tokenOf(finish(board, alice, "fix-auth").effects), text: `VERDICT: FAIL - ${reason}` }, 10);
    escalations.push(...r.effects.filter((e) => e.type === "escalate"));
  }
  expect(status(board, "fix-auth")).toBe("parked");
  return { board, escalations };
}

const resubmit = (board: Board, now = 20) => submitTask(board, { holder: alice, taskId: "fix-auth", status: "completed", result: "again" }, now);

describe("parked tasks stay parked (R45, L10)", () => {
  it("refuses a completed resubmit at once: reason parked, no start_reviewer, nothing changed", () => {
    const { board } = parkedBoard();
    const revision = board.revision;
    for (let i = 0; i < 12; i++) {
      const r = resubmit(board);
      expectReason(r, "parked", "`fix-auth`", "2 failed reviews", "Do not resubmit", 'status: "failed"');
      expect(r.effects).toEqual([]);
    }
    expect(board.revision).toBe(revision);
    expect(board.tasks.get("fix-auth")).toMatchObject({ state: { status: "parked", holding: { failures: 2, reviews: 2 } }, lastResult: "done" });
  });

  it("the escalation names the holder and says the exact send_message call that allows one more attempt", () => {
    const { escalations } = parkedBoard();
    expect(escalations).toHaveLength(1);
    const e = escalations[0]!;
    expect(e).toMatchObject({ type: "escalate", kind: "verify_failed_twice", holder: alice, taskId: "fix-auth" });
    expect(e.type === "escalate" && e.text).toContain('send_message({ to: "alice", message: "<what to fix>", reopen: true })');
  });

  it("an allowance grants exactly one attempt: one reviewer, then refused again", () => {
    const { board } = parkedBoard();
    const allowed = allowResubmit(board, alice, 30);
    expect(allowed.allowed).toEqual(["fix-auth"]);
    expect(types(allowed.effects)).toEqual(["tell_holder", "persist"]);
    expect(allowed.effects[0]).toMatchObject({ to: alice, about: "resubmit_allowed", taskId: "fix-auth" });
    expect(board.tasks.get("fix-auth")?.state).toMatchObject({ status: "parked", allowance: { grantedAt: 30 } });
    // A second reopen before the attempt does not stack.
    const again = allowResubmit(board, alice, 31);
    expect(again).toMatchObject({ allowed: [], already: ["fix-auth"], effects: [] });
    expect(describeResubmit(allowed, alice)).toMatch(/^Board: one more review attempt allowed for `fix-auth` \(parked with @alice;/);
    expect(describeResubmit(again, alice)).toBe("Board: `fix-auth` already had an attempt allowed.");
    expect(describeResubmit(allowResubmit(board, { name: "bob", spawnId: "b" }, 31), { name: "bob", spawnId: "b" })).toBeUndefined();

    const attempt = resubmit(board, 32);
    expect(attempt.ok && attempt.outcome).toBe("in_review");
    expect(types(attempt.effects)).toEqual(["start_reviewer", "persist"]);
    expect(board.tasks.get("fix-auth")?.state).toMatchObject({ status: "in_review", gate: { attempt: 3 } });
    expect(board.tasks.get("fix-auth")?.state).not.toHaveProperty("allowance");
    expectReason(resubmit(board, 33), "in_review");
  });

  it("a FAIL on the allowed attempt parks it again with no second escalation; the next resubmit is refused", () => {
    const { board } = parkedBoard();
    allowResubmit(board, alice, 30);
    const r = gateOutcome(board, { token: tokenOf(resubmit(board, 31).effects), text: "VERDICT: FAIL - three" }, 32);
    expect(r.ok && r.outcome).toBe("parked");
    expect(types(r.effects)).toEqual(["send_findings", "persist"]);
    expect(r.effects[0]).toMatchObject({ parked: true, attempt: 3 });
    expect(board.tasks.get("fix-auth")?.state).toEqual({ status: "parked", holding: expect.objectContaining({ failures: 3, reviews: 3 }) });
    expectReason(resubmit(board, 33), "parked", "3 failed reviews");
  });

  it("a PASS on the allowed attempt completes the task", () => {
    const { board } = parkedBoard();
    allowResubmit(board, alice, 30);
    const r = gateOutcome(board, { token: tokenOf(resubmit(board, 31).effects), text: "VERDICT: PASS" }, 32);
    expect(r.ok && r.outcome).toBe("completed");
    expect(status(board, "fix-auth")).toBe("completed");
  });

  it("no verdict on the allowed attempt returns it to parked (not claimed) with one escalation", () => {
    const { board } = parkedBoard();
    allowResubmit(board, alice, 30);
    const token = tokenOf(resubmit(board, 31).effects);
    gateOutcome(board, { token, text: "hmm" }, 32);
    const r = gateOutcome(board, { token, text: "still hmm" }, 33);
    expect(r.ok && r.outcome).toBe("escalated");
    expect(r.effects[0]).toMatchObject({ type: "escalate", kind: "verdict_missing", holder: alice });
    expect(r.effects[0]?.type === "escalate" && r.effects[0].text).toContain("reopen: true");
    expect(board.tasks.get("fix-auth")?.state).toMatchObject({ status: "parked", holding: { failures: 2 } });
    expectReason(resubmit(board, 34), "parked");
  });

  it("failed on a parked task still releases it, allowed or not", () => {
    const { board } = parkedBoard();
    const r = submitTask(board, { holder: alice, taskId: "fix-auth", status: "failed", result: "cannot fix" }, 40);
    expect(r.ok && r.outcome).toBe("released");
    expect(board.tasks.get("fix-auth")).toMatchObject({ state: { status: "pending" }, lastError: "cannot fix" });
    const second = parkedBoard().board;
    allowResubmit(second, alice, 41);
    expect(submitTask(second, { holder: alice, taskId: "fix-auth", status: "failed" }, 42).ok).toBe(true);
    expect(status(second, "fix-auth")).toBe("pending");
  });

  it("only the holder's current incarnation gets the allowance, and only for parked tasks", () => {
    const { board } = parkedBoard();
    add(board, "Docs");
    take(board, bob, "docs");
    expect(allowResubmit(board, bob, 50)).toMatchObject({ allowed: [], already: [], effects: [] });
    expect(allowResubmit(board, mate("alice", "alice-2"), 50)).toMatchObject({ allowed: [], effects: [] });
    expect(allowResubmit(board, mate("carol"), 50)).toMatchObject({ allowed: [], effects: [] });
    expectReason(resubmit(board), "parked");
  });

  it("grants one attempt for every task parked with the holder (a board file may hold several)", () => {
    const board = newBoard();
    for (const [subject, who] of [["A", alice], ["B", bob]] as const) {
      add(board, { subject, verify: "ok" });
      const id = subject.toLowerCase();
      take(board, who, id);
      for (const reason of ["x", "y"]) gateOutcome(board, { token: tokenOf(finish(board, who, id).effects), text: `VERDICT: FAIL - ${reason}` }, 5);
    }
    // One holding at a time makes two parked tasks of one holder rare; a hand-edited file can.
    const parsed = parseBoardFile(serializeBoard(board).replaceAll('"name":"bob","spawnId":"bob-1"', '"name":"alice","spawnId":"alice-1"'));
    if (!parsed.ok) throw new Error(parsed.message);
    const both = loadBoard(parsed.file);
    const r = allowResubmit(both, alice, 6);
    expect(r.allowed.sort()).toEqual(["a", "b"]);
    expect(types(r.effects)).toEqual(["tell_holder", "tell_holder", "persist"]);
  });
});

describe("board.json keeps the allowance", () => {
  it("round-trips a parked task with and without an allowance; files from before load as not allowed", () => {
    const { board } = parkedBoard();
    add(board, { subject: "Other", verify: "ok" });
    take(board, bob, "other");
    for (const reason of ["x", "y"]) gateOutcome(board, { token: tokenOf(finish(board, bob, "other").effects), text: `VERDICT: FAIL - ${reason}` }, 5);
    allowResubmit(board, alice, 77);
    const text = serializeBoard(board);
    expect(text).toContain('"allowance":{"grantedAt":77}');
    const parsed = parseBoardFile(text);
    if (!parsed.ok) throw new Error(parsed.message);
    const again = loadBoard(parsed.file);
    expect(serializeBoard(again)).toBe(text);
    expect(again.tasks.get("fix-auth")?.state).toMatchObject({ status: "parked", allowance: { grantedAt: 77 } });
    expect(again.tasks.get("other")?.state).not.toHaveProperty("allowance");
    // The loaded allowance works like the original: one attempt for alice; bob stays refused.
    expect(submitTask(again, { holder: alice, taskId: "fix-auth", status: "completed" }, 80).ok).toBe(true);
    expectReason(submitTask(again, { holder: bob, taskId: "other", status: "completed" }, 80), "parked");

    const old = JSON.parse(text) as { tasks: { state: Record<string, unknown> }[] };
    for (const t of old.tasks) delete t.state.allowance;
    const legacy = parseBoardFile(JSON.stringify(old));
    expect(legacy.ok).toBe(true);
    if (legacy.ok) expectReason(submitTask(loadBoard(legacy.file), { holder: alice, taskId: "fix-auth", status: "completed" }, 80), "parked");
  });

  it("rejects a malformed allowance, naming its path", () => {
    const { board } = parkedBoard();
    allowResubmit(board, alice, 77);
    const file = JSON.parse(serializeBoard(board)) as { tasks: { state: Record<string, unknown> }[] };
    file.tasks[0]!.state.allowance = { grantedAt: "soon" };
    const r = parseBoardFile(JSON.stringify(file));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain("/tasks/0/state");
  });
});
