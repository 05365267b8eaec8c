import { describe, expect, it } from "vitest";
import type { SpawnRequest, SpawnResult } from "../../../src/harness/index.ts";
import { lastTeamRecord, recordOf, TeamRecorder, type TeamRecord, type TeamRecordPort } from "../../../src/leader/team-record.ts";
import { restoredLeaderText, restoredUserText, restoreEnabled, restoreTeam } from "../../../src/leader/team-restore.ts";
import type { Member } from "../../../src/team/member.ts";

const BASE = "a".repeat(40);
const BOARD = "/agent/tasks/k";
const KEY = "0123456789abcdef";
const ID = "8c1f2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b";

/** The parts of a Member a record reads. */
function mate(name: string, living: boolean, extra: { session?: string; branch?: string } = {}): Member {
  return {
    name,
    living,
    agent: { name: "worker" },
    holdings: { session: extra.session },
    worktree: extra.branch ? { dir: `/wt/${name}`, branch: extra.branch, base: BASE } : undefined,
  } as unknown as Member;
}

function port(entries: unknown[] = []): TeamRecordPort & { appended: TeamRecord[] } {
  const appended: TeamRecord[] = [];
  return { appended, entries: () => [...entries, ...appended], append: (r) => void appended.push(r) };
}

describe("the team record (issue 20)", () => {
  it("names the living teammates by name, with session dir and worktree branch; the stopped are left out", () => {
    const record = recordOf([mate("cal", true, { session: `${BOARD}/sessions/cal-1`, branch: "pi-team/cal-1" }), mate("ann", true), mate("dee", false)], KEY);
    expect(record).toEqual({
      v: 1,
      key: KEY,
      teammates: [
        { name: "ann", agent: "worker" },
        { name: "cal", agent: "worker", session: `${BOARD}/sessions/cal-1`, worktree: { branch: "pi-team/cal-1", base: BASE } },
      ],
    });
  });

  it("appends only when the living team changed, starting from the session's last record", () => {
    const p = port([{ v: 1, key: KEY, teammates: [{ name: "ann", agent: "worker" }] }]);
    const recorder = new TeamRecorder(p, KEY);
    recorder.observe([mate("ann", true)], () => undefined);
    expect(p.appended).toEqual([]);
    recorder.observe([mate("ann", true), mate("bob", true)], () => undefined);
    recorder.observe([mate("ann", true), mate("bob", true)], () => undefined);
    recorder.observe([mate("ann", false), mate("bob", true)], () => undefined);
    expect(p.appended.map((r) => r.teammates.map((t) => t.name))).toEqual([["ann", "bob"], ["bob"]]);
    const notes: string[] = [];
    new TeamRecorder({ entries: () => [], append: () => { throw new Error("read-only session"); } }, KEY).observe([mate("ann", true)], (n) => notes.push(n));
    expect(notes).toEqual(["could not record the living team in the session: Error: read-only session"]);
  });

  it("takes the last record only, and an invalid last one is a problem, not a reason to restore an older team", () => {
    expect(lastTeamRecord([], KEY)).toEqual({});
    const ok = { v: 1, key: KEY, teammates: [{ name: "ann", agent: "worker" }] };
    expect(lastTeamRecord([{ v: 1, key: KEY, teammates: [] }, ok], KEY)).toEqual({ record: ok });
    // A record Pi copied into a forked session was written under the parent's key: not this team.
    expect(lastTeamRecord([ok], "fedcba9876543210")).toEqual({});
    const bad = lastTeamRecord([ok, { v: 1, key: KEY, teammates: [{ name: "", agent: "worker" }] }], KEY);
    expect(bad.record).toBeUndefined();
    expect(bad.problem).toMatch(/^the session's last team record is not valid \(\/teammates\/0\/name/);
  });

  it("PI_TEAMMATE_RESTORE=off (0, false, no) turns restoring off", () => {
    expect(restoreEnabled({})).toBe(true);
    expect(restoreEnabled({ PI_TEAMMATE_RESTORE: "on" })).toBe(true);
    for (const v of ["off", "0", "false", "NO", " Off "]) expect(restoreEnabled({ PI_TEAMMATE_RESTORE: v })).toBe(false);
  });
});

describe("restoreTeam", () => {
  const result = (req: SpawnRequest): SpawnResult => ({
    name: req.name, agent: req.agent, scope: "project", spawnId: "s", pid: 1, status: "idle", tools: [], model: "m", kickoff: false, log: "/l",
    restored: req.restore?.session ? "context" : "fresh",
    ...(req.restore?.branch ? { worktree: { dir: "/wt", branch: "pi-team/cal-2", base: BASE } } : {}),
  });

  it("spawns each teammate again from its own session dir, a worktree one on its branch if it still exists, and names who failed and why", async () => {
    const asked: SpawnRequest[] = [];
    const record: TeamRecord = {
      v: 1,
      key: KEY,
      teammates: [
        { name: "ann", agent: "worker", session: `${BOARD}/sessions/ann-${ID}` },
        { name: "bob", agent: "gone-role", session: `${BOARD}/sessions/bob-${ID}`, boxed: true },
        { name: "cal", agent: "builder", session: `${BOARD}/sessions/cal-${ID}`, worktree: { branch: "pi-team/cal-1", base: BASE } },
        { name: "dee", agent: "builder", session: "/etc/elsewhere/dee-1", worktree: { branch: "pi-team/dee-1", base: BASE } },
        // ann's name is a prefix of this dir's: not ann-b's own dir.
        { name: "ann-b", agent: "worker", session: `${BOARD}/sessions/ann-${ID}` },
      ],
    };
    const outcome = await restoreTeam(record, {
      boardDir: BOARD,
      branchExists: async (b) => b === "pi-team/cal-1",
      spawn: async (req) => {
        asked.push(req);
        if (req.agent === "gone-role") throw new Error('teammate_spawn: no agent named "gone-role"');
        return result(req);
      },
    });
    expect(asked.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: "ann", agent: "worker", restore: { session: `${BOARD}/sessions/ann-${ID}` } },
      { name: "ann-b", agent: "worker", restore: {} },
      { name: "bob", agent: "gone-role", restore: { session: `${BOARD}/sessions/bob-${ID}`, boxed: true } },
      { name: "cal", agent: "builder", restore: { session: `${BOARD}/sessions/cal-${ID}`, branch: { name: "pi-team/cal-1", base: BASE } } },
      // A session dir outside the team's is not used; a branch that is gone is not either.
      { name: "dee", agent: "builder", restore: {} },
    ]);
    expect(outcome.back.map((r) => r.name)).toEqual(["ann", "cal", "dee", "ann-b"]);
    expect(outcome.failed).toEqual([{ name: "bob", reason: 'teammate_spawn: no agent named "gone-role"' }]);
    const text = restoredLeaderText(outcome, "This session was resumed")!;
    expect(text).toContain("teammates_restored");
    expect(text).toContain("- @ann (agent worker): its context is back");
    expect(text).toContain("- @cal (agent builder): its context is back; its worktree is on branch pi-team/cal-2");
    expect(text).toContain("- @dee (agent builder): it starts fresh (no session file of it to start from)");
    expect(text).toContain('Could not be restored:\n- @bob: teammate_spawn: no agent named "gone-role"');
    expect(restoredUserText(outcome)).toBe('pi-resident-teams: restored @ann, @cal, @dee, @ann-b (idle, with their context); could not restore @bob (teammate_spawn: no agent named "gone-role")');
    expect(restoredLeaderText({ back: [], failed: [] }, "x")).toBeUndefined();
  });
});
