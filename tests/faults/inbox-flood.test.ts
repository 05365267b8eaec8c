/**
 * Fault suite, case 5: a 10,000-message flood into one teammate's inbox. The test process is
 * the flooding peer: it appends 10,000 valid peer records from teammate bob (his real spawn id,
 * from roster.json) to alice's inbox with the product's own appender, as fast as it can. All
 * must reach alice's model once each and in order, the leader's model must not get a turn, and
 * the leader's memory stays bounded: a probe extension in the leader samples its RSS and heap
 * every 100 ms (a full GC before every 10th sample).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { appendInboxRecord, makeInboxRecord, readRosterFile } from "../../src/mail/index.ts";
import { agentFile } from "../support/leader.ts";
import type { ModelCall } from "../support/scripted-model.ts";
import { spawnCall, startTeam, waitStatus, type Team } from "../support/team.ts";
import { countById, FIGURES_DIR, recordFigures, secondsSince } from "./support/figures.ts";
import { mailInCall } from "./support/mail.ts";
import { pollUntil, waitQuiet } from "./support/waits.ts";
import type { MemorySample } from "./fixtures/memory-probe.ts";

const FLOOD = Number(process.env.FAULTS_FLOOD ?? 10_000);
/** Retained heap the flood may leave behind in the leader (after a full GC). */
const HEAP_BOUND_MIB = 32;
/** RSS the leader may gain at its peak during the flood. */
const RSS_BOUND_MIB = 128;
const PROBE = new URL("./fixtures/memory-probe.ts", import.meta.url).pathname;
const AGENTS = {
  "sink.md": agentFile("sink", "You read your mail.", { tools: "read", model: "scripted/scripted-big" }),
  "worker.md": agentFile("worker", "You are a worker.", { tools: "read" }),
};
const MiB = 1024 * 1024;

let team: Team | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
});

/** The probe's samples so far. */
function samples(file: string): MemorySample[] {
  try {
    return readFileSync(file, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as MemorySample);
  } catch {
    return [];
  }
}

/**
 * Where the delivered order first differs from the append order, said in words: which record
 * came late and in which model request it and its neighbours first appeared. Undefined when in order.
 */
function orderBreak(calls: readonly ModelCall[], ids: readonly string[], seen: readonly string[], idOf: ReadonlyMap<string, string>): string | undefined {
  const at = seen.findIndex((id, i) => id !== ids[i]);
  if (at < 0) return undefined;
  const bodyOf = new Map([...idOf].map(([b, id]) => [id, b]));
  const firstCall = (id: string | undefined) => calls.findIndex((c) => mailInCall(c).some((m) => idOf.get(m.body) === id));
  const late = ids[at]!;
  return `${bodyOf.get(late)} came after ${bodyOf.get(seen[at]!)}: first in model request ${firstCall(late)} of the flood, ${bodyOf.get(seen[at]!)} in request ${firstCall(seen[at])}, ${bodyOf.get(ids[at - 1]!) ?? "-"} in request ${firstCall(ids[at - 1])}`;
}

describe("inbox flood", () => {
  // SKIPPED, test defect: the host appends unsealed records in bob's name, and since seals
  // (src/mail/seal.ts) the leader rightly refuses every one, so alice never sees the flood.
  // Fix: have teammate bob flood through send_message (200 calls per answer) and take the append
  // order from the inbox file. Remove `.skip` then.
  it.skip(`${FLOOD} messages into one inbox: all delivered once, in order, leader memory bounded, no leader turn`, async () => {
    const t0 = Date.now();
    const memFile = join(FIGURES_DIR, "..", `flood-memory-${process.pid}.jsonl`);
    team = await startTeam({
      agents: AGENTS,
      leaderEnv: { PI_TEAMMATE_COMPACT_AT: "0", NODE_OPTIONS: "--expose-gc", FAULTS_MEMORY_FILE: memFile },
      leaderArgs: ["--no-session", "-e", PROBE],
      // Ten thousand mails are about 250K tokens by the scripted model's count: a large window, no compaction.
      envOptions: { settings: { compaction: { enabled: false } }, extraModels: [{ id: "scripted-big", contextWindow: 8_000_000, maxTokens: 16384 }] },
      scripts: {
        leader: (c) => (c.toolResults.length === 0 && c.lastUser === "SETUP" ? { toolCalls: [spawnCall("alice", "sink"), spawnCall("bob", "worker")] } : { text: "Noted." }),
      },
    });
    const t = team;
    await t.run("SETUP", 60_000);
    await waitStatus(t.runtimeDir, "alice", "idle");
    await waitStatus(t.runtimeDir, "bob", "idle");
    await waitQuiet(t.model, t.runtimeDir);
    await pollUntil("two full-GC samples of the leader", () => samples(memFile).filter((s) => s.gc).length >= 2, 15_000);
    const before = samples(memFile);
    const baseHeap = before.filter((s) => s.gc).at(-1)!.heapUsed;
    const baseRss = before.at(-1)!.rss;
    const leaderCalls = t.model.callsOf("leader").length;

    const roster = await readRosterFile(join(t.runtimeDir, "roster.json"));
    if (!roster.ok) throw new Error(roster.message);
    const bob = roster.value.teammates.find((m) => m.name === "bob")!;
    const inbox = join(t.runtimeDir, "inbox", "alice.jsonl");
    const ids: string[] = [];
    const idOf = new Map<string, string>();
    const tFlood = Date.now();
    const aliceBefore = t.model.callsOf("alice").length;
    for (let i = 0; i < FLOOD; i++) {
      const record = makeInboxRecord({ from: "bob", fromSpawnId: bob.spawnId, to: "alice", body: `F-${String(i).padStart(5, "0")}` });
      await appendInboxRecord(inbox, record);
      ids.push(record.id);
      idOf.set(record.body, record.id);
    }
    const writeSeconds = secondsSince(tFlood);
    await pollUntil("alice's model to see the whole flood", () => mailInCall(t.model.callsOf("alice").at(-1)).length >= FLOOD, 180_000);
    const deliverSeconds = secondsSince(tFlood);
    await waitQuiet(t.model, t.runtimeDir);
    const settledAt = Date.now();
    await pollUntil("two full-GC samples after the flood", () => samples(memFile).filter((s) => s.gc && s.at > settledAt).length >= 2, 15_000);

    const all = samples(memFile);
    const during = all.filter((s) => s.at >= tFlood);
    const afterHeap = all.filter((s) => s.gc && s.at > settledAt).at(-1)!.heapUsed;
    const peakRss = Math.max(...during.map((s) => s.rss));
    const peakHeap = Math.max(...during.map((s) => s.heapUsed));
    const maxLag = Math.max(...during.map((s) => s.lag));
    const seen = mailInCall(t.model.callsOf("alice").at(-1)).map((m) => idOf.get(m.body) ?? `unknown:${m.body}`);
    const counts = countById(ids, seen);
    const inOrder = JSON.stringify(seen) === JSON.stringify(ids);
    const order = orderBreak(t.model.callsOf("alice").slice(aliceBefore), ids, seen, idOf);
    const wakes = t.model.callsOf("alice").length - aliceBefore;
    const mib = (b: number) => Math.round((b / MiB) * 10) / 10;

    recordFigures("inbox-flood", {
      order: 5,
      title: "10,000-message inbox flood into one teammate (case 5)",
      seconds: secondsSince(t0),
      lines: [
        `${FLOOD} peer records appended to alice's inbox in ${writeSeconds} s by one writer; all in alice's model after ${deliverSeconds} s, over ${wakes} model requests (wakes and steers)`,
        `delivered by record id: ${counts.expected - counts.lost.length} of ${counts.expected}; lost ${counts.lost.length}, duplicated ${counts.duplicated.length}, unknown ${counts.foreign.length}; in append order: ${inOrder}${order ? ` (${order})` : ""}`,
        `leader: model turns during the flood ${t.model.callsOf("leader").length - leaderCalls}; RSS ${mib(baseRss)} MiB before, peak ${mib(peakRss)} MiB (+${mib(peakRss - baseRss)}); heap after full GC ${mib(baseHeap)} MiB before, ${mib(afterHeap)} MiB after (+${mib(afterHeap - baseHeap)}), peak ${mib(peakHeap)} MiB; longest event-loop stall ${maxLag} ms`,
        `bounds asserted: retained heap growth < ${HEAP_BOUND_MIB} MiB, peak RSS growth < ${RSS_BOUND_MIB} MiB`,
      ],
    });

    expect(counts.lost).toEqual([]);
    expect(counts.duplicated).toEqual([]);
    expect(counts.foreign).toEqual([]);
    expect(inOrder).toBe(true);
    expect(t.model.callsOf("leader").length).toBe(leaderCalls);
    expect(mib(afterHeap - baseHeap)).toBeLessThan(HEAP_BOUND_MIB);
    expect(mib(peakRss - baseRss)).toBeLessThan(RSS_BOUND_MIB);
  });
});
