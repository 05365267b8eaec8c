/**
 * BoardHost's flow rules (W21, W22) with a real board dir and intents from the pipe: a park that
 * settles the board costs the leader one turn; a park with open work left is escalated at once;
 * busy() holds a headless run while the board can move, and stuck() says why when it cannot.
 */
import { TeamBus } from "../../../src/team/bus.ts";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BoardHost } from "../../../src/boardhost/board-host.ts";
import type { BoardMate } from "../../../src/boardhost/board-host-types.ts";
import type { BoardEscalation, BoardSettled } from "../../../src/board/index.ts";
import { SpawnKeys } from "../../../src/mail/index.ts";
import { boardLayoutAt } from "../../../src/store/index.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "board-host-flow-"));
  await mkdir(join(dir, "board"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const REVIEWER_PASS = fileURLToPath(new URL("../../fixtures/reviewer-pass.mjs", import.meta.url));

function world(names: string[], piCli = "pi-not-used") {
  const mates: BoardMate[] = names.map((name) => ({ name, spawnId: `${name}-1`, idle: true, hasAssignment: false, assignmentResources: undefined, roleVerify: undefined }));
  const escalations: BoardEscalation[] = [];
  const told: Array<{ to: string; text: string }> = [];
  const summaries: BoardSettled[] = [];
  const team = { working: false };
  const bus = new TeamBus();
  bus.on("tell", ({ to, text }) => told.push({ to: to.name, text }));
  bus.on("escalate", ({ escalation }) => escalations.push(escalation));
  bus.on("board_settled", ({ summary }) => summaries.push(summary));
  const host = new BoardHost({
    bus,
    layout: boardLayoutAt(join(dir, "board")),
    keys: new SpawnKeys(),
    answer: () => undefined, // intents come from the pipe here (decideFromPipe)
    cwd: dir,
    piCli,
    env: {},
    mates: () => mates,
    teamWorking: () => team.working,
    teamModel: () => undefined,
    note: () => undefined,
    paceMs: 300_000,
  });
  const act = (name: string, action: "claim" | "submit", taskId: string, status?: "completed" | "failed") =>
    host.decideFromPipe({ action, taskId, from: name, spawnId: `${name}-1`, ...(status ? { status, result: `${status} by ${name}` } : {}) });
  return { host, mates, escalations, summaries, team, act, told };
}

describe("BoardHost: one turn per park (W22)", () => {
  it("a second failure that settles the board is one board_settled turn carrying the escalation", async () => {
    const w = world(["ann"]);
    await w.host.start();
    w.host.create({ subject: "Flaky" }, "test");
    w.team.working = true; // ann works on it until she goes idle
    for (let i = 0; i < 2; i++) {
      expect(w.act("ann", "claim", "flaky").ok).toBe(true);
      expect(w.act("ann", "submit", "flaky", "failed").ok).toBe(true);
    }
    expect(w.escalations).toEqual([]); // held: every task is settled and ann still works
    expect(w.summaries).toEqual([]);
    w.team.working = false;
    w.host.offerWork(); // ann went idle
    expect(w.escalations).toEqual([]);
    expect(w.summaries).toHaveLength(1);
    expect(w.summaries[0]?.text).toMatch(/^Task `flaky` \(Flaky\) was submitted as failed 2 times and is parked with @ann\.[\s\S]*The task board settled/);
    w.host.offerWork();
    expect(w.summaries).toHaveLength(1);
    await w.host.close();
  });

  it("a park with other work still open is escalated at once", async () => {
    const w = world(["ann", "bo"]);
    await w.host.start();
    w.host.create({ subject: "Flaky" }, "test");
    w.host.create({ subject: "Other" }, "test");
    w.team.working = true;
    w.act("bo", "claim", "other");
    for (let i = 0; i < 2; i++) {
      w.act("ann", "claim", "flaky");
      w.act("ann", "submit", "flaky", "failed");
    }
    expect(w.escalations).toEqual([expect.objectContaining({ kind: "failed_twice", taskId: "flaky" })]);
    expect(w.summaries).toEqual([]);
    await w.host.close();
  });
});

describe("BoardHost: busy while the board can move, stuck when it cannot (W21)", () => {
  it("a claimed task whose holder went idle without submitting is stuck too; a settled board never is", async () => {
    const w = world(["ann"]);
    await w.host.start();
    w.host.create({ subject: "Docs" }, "test");
    expect(w.act("ann", "claim", "docs").ok).toBe(true);
    expect(w.host.activity.busy()).toBe(false); // ann holds it: nobody else may take anything
    expect(w.host.activity.stuck()).toContain("- `docs` [claimed] Docs: @ann holds it, idle, and has not submitted it");
    expect(w.act("ann", "submit", "docs", "completed").ok).toBe(true);
    expect(w.host.activity.stuck()).toBeUndefined();
    await w.host.close();
  });

  it("claimable work and a free teammate keep it busy; all assigned is stuck, with the reason", async () => {
    const w = world(["ann"]);
    await w.host.start();
    expect(w.host.activity.busy()).toBe(false);
    expect(w.host.activity.stuck()).toBeUndefined(); // an empty board is never stuck
    w.host.create({ subject: "Docs" }, "test");
    const ann = w.mates[0] as { idle: boolean; hasAssignment: boolean };
    ann.idle = false; // the notice woke her
    expect(w.host.activity.busy()).toBe(true); // she was offered it and may take it
    ann.idle = true;
    expect(w.host.activity.busy()).toBe(false); // she went idle without claiming: passed over it
    expect(w.host.activity.stuck()).toContain("@ann passed over it");
    ann.hasAssignment = true;
    expect(w.host.activity.busy()).toBe(false);
    expect(w.host.activity.stuck()).toContain("- `docs` [pending] Docs: no teammate can take it: @ann holds a direct assignment");
    expect(w.host.whyWaiting("docs")).toEqual({ text: "no teammate can take it: @ann holds a direct assignment", short: "@ann assigned" });
    await w.host.close();
  });
});

/** Resolves once `check` holds, polling the event loop (a reviewer is a real child process). */
async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

describe("BoardHost: a verify gate never strands work", () => {
  it("a reviewer that cannot start escalates the task instead of leaving it in review with nobody to judge it", async () => {
    const w = world(["ann"]); // piCli "pi-not-used" does not exist: every reviewer fails to start
    await w.host.start();
    w.host.create({ subject: "Docs", verify: "the docs build" }, "test");
    expect(w.act("ann", "claim", "docs").ok).toBe(true);
    expect(w.act("ann", "submit", "docs", "completed").ok).toBe(true);
    expect(w.host.board.tasks.get("docs")?.state.status).toBe("in_review");
    await until(() => !w.host.activity.busy(), "the reviewer to end");
    expect(w.escalations).toEqual([expect.objectContaining({ kind: "verdict_missing", taskId: "docs" })]);
    expect(w.host.board.tasks.get("docs")?.state.status).toBe("claimed"); // ann keeps it and may resubmit
    await w.host.close();
  });

  it("a PASS that makes a dependent claimable offers it at once to a free idle teammate (W20)", async () => {
    const w = world(["ann", "bo"], REVIEWER_PASS);
    await w.host.start();
    w.host.create({ subject: "Code", verify: "tests pass" }, "test");
    w.host.create({ subject: "Docs", dependsOn: ["code"] }, "test");
    expect(w.act("ann", "claim", "code").ok).toBe(true);
    expect(w.act("ann", "submit", "code", "completed").ok).toBe(true);
    await until(() => w.host.board.tasks.get("code")?.state.status === "completed", "the PASS verdict");
    // ann is told the verdict (she wakes for it); bo is idle and free and never heard of `docs`.
    expect(w.told.filter((t) => t.to === "bo").map((t) => t.text)).toEqual([expect.stringContaining("`docs`")]);
    await until(() => !w.host.activity.busy() || w.told.some((t) => t.to === "bo"), "the reviewer to end");
    await w.host.close();
  });
});
