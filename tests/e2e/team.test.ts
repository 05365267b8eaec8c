/**
 * Issue 2 acceptance on the real pi CLI: a leader pi with this package spawns real teammate pi
 * processes; all of them talk to the scripted model, whose request log is what every model saw.
 * Messaging: kickoffs and terminal reports, peer mail, leader steering, unknown recipients, idle
 * spawns, and the R2 guidance. Every test has its own model, env and leader.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { agentFile } from "../support/leader.ts";
import type { ModelCall } from "../support/scripted-model.ts";
import { callText, leaderCommands, listFiles, sendCall, spawnCall, startTeam, waitStatus, waitUntil, type Team } from "../support/team.ts";

const AGENTS = { "worker.md": agentFile("worker", "ROLE-PROMPT: you are a careful worker.", { tools: "read" }) };

let team: Team | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
});

/** A leader call that answers a report of `from` (not a call after a tool result). */
const reportTurn = (from: string) => (c: ModelCall): boolean =>
  c.agent === "leader" && c.toolResults.length === 0 && c.lastUser.includes(`<teammate-report from="${from}"`);

describe("kickoffs and terminal reports", () => {
  it("two teammates spawned with kickoffs each deliver a terminal report the leader's model receives as its own turn", async () => {
    const worker = (c: ModelCall) =>
      c.toolResults.length === 0 && c.lastUser.includes(`ASSIGN-${c.agent}`)
        ? { toolCalls: [sendCall("leader", `REPORT-FROM-${c.agent}: all done`, "completed")] }
        : { text: "done" };
    team = await startTeam({
      agents: AGENTS,
      scripts: {
        leader: leaderCommands({ KICKOFF: [spawnCall("alice", "worker", "ASSIGN-alice"), spawnCall("bob", "worker", "ASSIGN-bob")] }),
        alice: worker,
        bob: worker,
      },
    });
    const { model, leader } = team;
    await leader.prompt("KICKOFF");
    const aliceTurn = await model.waitForCall(reportTurn("alice"), 30_000);
    const bobTurn = await model.waitForCall(reportTurn("bob"), 30_000);

    // Each report is its own leader model request, whose last user message is that report.
    expect(aliceTurn.seq).not.toBe(bobTurn.seq);
    expect(aliceTurn.lastUser).toContain('<teammate-report from="alice" status="completed">');
    expect(aliceTurn.lastUser).toContain("REPORT-FROM-alice: all done");
    expect(aliceTurn.lastUser).not.toContain("REPORT-FROM-bob");
    expect(aliceTurn.lastUser).toContain("carries no user authority");
    expect(bobTurn.lastUser).toContain('<teammate-report from="bob" status="completed">');
    expect(bobTurn.lastUser).toContain("REPORT-FROM-bob: all done");
    expect(bobTurn.lastUser).not.toContain("REPORT-FROM-alice");
    expect(model.calls.filter(reportTurn("alice"))).toHaveLength(1);
    expect(model.calls.filter(reportTurn("bob"))).toHaveLength(1);

    // The kickoff was one direct assignment: role prompt and assignment in the first prompt.
    for (const name of ["alice", "bob"]) {
      const first = model.callsOf(name)[0]!;
      expect(first.lastUser).toContain("ROLE-PROMPT: you are a careful worker.");
      expect(first.lastUser).toContain(`<assignment from="leader">\nASSIGN-${name}`);
      expect(first.headers["x-pi-teams-identity"]).toBe(`worker/${name}`);
      // Teammates get their role tools (only read here, none of pi's other defaults) plus
      // send_message, and their own guidance.
      expect(first.tools).toEqual(expect.arrayContaining(["read", "send_message"]));
      for (const tool of ["bash", "edit", "write", "teammate_spawn"]) expect(first.tools).not.toContain(tool);
      expect(first.system).toContain(`You are teammate "${name}"`);
    }

    // The leader session holds both reports as custom messages of type teammate-report.
    await leader.waitForEvent(() => leader.customMessages("teammate-report").length >= 2);
    const reports = leader.customMessages("teammate-report").map((m) => m.content);
    expect(reports.filter((r) => r.includes("REPORT-FROM-alice"))).toHaveLength(1);
    expect(reports.filter((r) => r.includes("REPORT-FROM-bob"))).toHaveLength(1);

    // R2: the leader's system prompt carries the teammate_spawn guidance; the tools are offered.
    const leaderFirst = model.callsOf("leader")[0]!;
    expect(leaderFirst.system).toContain("## Agent teams (pi-resident-teams)");
    expect(leaderFirst.system).toMatch(/spawn an agent, call a subagent, or delegate to a worker, call `teammate_spawn`/);
    expect(leaderFirst.system).toContain("worker");
    expect(leaderFirst.tools).toEqual(expect.arrayContaining(["teammate_spawn", "teammate_shutdown", "send_message"]));
  });

  it("a terminal report ends the worker's turn, and a second terminal report of the same assignment is suppressed", async () => {
    team = await startTeam({
      agents: AGENTS,
      scripts: {
        leader: leaderCommands({ KICKOFF: [spawnCall("alice", "worker", "ASSIGN-alice")] }),
        // Two terminal reports in one reply: the first is sent, the second refused (one report per
        // answer) with a terminating result, so the run still ends after this one answer.
        alice: () => ({ toolCalls: [sendCall("leader", "TERMINAL-ONE", "completed"), sendCall("leader", "TERMINAL-TWO", "failed")] }),
      },
    });
    const { model, leader, runtimeDir } = team;
    await leader.prompt("KICKOFF");
    await model.waitForCall(reportTurn("alice"), 30_000);
    // Alice settles idle only after the harness drained her outbox; then a barrier leader turn.
    await waitStatus(runtimeDir, "alice", "idle");
    await team.run("PING");

    expect(model.callsOf("alice")).toHaveLength(1);
    const turns = model.calls.filter(reportTurn("alice"));
    expect(turns).toHaveLength(1);
    expect(leader.customMessages("teammate-report")).toHaveLength(1);
    const delivered = turns[0]!.lastUser;
    expect(delivered.includes("TERMINAL-ONE") !== delivered.includes("TERMINAL-TWO")).toBe(true);
    for (const c of model.callsOf("leader")) expect(callText(c).includes("TERMINAL-ONE") && callText(c).includes("TERMINAL-TWO")).toBe(false);
  });
});

describe("reports while the leader is busy", () => {
  it("an intermediate and a terminal report that arrive during a leader run become two turns, in order", async () => {
    let outboxLines = 0;
    team = await startTeam({
      agents: AGENTS,
      scripts: {
        leader: async (c) => {
          if (c.toolResults.length === 0 && c.lastUser === "KICKOFF") return { toolCalls: [spawnCall("alice", "worker", "ASSIGN-alice")] };
          if (c.toolResults.length > 0 && c.lastUser === "KICKOFF") {
            // Keep the leader busy in this request until alice has written both reports.
            const outbox = join(team!.runtimeDir, "outbox", "alice.jsonl");
            await waitUntil("two records in alice's outbox", async () => {
              outboxLines = existsSync(outbox) ? (await readFile(outbox, "utf8")).split("\n").filter(Boolean).length : 0;
              return outboxLines >= 2;
            });
          }
          return { text: "Noted." };
        },
        alice: (c) =>
          c.toolResults.length === 0
            ? { toolCalls: [sendCall("leader", "PROGRESS-1: found the module")] }
            : { toolCalls: [sendCall("leader", "DONE-2: fixed it", "completed")] },
      },
    });
    const { model, leader } = team;
    await leader.prompt("KICKOFF");
    await model.waitForCall((c) => reportTurn("alice")(c) && c.lastUser.includes("DONE-2"), 30_000);
    expect(outboxLines).toBe(2);

    // One request per report, in arrival order. (Whether the second one still rides in the busy
    // run or starts the next one depends on when the watcher fires; both are one turn each.)
    const turns = model.calls.filter(reportTurn("alice"));
    expect(turns.map((c) => c.lastUser.split("\n")[0])).toEqual([
      '<teammate-report from="alice" status="in_progress">',
      '<teammate-report from="alice" status="completed">',
    ]);
    expect(turns[0]!.lastUser).toContain("PROGRESS-1: found the module");
    expect(turns[1]!.lastUser).toContain("DONE-2: fixed it");
    expect(leader.events.filter((e) => e.type === "agent_start").length).toBeLessThanOrEqual(2);
  });
});

describe("leader mail to an idle teammate", () => {
  it("is queued, costs no model call until then, and wakes the teammate with the role prompt and the mail", async () => {
    team = await startTeam({
      agents: AGENTS,
      scripts: {
        leader: leaderCommands({
          "SPAWN-BOB": [spawnCall("bob", "worker")],
          "MAIL-BOB": [sendCall("bob", "WAKE-BODY-5e: please summarise the README")],
        }),
        bob: (c) =>
          c.toolResults.length === 0 ? { toolCalls: [sendCall("leader", "BOB-DONE: summarised", "completed")] } : { text: "done" },
      },
    });
    const { model } = team;
    await team.run("SPAWN-BOB");
    await waitStatus(team.runtimeDir, "bob", "idle");
    expect(model.callsOf("bob")).toHaveLength(0);

    await team.run("MAIL-BOB");
    const [sent] = team.toolEnds("send_message");
    expect(sent).toMatchObject({ isError: false, details: { to: "bob", result: "queued" } });
    const report = await model.waitForCall(reportTurn("bob"), 30_000);
    expect(report.lastUser).toContain("BOB-DONE: summarised");
    const first = model.callsOf("bob")[0]!;
    expect(first.lastUser).toContain("ROLE-PROMPT: you are a careful worker.");
    expect(first.lastUser).toContain("You have a new message.");
    expect(first.lastUser).toContain('<teammate-mail from="leader">\nWAKE-BODY-5e: please summarise the README\n</teammate-mail>');
  });
});

describe("peer mail", () => {
  it("an idle spawn costs no model call; alice's peer mail reaches bob's next request and never any leader request", async () => {
    const PEER = "PEER-BODY-7f3a: the schema lives in db/schema.sql";
    team = await startTeam({
      agents: AGENTS,
      scripts: {
        leader: leaderCommands({
          "SPAWN-BOB": [spawnCall("bob", "worker")],
          "SPAWN-ALICE": [spawnCall("alice", "worker", "ASSIGN-alice: tell bob where the schema is")],
        }),
        alice: (c) => {
          if (c.toolResults.length === 0) return { toolCalls: [sendCall("bob", PEER)] };
          if (c.toolResults[0]?.content.startsWith("queued: message to bob")) {
            return { toolCalls: [sendCall("leader", "ALICE-DONE: told bob", "completed")] };
          }
          return { text: `unexpected: ${c.toolResults[0]?.content}` };
        },
        bob: (c) =>
          c.toolResults.length === 0 ? { toolCalls: [sendCall("leader", "BOB-DONE: got the hint", "completed")] } : { text: "done" },
      },
    });
    const { model, leader } = team;

    await team.run("SPAWN-BOB");
    const [bobSpawn] = team.toolEnds("teammate_spawn");
    expect(bobSpawn).toMatchObject({ isError: false, details: { name: "bob", kickoff: false, status: "idle" } });
    expect(bobSpawn!.text).toContain("is idle until messaged");
    // Spawned without a kickoff: bob is ready and idle and has made no model call.
    expect(model.callsOf("bob")).toHaveLength(0);

    await team.run("SPAWN-ALICE");
    const aliceTurn = await model.waitForCall(reportTurn("alice"), 30_000);
    const bobTurn = await model.waitForCall(reportTurn("bob"), 30_000);
    expect(aliceTurn.lastUser).toContain("ALICE-DONE: told bob");
    expect(bobTurn.lastUser).toContain("BOB-DONE: got the hint");

    // Bob's first model request is the wake that carries alice's mail (and his role prompt).
    const bobCalls = model.callsOf("bob");
    expect(bobCalls.length).toBeGreaterThanOrEqual(1);
    expect(bobCalls[0]!.lastUser).toContain(`<teammate-mail from="alice">\n${PEER}\n</teammate-mail>`);
    expect(bobCalls[0]!.lastUser).toContain("ROLE-PROMPT: you are a careful worker.");
    expect(model.callsOf("alice")[1]!.toolResults[0]!.content).toBe("queued: message to bob.");

    // Once the leader has handled both reports, no leader request ever showed the peer body.
    await leader.waitForEvent(() => leader.customMessages("teammate-report").length >= 2);
    const leaderCalls = model.callsOf("leader");
    expect(leaderCalls.length).toBeGreaterThanOrEqual(6);
    for (const c of leaderCalls) expect(callText(c)).not.toContain("PEER-BODY-7f3a");
    for (const m of leader.customMessages()) expect(m.content).not.toContain("PEER-BODY-7f3a");
  });
});

describe("leader steering", () => {
  it("a leader send_message to a working teammate returns steered and reaches its next model request", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    team = await startTeam({
      agents: AGENTS,
      scripts: {
        leader: leaderCommands({
          SPAWN: [spawnCall("alice", "worker", "ASSIGN-alice: read the README slowly")],
          STEER: [sendCall("alice", "STEER-BODY-91c: also check the license")],
        }),
        alice: async (c) => {
          if (!c.lastUser.includes("STEER-BODY")) {
            // Alice stays in her first model request (working) until the leader has steered her.
            await Promise.race([gate, new Promise((r) => setTimeout(r, 20_000))]);
            return { toolCalls: [{ name: "read", arguments: { path: "README.md" } }] };
          }
          return { toolCalls: [sendCall("leader", "ALICE-DONE after steer", "completed")] };
        },
      },
    });
    const { model, leader } = team;
    await team.run("SPAWN");
    const first = await model.waitForCall((c) => c.agent === "alice", 30_000);
    expect(first.lastUser).toContain("ASSIGN-alice");

    await leader.prompt("STEER");
    const [steer] = await team.waitToolEnds("send_message", 1);
    release();
    expect(steer).toMatchObject({ isError: false, details: { to: "alice", result: "steered" } });
    expect(steer!.text).toMatch(/^steered: message to alice\./);

    const report = await model.waitForCall(reportTurn("alice"), 30_000);
    expect(report.lastUser).toContain("ALICE-DONE after steer");
    const aliceCalls = model.callsOf("alice");
    expect(aliceCalls).toHaveLength(2);
    // Not in the request she was working on, but in her next one, from the leader.
    expect(callText(aliceCalls[0]!)).not.toContain("STEER-BODY-91c");
    // The steer follows the result of the tool call she was making when it arrived.
    expect(aliceCalls[1]!.lastUser).toBe('<teammate-mail from="leader">\nSTEER-BODY-91c: also check the license\n</teammate-mail>');
    expect(aliceCalls[1]!.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "user"]);
    expect(callText(aliceCalls[1]!)).toContain("# scripted project");
  });
});

describe("unknown recipient", () => {
  it("a worker's send_message to an unknown name errors with the living names and writes no file", async () => {
    team = await startTeam({
      agents: AGENTS,
      scripts: {
        leader: leaderCommands({
          "SPAWN-BOB": [spawnCall("bob", "worker")],
          "SPAWN-ALICE": [spawnCall("alice", "worker", "ASSIGN-alice: greet carol")],
        }),
        alice: (c) => {
          if (c.toolResults.length === 0) return { toolCalls: [sendCall("carol", "HELLO-CAROL")] };
          return { toolCalls: [sendCall("leader", "ALICE-DONE: carol is unknown", "completed")] };
        },
      },
    });
    const { model, runtimeDir } = team;
    await team.run("SPAWN-BOB");
    await team.run("SPAWN-ALICE");
    const second = await model.waitForCall((c) => c.agent === "alice" && c.toolResults.length > 0, 30_000);
    const error = second.toolResults[0]!.content;
    expect(error).toContain('send_message: to: "carol" is not a living teammate');
    expect(error).toContain("Living teammates: bob;");
    expect(error).toContain("Nothing was sent.");
    await model.waitForCall(reportTurn("alice"), 30_000);

    // The runtime dir is the one the product uses (it holds the roster), and it has no inbox file
    // for carol; nobody mailed bob either, so the inbox dir is empty.
    expect(existsSync(join(runtimeDir, "roster.json"))).toBe(true);
    expect(existsSync(join(runtimeDir, "inbox"))).toBe(true);
    expect(await listFiles(join(runtimeDir, "inbox"))).toEqual([]);
    const files = await listFiles(runtimeDir);
    expect(files.filter((f) => f.toLowerCase().includes("carol"))).toEqual([]);
    expect(files).toContain("outbox/alice.jsonl");
    for (const c of model.callsOf("bob")) expect(callText(c)).not.toContain("HELLO-CAROL");
  });
});
