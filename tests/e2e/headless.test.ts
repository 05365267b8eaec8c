/**
 * Issue 6 item 6 on the real pi CLI: `pi -p` with a team. The leader's run stays open while a
 * teammate works, the report reaches the leader's model as a turn, the run ends once the team is
 * settled, and no teammate outlives pi. SIGTERM and SIGINT while the teammate works end pi
 * promptly with no child left. Every test has its own model and env.
 */
import { afterEach, describe, expect, it } from "vitest";
import { closeHeadless, exitOf, startHeadless, type HeadlessRun } from "../support/headless.ts";
import { agentFile } from "../support/leader.ts";
import type { ModelCall, Reply } from "../support/scripted-model.ts";
import { isAlive, sendCall, spawnCall } from "../support/team.ts";

const AGENTS = { "worker.md": agentFile("worker", "You are a worker.", { tools: "read" }) };

let run: HeadlessRun | undefined;
afterEach(async () => {
  const r = run;
  run = undefined;
  if (r) await closeHeadless(r);
});

/** The leader: GO spawns alice with a kickoff; a report gets the final text; anything else "Noted.". */
function leader(c: ModelCall): Reply {
  if (c.toolResults.length > 0) return { text: "Spawned; waiting for alice." };
  if (c.lastUser.includes("<teammate-report")) return { text: "FINAL: alice reported." };
  if (c.lastUser === "GO") return { toolCalls: [spawnCall("alice", "worker", "KICKOFF: count the files")] };
  return { text: "Noted." };
}

/** Starts `pi -p GO` with this file's leader and `alice`'s script. */
async function startAlice(alice: (c: ModelCall) => Reply): Promise<HeadlessRun> {
  run = await startHeadless((c) => (c.agent === "leader" ? leader(c) : alice(c)), AGENTS);
  return run;
}

/** alice's pid, from the teammate_spawn result the leader's model saw ("... pid 1234) ..."). */
async function alicePid(r: HeadlessRun): Promise<number> {
  const call = await r.model.waitForCall((c) => c.agent === "leader" && c.toolResults.some((t) => t.content.includes("Spawned teammate alice")), 30_000);
  const match = /pid (\d+)\)/.exec(call.toolResults.map((t) => t.content).join("\n"));
  expect(match, "pid in the teammate_spawn result").not.toBeNull();
  const pid = Number(match![1]);
  r.pids.add(pid);
  return pid;
}

describe("pi -p with a team", () => {
  it("stays open while the teammate works, gives the leader its report as a turn, then exits 0 with no teammate left", async () => {
    const WORK_MS = 2500;
    const r = await startAlice((c) =>
      c.toolResults.length === 0 && c.lastUser.includes("KICKOFF")
        ? { delayMs: WORK_MS, toolCalls: [sendCall("leader", "REPORT-DONE: 1 file", "completed")] }
        : { text: "done" });
    const pid = await alicePid(r);
    const exit = await exitOf(r, 60_000);

    expect(exit, r.stderr()).toMatchObject({ code: 0, signal: null });
    expect(exit.at - r.startedAt).toBeGreaterThanOrEqual(WORK_MS);
    const leaderCalls = r.model.callsOf("leader");
    const report = leaderCalls.find((c) => c.toolResults.length === 0 && c.lastUser.includes("REPORT-DONE: 1 file"));
    expect(report, "a leader turn carrying the report").toBeDefined();
    expect(report!.lastUser).toContain('<teammate-report from="alice" status="completed">');
    expect(report!.at).toBeLessThan(exit.at);
    // GO, its tool result, then the report: one turn per owed report, nothing after.
    expect(leaderCalls.map((c) => (c.toolResults.length > 0 ? "result" : c.lastUser.startsWith("<teammate-report") ? "report" : c.lastUser)))
      .toEqual(["GO", "result", "report"]);
    expect(r.stdout().trim()).toBe("FINAL: alice reported.");
    // session_shutdown stopped alice before pi exited, and said so on stderr (stdout is the model's).
    expect(isAlive(pid)).toBe(false);
    expect(r.stderr()).toContain("pi-resident-teams: the session ended and stopped 1 teammate: @alice");
  });

  it("ends once the teammate is idle even when it never reports: after its one reminder, the leader's turn on the no-report event", async () => {
    const WORK_MS = 1500;
    const r = await startAlice(() => ({ delayMs: WORK_MS, text: "finished, but told nobody" }));
    const pid = await alicePid(r);
    const alice = await r.model.waitForCall((c) => c.agent === "alice", 30_000);
    const exit = await exitOf(r, 60_000);

    expect(exit, r.stderr()).toMatchObject({ code: 0, signal: null });
    // Held until alice's runs had ended (the kickoff and the one L31 reminder), then one leader turn
    // on the teammate_no_report event, and nothing after it.
    expect(exit.at - alice.at).toBeGreaterThanOrEqual(WORK_MS);
    const seen = r.model.callsOf("leader").map((c) => (c.toolResults.length > 0 ? "result" : c.lastUser.includes('type="teammate_no_report"') ? "no_report" : c.lastUser));
    expect(seen).toEqual(["GO", "result", "no_report"]);
    expect(r.model.callsOf("alice").filter((c) => c.lastUser.includes("<harness-reminder>"))).toHaveLength(1);
    expect(isAlive(pid)).toBe(false);
  });

  it.each(["SIGTERM", "SIGINT"] as const)("%s while the teammate works ends pi promptly and leaves no child", async (signal) => {
    const r = await startAlice(() => ({ delayMs: 120_000, text: "never" }));
    const pid = await alicePid(r);
    await r.model.waitForCall((c) => c.agent === "alice", 30_000); // alice is inside its model call
    // The leader has answered the spawn result and its run is waiting on the team.
    await r.model.waitForCall((c) => c.agent === "leader" && c.toolResults.length > 0 && c.reply !== undefined, 30_000);
    expect(isAlive(pid)).toBe(true);
    expect(r.pi.exitCode).toBeNull();

    const sentAt = Date.now();
    r.pi.kill(signal);
    const exit = await exitOf(r, 10_000);
    const tookMs = exit.at - sentAt;
    expect(tookMs).toBeLessThan(5000);
    // SIGTERM: Pi's own handler exits 143 after session_shutdown. SIGINT: the team is stopped, then 130.
    expect(exit, r.stderr()).toMatchObject({ code: signal === "SIGTERM" ? 143 : 130, signal: null });
    // Gone when pi exited: the team was stopped before the exit, not by a cleanup after it.
    expect(isAlive(pid), `teammate ${pid} alive after pi exited`).toBe(false);
    expect(r.stderr()).toContain("stopped 1 teammate: @alice");
    expect(r.model.callsOf("leader").some((c) => c.lastUser.includes("<teammate-report"))).toBe(false);
  });
});
