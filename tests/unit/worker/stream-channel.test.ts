/**
 * The teammate's end of the stream transport on a fake Pi: records go out as custom entries, the
 * leader's answers come in through the /pi-teams-stream command and settle the waiting call.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { describe, expect, it } from "vitest";
import { TeamError } from "../../../src/errors.ts";
import { STREAM_COMMAND, STREAM_ENTRY_TYPE, streamCommandText, type StreamRecord } from "../../../src/mail/stream-wire.ts";
import { streamChannel } from "../../../src/worker/channel.ts";
import { StreamLink } from "../../../src/worker/stream-link.ts";

function fakePi() {
  const sent: StreamRecord[] = [];
  let command: ((args: string) => Promise<void>) | undefined;
  const pi = {
    appendEntry: (type: string, data: StreamRecord) => {
      expect(type).toBe(STREAM_ENTRY_TYPE);
      sent.push(data);
    },
    registerCommand: (name: string, o: { handler: (args: string) => Promise<void> }) => {
      expect(name).toBe(STREAM_COMMAND);
      command = o.handler;
    },
  } as unknown as ExtensionAPI;
  const leader = (text: string) => command!(text.replace(`/${STREAM_COMMAND} `, ""));
  return { pi, sent, leader };
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
});
