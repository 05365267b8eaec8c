/**
 * A file teammate's claim is answered on its own pipe (issue 19, item 5): its worker publishes a
 * sealed intent file, the leader's BoardHost applies it, and the decision goes back through the
 * one answer path of both transports (StreamRecords.decided) as `/pi-teams-stream <json>` on that
 * teammate's RPC stdin, where the worker's waiting call takes it. No decision file is written,
 * and no other teammate's pipe carries it. Real board dir, BoardHost, StreamRecords, RpcChild
 * (over in-memory pipes) and worker StreamLink; only Pi is played by the test.
 */
import { TeamBus } from "../../../src/team/bus.ts";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BoardHost } from "../../../src/boardhost/board-host.ts";
import type { BoardMate } from "../../../src/boardhost/board-host-types.ts";
import { StreamRecords } from "../../../src/harness/stream-records.ts";
import { SpawnKeys } from "../../../src/mail/index.ts";
import { STREAM_COMMAND } from "../../../src/mail/stream-wire.ts";
import { boardLayoutAt } from "../../../src/store/index.ts";
import type { Member } from "../../../src/team/member.ts";
import { requestDecision } from "../../../src/worker/decision.ts";
import { StreamLink } from "../../../src/worker/stream-link.ts";
import { fakeChild, type Wire } from "../../support/fake-rpc-child.ts";
import { fakePipePi } from "../../support/fake-pipe.ts";
import { useTempDirs } from "../store/tmp.ts";

const tempDir = useTempDirs();
let host: BoardHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

/** A living file teammate whose RPC child is a fake over in-memory pipes. */
function fileMate(name: string) {
  const child = fakeChild();
  const member = { name, spawnId: `${name}-1`, living: true, transport: "files", proc: { child: child.client } } as unknown as Member;
  const mate: BoardMate = { name, spawnId: `${name}-1`, idle: true, hasAssignment: false, assignmentResources: undefined, roleVerify: undefined };
  return { child, member, mate };
}

/** Plays Pi on `child`: answers the next command it is sent as an extension command Pi ran, and returns it. */
async function nextPrompt(child: ReturnType<typeof fakeChild>): Promise<Wire> {
  const command = await child.nextWritten();
  child.reply({ id: command.id, type: "response", command: command.type, success: true, data: { disposition: "handled" } });
  return command;
}

/** A board with "only-task", alice and bob as living file teammates, and alice's worker side. */
async function team() {
  const root = await tempDir();
  const layout = boardLayoutAt(join(root, "board"));
  const keys = new SpawnKeys();
  const aliceKey = keys.issue("alice", "alice-1");
  keys.issue("bob", "bob-1");
  const alice = fileMate("alice");
  const bob = fileMate("bob");
  const members = [alice.member, bob.member];
  const notes: string[] = [];
  const records = new StreamRecords({
    keys, now: Date.now, living: (n) => members.find((m) => m.name === n), livingNames: () => members.map((m) => m.name),
    enqueue: () => undefined, note: (t) => void notes.push(t), board: () => undefined, peerMail: () => undefined,
  });
  const board = new BoardHost({
    layout, keys, cwd: root, piCli: "pi-not-used", env: {}, mates: () => [alice.mate, bob.mate],
    // As LeaderHarness.answerIntent: the living incarnation the intent's seal names.
    answer: (to, id, decision) => {
      const m = members.find((x) => x.name === to.name && x.spawnId === to.spawnId);
      if (m) records.decided(m, id, decision);
    },
    bus: new TeamBus(), teamModel: () => undefined, note: (t) => void notes.push(t), paceMs: 0, intentGraceMs: 50,
  });
  host = board;
  await board.start();
  board.create({ subject: "Only task" }, "test board");
  // Alice's worker side: its pipe link; its calls publish sealed intent files.
  const worker = fakePipePi();
  const channel = { layout, key: aliceKey, link: new StreamLink(worker.pi) };
  /** Alice's call, carried through: the leader's prompt on her stdin is run as Pi runs it. */
  const call = async (intent: Omit<Parameters<typeof requestDecision>[1], "from" | "spawnId">) => {
    const decided = requestDecision(channel, { from: "alice", spawnId: "alice-1", ...intent }, 5000);
    const prompt = await nextPrompt(alice.child);
    expect(prompt).toMatchObject({ type: "prompt", streamingBehavior: "steer" }); // at once, even mid-run
    expect(String(prompt.message).startsWith(`/${STREAM_COMMAND} {`)).toBe(true);
    await worker.prompt(String(prompt.message));
    return decided;
  };
  return { board, layout, bob, notes, call };
}

describe("a file teammate's board call, answered on its pipe", () => {
  it("the claim's decision reaches alice's waiting call through her stdin, never bob's, and no file", async () => {
    const t = await team();
    const decision = await t.call({ action: "claim", taskId: "only-task" });
    expect(decision).toMatchObject({ ok: true, taskId: "only-task" });
    expect(decision.message).toContain("Claimed task only-task");
    expect(t.board.board.tasks.get("only-task")?.state).toMatchObject({ status: "claimed", holding: { holder: { name: "alice", spawnId: "alice-1" } } });
    expect(t.bob.child.written).toEqual([]);
    expect(await readdir(t.layout.root)).not.toContain("decisions");
    expect(t.notes.filter((n) => /refused|could not/.test(n))).toEqual([]);
  });

  it("so does a submission's, and a rejection's, with its code", async () => {
    const t = await team();
    expect(await t.call({ action: "submit", taskId: "only-task", status: "completed", result: "done" })).toMatchObject({ ok: false, reason: "not_claimed" });
    await t.call({ action: "claim", taskId: "only-task" });
    const submitted = await t.call({ action: "submit", taskId: "only-task", status: "completed", result: "done" });
    expect(submitted).toMatchObject({ ok: true, taskId: "only-task" });
    expect(t.board.board.tasks.get("only-task")?.state.status).toBe("completed");
    expect(t.bob.child.written).toEqual([]);
  });
});
