/**
 * BoardHost's flow rules (W21, W22) with a real board dir and intents from the pipe: a park that
 * settles the board costs the leader one turn; a park with open work left is escalated at once;
 * busy() holds a headless run while the board can move, and stuck() says why when it cannot.
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BoardHost, type BoardEscalation, type BoardMate, type BoardSettled } from "../../../src/leader/board-host.ts";
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

function world(names: string[]) {
  const mates: BoardMate[] = names.map((name) => ({ name, spawnId: `${name}-1`, idle: true, hasAssignment: false, assignmentResources: undefined, roleVerify: undefined }));
  const escalations: BoardEscalation[] = [];
  const summaries: BoardSettled[] = [];
  const team = { working: false };
  const host = new BoardHost({
    layout: boardLayoutAt(join(dir, "board")),
    keys: new SpawnKeys(),
    cwd: dir,
    piCli: "pi-not-used",
    env: {},
    mates: () => mates,
    tell: () => undefined,
    escalate: (e) => escalations.push(e),
    teamWorking: () => team.working,
    onSettled: (s) => summaries.push(s),
    teamModel: () => undefined,
    note: () => undefined,
    paceMs: 300_000,
  });
  const act = (name: string, action: "claim" | "submit", taskId: string, status?: "completed" | "failed") =>
    host.decideFromPipe({ action, taskId, from: name, spawnId: `${name}-1`, ...(status ? { status, result: `${status} by ${name}` } : {}) });
  return { host, mates, escalations, summaries, team, act };
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
  it("claimable work and a free teammate keep it busy; all assigned is stuck, with the reason", async () => {
    const w = world(["ann"]);
    await w.host.start();
    expect(w.host.busy()).toBe(false);
    expect(w.host.stuck()).toBeUndefined(); // an empty board is never stuck
    w.host.create({ subject: "Docs" }, "test");
    const ann = w.mates[0] as { idle: boolean; hasAssignment: boolean };
    ann.idle = false; // the notice woke her
    expect(w.host.busy()).toBe(true); // she was offered it and may take it
    ann.idle = true;
    expect(w.host.busy()).toBe(false); // she went idle without claiming: passed over it
    expect(w.host.stuck()).toContain("@ann passed over it");
    ann.hasAssignment = true;
    expect(w.host.busy()).toBe(false);
    expect(w.host.stuck()).toContain("- `docs` [pending] Docs: no teammate can take it: @ann holds a direct assignment");
    expect(w.host.whyWaiting("docs")).toEqual({ text: "no teammate can take it: @ann holds a direct assignment", short: "@ann assigned" });
    await w.host.close();
  });
});
