/**
 * The teammate's end of the stream transport on a fake Pi: records go out as custom entries, the
 * leader's answers come in through the /pi-teams-stream command and settle the waiting call.
 */
import { describe, expect, it } from "vitest";
import { TeamError } from "../../../src/errors.ts";
import { streamCommandText } from "../../../src/mail/stream-wire.ts";
import { streamChannel } from "../../../src/worker/channel.ts";
import { StreamLink } from "../../../src/worker/stream-link.ts";
import { fakePipePi } from "../../support/fake-pipe.ts";

/** The leader's side runs `/pi-teams-stream <json>` lines, as Pi does from the child's stdin. */
function fakePi() {
  const { pi, sent, prompt } = fakePipePi();
  return { pi, sent, leader: prompt };
}

const me = { role: "worker" as const, name: "alice", spawnId: "alice-1", runtimeDir: "/nowhere/rt", boardDir: "/nowhere/board", leaderPid: 1, transport: "stream" as const };

describe("the stream channel", () => {
  it("a report is one entry with no sender in it; it needs no answer", async () => {
    const { pi, sent } = fakePi();
    const channel = streamChannel(me, new StreamLink(pi));
    const id = await channel.report("done", "completed");
    expect(sent).toEqual([{ kind: "report", id, body: "done", status: "completed" }]);
  });

  it("mail waits for the leader's answer: the name as spawned, or the refusal as an invalid_input error", async () => {
    const { pi, sent, leader } = fakePi();
    const channel = streamChannel(me, new StreamLink(pi));
    const ok = channel.mail("bob", "hi");
    await leader(streamCommandText({ kind: "answer", id: sent[0]!.id, ok: true, text: "Bob" }));
    expect(await ok).toEqual({ to: "Bob", id: sent[0]!.id });
    const refused = channel.mail("carol", "hi");
    await leader(streamCommandText({ kind: "answer", id: sent[1]!.id, ok: false, text: 'send_message: to: "carol" is not a living teammate.' }));
    await expect(refused).rejects.toMatchObject({ code: "invalid_input", message: expect.stringContaining("carol") });
  });

  it("refuses a message over the size limit without sending it; the recipient is the leader's to judge", async () => {
    const { pi, sent } = fakePi();
    const channel = streamChannel(me, new StreamLink(pi));
    await expect(channel.mail("bob", "x".repeat(200_000))).rejects.toBeInstanceOf(TeamError);
    expect(sent).toEqual([]);
    void channel.mail("Alice", "hi").catch(() => undefined);
    expect(sent.map((r) => r.kind === "mail" && r.to)).toEqual(["Alice"]);
  });

  it("an intent returns the leader's decision; the roster is the last one the leader sent", async () => {
    const { pi, sent, leader } = fakePi();
    const channel = streamChannel(me, new StreamLink(pi));
    expect((await channel.roster()).ok).toBe(false);
    const decided = channel.decide({ action: "claim" });
    const decision = { ok: true, message: "Claimed task t: T.", taskId: "t" };
    await leader(streamCommandText({ kind: "answer", id: sent[0]!.id, ok: true, text: decision.message, decision }));
    expect(await decided).toEqual(decision);
    await leader(streamCommandText({ kind: "roster", roster: { v: 1, updatedAt: 5, teammates: [] } }));
    expect(await channel.roster()).toEqual({ ok: true, value: { v: 1, updatedAt: 5, teammates: [] } });
  });

  it("ignores, with a note, a command line that is not the leader's wire format", async () => {
    const notes: string[] = [];
    const { pi } = fakePi();
    const link = new StreamLink(pi, (l) => notes.push(l));
    link.receive("{ not json");
    link.receive(JSON.stringify({ kind: "answer", id: 7 }));
    expect(notes).toHaveLength(2);
  });

  it("a request that gets no answer times out", async () => {
    const { pi } = fakePi();
    const link = new StreamLink(pi);
    await expect(link.request({ kind: "board_view", id: "v1" }, 20)).rejects.toMatchObject({ code: "timeout" });
  });

  it("a call whose request cannot be sent fails at once with that error; an answer after it settles nothing", async () => {
    const notes: string[] = [];
    const { pi, leader } = fakePi();
    const link = new StreamLink(pi, (l) => notes.push(l));
    const t0 = Date.now();
    await expect(link.answerTo("i1", () => Promise.reject(new TeamError("io_error", "claims/ is not writable")), 5000)).rejects.toMatchObject({ code: "io_error" });
    expect(Date.now() - t0).toBeLessThan(1000);
    await leader(streamCommandText({ kind: "answer", id: "i1", ok: true, text: "late" })); // nobody waits: ignored
    const again = link.answerTo("i2", () => undefined, 5000);
    await leader(streamCommandText({ kind: "answer", id: "i2", ok: true, text: "mine" }));
    expect((await again).text).toBe("mine");
    expect(notes).toEqual([]);
  });
});
