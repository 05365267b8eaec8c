import { describe, expect, it } from "vitest";
import { allowResubmit, claimTask, createTask, gateOutcome, releaseHolder, submitTask, type Board, type Effect } from "../../../src/board/index.ts";
import { add, expectReason, finish, mate, newBoard, status, take } from "./fixture.ts";

const alice = mate("alice");
const bob = mate("bob");

function tokenOf(effects: readonly Effect[]): string {
  const start = effects.find((e) => e.type === "start_reviewer");
  if (!start || start.type !== "start_reviewer") throw new Error("no start_reviewer effect");
  return start.token;
}

function reviewed(verify = "All handlers validate tokens."): { board: Board; token: string } {
  const board = newBoard();
  add(board, { subject: "Fix auth", verify, resources: ["api/auth"] });
  take(board, alice, "fix-auth");
  return { board, token: tokenOf(finish(board, alice, "fix-auth").effects) };
}

const types = (effects: readonly Effect[]) => effects.map((e) => e.type);

describe("submitTask (R38, R39, R41, R43)", () => {
  it("completes at once without a verify gate and unblocks dependents", () => {
    const board = newBoard();
    add(board, "A");
    add(board, { subject: "B", dependsOn: ["a"] });
    take(board, alice, "a");
    const r = finish(board, alice, "a");
    expect(r.outcome).toBe("completed");
    expect(board.tasks.get("a")?.state).toMatchObject({ status: "completed", by: "alice" });
    expect(board.index.ready.map((t) => t.id)).toEqual(["b"]);
  });

  it("task verify overrides the role verify; the role verify applies otherwise", () => {
    const board = newBoard();
    add(board, { subject: "A", verify: "task criteria" });
    add(board, "B");
    take(board, alice, "a");
    const a = finish(board, alice, "a", "completed", "role criteria");
    const prompt = a.effects.find((e) => e.type === "start_reviewer");
    expect(prompt && prompt.type === "start_reviewer" && prompt.prompt).toContain("task criteria");
    expect(prompt && prompt.type === "start_reviewer" && prompt.prompt).not.toContain("role criteria");
    take(board, bob, "b");
    const b = finish(board, bob, "b", "completed", "role criteria");
    expect(b.outcome).toBe("in_review");
    expect(board.tasks.get("b")?.state).toMatchObject({ status: "in_review", gate: { criteria: "role criteria", attempt: 1 } });
  });

  it("failed returns the task to pending with the error kept and notices re-armed", () => {
    const board = newBoard();
    add(board, "A");
    take(board, alice, "a");
    const before = board.tasks.get("a")?.noticeEpoch ?? -1;
    const r = submitTask(board, { holder: alice, taskId: "a", status: "failed", result: "cannot reach DB" }, 7);
    expect(r.ok && r.outcome).toBe("released");
    expect(board.tasks.get("a")).toMatchObject({ state: { status: "pending" }, lastError: "cannot reach DB", noticeEpoch: before + 1 });
  });

  it("only the current incarnation of the holder may submit", () => {
    const board = newBoard();
    add(board, "A");
    take(board, alice, "a");
    expectReason(submitTask(board, { holder: bob, taskId: "a", status: "completed" }, 1), "not_holder", "@alice", "@bob");
    expectReason(submitTask(board, { holder: mate("alice", "alice-2"), taskId: "a", status: "completed" }, 1), "not_holder", "earlier incarnation");
    expectReason(submitTask(board, { holder: alice, taskId: "nope", status: "completed" }, 1), "not_found", "`nope`");
    add(board, "B");
    expectReason(submitTask(board, { holder: alice, taskId: "b", status: "completed" }, 1), "not_claimed", "`b`");
  });

  it("rejects completed on a superseded task; failed acknowledges and drops the lock (R41)", () => {
    const board = newBoard();
    add(board, { subject: "Old", resources: ["api"] });
    take(board, alice, "old");
    createTask(board, { subject: "New", supersedes: ["old"], resources: ["api"] }, 5);
    expectReason(submitTask(board, { holder: alice, taskId: "old", status: "completed" }, 6), "superseded", "`new`");
    expectReason(claimTask(board, { holder: { ...bob, hasAssignment: false }, taskId: "new" }, 6), "resource_conflict", "@alice");
    const ack = submitTask(board, { holder: alice, taskId: "old", status: "failed" }, 7);
    expect(ack.ok && ack.outcome).toBe("acknowledged");
    expect(board.tasks.get("old")?.state).toEqual({ status: "superseded", by: "new", supersededAt: 5 });
    expect(take(board, bob, "new").id).toBe("new");
  });

  it("bounds the stored result", () => {
    const board = newBoard();
    add(board, "A");
    take(board, alice, "a");
    submitTask(board, { holder: alice, taskId: "a", status: "completed", result: "x".repeat(20_000) }, 1);
    expect(board.tasks.get("a")?.lastResult?.length).toBeLessThan(8_100);
  });
});

describe("gateOutcome (R44, R45, L9, L10)", () => {
  it("PASS completes and tells the holder", () => {
    const { board, token } = reviewed();
    const r = gateOutcome(board, { token, text: "Checked all.\nVERDICT: PASS" }, 9);
    expect(r.ok && r.outcome).toBe("completed");
    expect(types(r.effects)).toEqual(["tell_holder", "persist"]);
    expect(status(board, "fix-auth")).toBe("completed");
  });

  it("FAIL returns the claim with findings; a resubmission runs a fresh gate", () => {
    const { board, token } = reviewed();
    const r = gateOutcome(board, { token, text: "VERDICT: FAIL - /login skips the check" }, 9);
    expect(r.ok && r.outcome).toBe("findings");
    expect(r.effects[0]).toMatchObject({ type: "send_findings", to: alice, reasons: "/login skips the check", parked: false, attempt: 1 });
    expect(board.tasks.get("fix-auth")?.state).toMatchObject({ status: "claimed", holding: { failures: 1, reviews: 1 } });
    const again = finish(board, alice, "fix-auth");
    const token2 = tokenOf(again.effects);
    expect(token2).not.toBe(token);
    expect(board.tasks.get("fix-auth")?.state).toMatchObject({ status: "in_review", gate: { attempt: 2 } });
    expect(gateOutcome(board, { token: token2, text: "VERDICT: PASS" }, 10).ok).toBe(true);
    expect(status(board, "fix-auth")).toBe("completed");
  });

  it("the second FAIL parks with exactly one escalation; later FAILs never escalate", () => {
    const { board, token } = reviewed();
    gateOutcome(board, { token, text: "VERDICT: FAIL - one" }, 1);
    const t2 = tokenOf(finish(board, alice, "fix-auth").effects);
    const second = gateOutcome(board, { token: t2, text: "VERDICT: FAIL - two" }, 2);
    expect(second.ok && second.outcome).toBe("parked");
    expect(types(second.effects)).toEqual(["send_findings", "escalate", "persist"]);
    expect(second.effects[1]).toMatchObject({ kind: "verify_failed_twice", holder: alice });
    expect(board.tasks.get("fix-auth")?.state).toMatchObject({ status: "parked", holding: { holder: alice, failures: 2 } });
    expect(allowResubmit(board, alice, 3).allowed).toEqual(["fix-auth"]);
    const t3 = tokenOf(finish(board, alice, "fix-auth").effects);
    const third = gateOutcome(board, { token: t3, text: "VERDICT: FAIL - three" }, 3);
    expect(third.ok && third.outcome).toBe("parked");
    expect(types(third.effects)).toEqual(["send_findings", "persist"]);
  });

  it("a missing verdict asks one clarification, then escalates without counting a failure", () => {
    const { board, token } = reviewed();
    const first = gateOutcome(board, { token, text: "Looks mostly fine to me." }, 1);
    expect(first.ok && first.outcome).toBe("clarify");
    expect(first.effects[0]).toMatchObject({ type: "clarify_reviewer", token });
    expect(status(board, "fix-auth")).toBe("in_review");
    const second = gateOutcome(board, { token, text: "I think so." }, 2);
    expect(second.ok && second.outcome).toBe("escalated");
    expect(types(second.effects)).toEqual(["escalate", "persist"]);
    expect(second.effects[0]).toMatchObject({ kind: "verdict_missing" });
    expect(board.tasks.get("fix-auth")?.state).toMatchObject({ status: "claimed", holding: { failures: 0 } });
  });

  it("a clarification that yields a verdict decides normally", () => {
    const { board, token } = reviewed();
    gateOutcome(board, { token, text: "hmm" }, 1);
    const r = gateOutcome(board, { token, text: "VERDICT: PASS" }, 2);
    expect(r.ok && r.outcome).toBe("completed");
  });

  it("an outcome after release, re-claim or shutdown is stale and aborts its reviewer", () => {
    const { board, token } = reviewed();
    const released = submitTask(board, { holder: alice, taskId: "fix-auth", status: "failed", result: "gave up" }, 1);
    expect(released.effects[0]).toMatchObject({ type: "abort_reviewer", token, reason: "released" });
    take(board, bob, "fix-auth");
    const late = gateOutcome(board, { token, text: "VERDICT: PASS" }, 2);
    expectReason(late, "stale_gate", token);
    expect(late.effects).toEqual([{ type: "abort_reviewer", token, taskId: "fix-auth", reason: "stale_outcome" }]);
    expect(status(board, "fix-auth")).toBe("claimed");

    const t2 = tokenOf(finish(board, bob, "fix-auth").effects);
    const gone = releaseHolder(board, { name: "bob" }, "shutdown", 3);
    expect(gone.effects[0]).toMatchObject({ type: "abort_reviewer", token: t2, reason: "holder_gone" });
    expect(gateOutcome(board, { token: t2, text: "VERDICT: PASS" }, 4).ok).toBe(false);
    expect(status(board, "fix-auth")).toBe("pending");
  });

  it("completed while in review is rejected; failed withdraws", () => {
    const { board } = reviewed();
    expectReason(submitTask(board, { holder: alice, taskId: "fix-auth", status: "completed" }, 1), "in_review", "attempt 1");
  });

  it("an unknown token is stale", () => {
    expectReason(gateOutcome(newBoard(), { token: "zzz#g9", text: "VERDICT: PASS" }, 1), "stale_gate", "`zzz`");
  });
});
