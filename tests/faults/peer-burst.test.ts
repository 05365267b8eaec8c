/**
 * Fault suite, case 4: eight real teammates each send 200 peer messages as fast as their model
 * can ask (20 send_message calls per reply), round robin to the other seven. Every message must
 * reach its recipient's model exactly once (counted by record id against the inbox files), in
 * the order the sender's appends landed, and the leader's model must not get a single turn from
 * it (peer mail never enters the leader's context).
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ModelCall, Reply } from "../support/scripted-model.ts";
import { callText, spawnCall, waitStatus, type Team } from "../support/team.ts";
import { countById, recordFigures, secondsSince } from "./support/figures.ts";
import { fileRecords, mailInCall } from "./support/mail.ts";
import { startWorkerTeam } from "./support/team.ts";
import { pollUntil, waitQuiet } from "./support/waits.ts";

const NAMES = ["w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8"];
const PER_SENDER = 200;
const PER_REPLY = 20;
const body = (from: string, k: number): string => `P-${from}-${String(k).padStart(4, "0")}`;
const recipient = (from: string, k: number): string => {
  const others = NAMES.filter((n) => n !== from);
  return others[k % others.length]!;
};

let team: Team | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
});

/** A sender: from its first wake on, the next 20 messages per reply until 200 are sent, then text. */
function sender(sent: Map<string, number>): (c: ModelCall) => Reply {
  return (c) => {
    const k0 = sent.get(c.agent) ?? 0;
    if (k0 >= PER_SENDER) return { text: "done" };
    sent.set(c.agent, k0 + PER_REPLY);
    const calls = Array.from({ length: PER_REPLY }, (_, i) => k0 + i).map((k) => ({
      name: "send_message",
      arguments: { to: recipient(c.agent, k), message: body(c.agent, k) },
    }));
    return { toolCalls: calls };
  };
}

describe("peer mail burst", () => {
  it("8 teammates x 200 peer messages: each delivered exactly once, in per-sender order, no leader turn", async () => {
    const t0 = Date.now();
    const sent = new Map<string, number>();
    const worker = sender(sent);
    team = await startWorkerTeam({
      SPAWN: () => ({ toolCalls: NAMES.map((n) => spawnCall(n, "worker")) }),
      BURST: () => ({ toolCalls: NAMES.map((n) => ({ name: "send_message", arguments: { to: n, message: "GO: send your peer mail" } })) }),
    }, Object.fromEntries(NAMES.map((n) => [n, worker])));
    const t = team;
    await t.run("SPAWN", 90_000);
    for (const n of NAMES) await waitStatus(t.runtimeDir, n, "idle", 30_000);

    await t.run("BURST", 60_000);
    const leaderCalls = t.model.callsOf("leader").length;
    const tBurst = Date.now();
    await pollUntil("every sender to finish", () => NAMES.every((n) => (sent.get(n) ?? 0) >= PER_SENDER), 120_000);
    const inbox = join(t.runtimeDir, "inbox");
    const expectedTo = (n: string) => NAMES.flatMap((s) => Array.from({ length: PER_SENDER }, (_, k) => recipient(s, k))).filter((to) => to === n).length;
    await pollUntil("every recipient's model to have seen its mail", () =>
      NAMES.every((n) => mailInCall(t.model.callsOf(n).at(-1)).filter((m) => m.body.startsWith("P-")).length >= expectedTo(n)), 120_000);
    await waitQuiet(t.model, t.runtimeDir);
    const burstSeconds = secondsSince(tBurst);

    // Written: every record in the inbox files, by record id. Delivered: what each model saw.
    let badLines = 0;
    const written = new Map<string, { id: string; from: string; to: string }>(); // body -> record
    const writtenIds: string[] = [];
    const order = { pairs: 0, inOrder: 0, inSendOrder: 0 };
    const delivered: string[] = [];
    for (const n of NAMES) {
      const file = fileRecords(inbox, n);
      badLines += file.badLines;
      const peer = file.records.filter((r) => r.from !== "leader");
      for (const r of peer) {
        writtenIds.push(r.id);
        written.set(r.body, { id: r.id, from: r.from, to: n });
      }
      const seen = mailInCall(t.model.callsOf(n).at(-1)).filter((m) => m.from !== "leader");
      for (const m of seen) delivered.push(written.get(m.body)?.id ?? `unknown:${m.body}`);
      for (const s of NAMES.filter((x) => x !== n)) {
        const fileOrder = peer.filter((r) => r.from === s).map((r) => r.body);
        const seenOrder = seen.filter((m) => m.from === s).map((m) => m.body);
        order.pairs++;
        if (JSON.stringify(fileOrder) === JSON.stringify(seenOrder)) order.inOrder++;
        if (JSON.stringify(seenOrder) === JSON.stringify([...seenOrder].sort())) order.inSendOrder++;
      }
    }
    const bodiesSent = NAMES.flatMap((s) => Array.from({ length: PER_SENDER }, (_, k) => body(s, k)));
    const notWritten = bodiesSent.filter((b) => !written.has(b));
    const idsTwice = writtenIds.length - new Set(writtenIds).size;
    const writtenTwice = writtenIds.length - written.size; // one body in two records: a doubled append
    const counts = countById(writtenIds, delivered);
    const leaderAfter = t.model.callsOf("leader").length;
    const leakedToLeader = t.model.callsOf("leader").filter((c) => callText(c).includes("P-w")).length;

    recordFigures("peer-burst", {
      order: 4,
      title: "Peer mail burst: 8 teammates x 200 messages (case 4)",
      seconds: secondsSince(t0),
      lines: [
        `${bodiesSent.length} messages sent (${PER_REPLY} send_message calls per model reply), ${written.size} records in the inbox files (${notWritten.length} missing, ${writtenTwice} written twice, ${idsTwice} ids reused, ${badLines} unreadable lines)`,
        `delivered by record id: ${counts.expected - counts.lost.length} of ${counts.expected}; lost ${counts.lost.length}, duplicated ${counts.duplicated.length}, unknown ${counts.foreign.length}`,
        `order: ${order.inOrder} of ${order.pairs} sender-recipient pairs received in the order the sender's appends landed; ${order.inSendOrder} of ${order.pairs} also in the model's call order (pi runs the 20 calls of one reply in parallel)`,
        `leader model turns during the burst: ${leaderAfter - leaderCalls}; leader requests showing peer mail: ${leakedToLeader}`,
        `burst delivered in ${burstSeconds} s`,
      ],
    });

    expect(notWritten).toEqual([]);
    expect(writtenTwice).toBe(0);
    expect(idsTwice).toBe(0);
    expect(counts.lost).toEqual([]);
    expect(counts.duplicated).toEqual([]);
    expect(counts.foreign).toEqual([]);
    expect(order.inOrder).toBe(order.pairs);
    expect(leaderAfter).toBe(leaderCalls);
    expect(leakedToLeader).toBe(0);
  });
});
