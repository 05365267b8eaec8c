/**
 * Fault suite, case 5: a 10,000-message flood into one teammate's inbox. Teammate bob is the
 * flooding peer: once the leader tells him to, his scripted model answers with 200 parallel
 * `send_message(to: "alice")` calls per answer, the next 200 after each batch of results, until
 * 10,000 are sent (bodies F-00000, F-00001, ...), so every record is bob's own, sealed with his
 * spawn key. The append order and the record ids come from alice's inbox file as bob's pi wrote
 * it (the leader rotates that file as it reads, so the test holds every generation of it open).
 * All must reach alice's model once each and in append order, the leader must refuse none and
 * its model must not get a turn, and the leader's memory stays bounded: a probe extension in the
 * leader samples its RSS and heap every 100 ms (a full GC before every 10th sample).
 */
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, readSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { agentFile } from "../support/leader.ts";
import type { ModelCall, Reply } from "../support/scripted-model.ts";
import { sendCall, spawnCall, startTeam, waitStatus, type Team } from "../support/team.ts";
import { countById, FIGURES_DIR, recordFigures, secondsSince } from "./support/figures.ts";
import { mailInCall, type FileRecord } from "./support/mail.ts";
import { pollUntil, waitQuiet } from "./support/waits.ts";
import type { MemorySample } from "./fixtures/memory-probe.ts";

const FLOOD = Number(process.env.FAULTS_FLOOD ?? 10_000);
/** Parallel send_message calls per answer of bob's model. */
const PER_ANSWER = 200;
/** Retained heap the flood may leave behind in the leader (after a full GC). */
const HEAP_BOUND_MIB = 32;
/** RSS the leader may gain at its peak during the flood. */
const RSS_BOUND_MIB = 128;
const PROBE = new URL("./fixtures/memory-probe.ts", import.meta.url).pathname;
// Ten thousand mails are about 150K tokens by the scripted model's count in alice's context, and
// bob's 10,000 calls and results about 600K in his: a large window for both, no compaction.
const AGENTS = {
  "sink.md": agentFile("sink", "You read your mail.", { tools: "read", model: "scripted/scripted-big" }),
  "flooder.md": agentFile("flooder", "You send mail.", { tools: "read", model: "scripted/scripted-big" }),
};
const MiB = 1024 * 1024;
const body = (i: number): string => `F-${String(i).padStart(5, "0")}`;

let team: Team | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
});

/** What bob's model has done so far: messages asked for, answers, results that were not "queued". */
interface Flooder {
  sent: number;
  answers: number;
  unqueued: string[];
  /** When the first batch was asked for and when the closing text was given (ms since the epoch). */
  startedAt?: number;
  doneAt?: number;
}

/**
 * Bob's script: on the leader's FLOOD message and after each batch of results, the next
 * {@link PER_ANSWER} `send_message` calls to alice, until FLOOD are sent; then plain text.
 * Every result that is not "queued: message to alice." is kept in `state.unqueued`.
 */
function flooder(state: Flooder): (c: ModelCall) => Reply {
  return (c) => {
    for (const r of c.toolResults) if (!r.content.startsWith("queued: message to alice.")) state.unqueued.push(r.content);
    if (c.toolResults.length === 0 && !c.lastUser.includes("FLOOD")) return { text: "ok" };
    if (state.sent >= FLOOD) {
      state.doneAt ??= Date.now();
      return { text: "done" };
    }
    state.startedAt ??= Date.now();
    const n = Math.min(PER_ANSWER, FLOOD - state.sent);
    const calls = Array.from({ length: n }, (_, i) => sendCall("alice", body(state.sent + i)));
    state.sent += n;
    state.answers += 1;
    return { toolCalls: calls };
  };
}

/**
 * Holds every generation of an append-only file open: the leader's reader renames the inbox away
 * once it has consumed 1 MiB and deletes the renamed file 30 s later, so the test opens the live
 * path every 50 ms and keeps a descriptor per inode it has not seen yet. `records()` reads them
 * all in the order they were live: the file's whole append history, independent of the product.
 */
function holdGenerations(path: string): { records(): (FileRecord & { file: number })[]; close(): void } {
  const fds: number[] = [];
  const inodes = new Set<number>();
  const poll = (): void => {
    let fd: number;
    try {
      fd = openSync(path, "r");
    } catch {
      return; // not yet created, or renamed away and not yet appended to again
    }
    const ino = fstatSync(fd).ino;
    if (inodes.has(ino)) return closeSync(fd);
    inodes.add(ino);
    fds.push(fd);
  };
  poll();
  const timer = setInterval(poll, 50);
  return {
    records() {
      poll();
      return fds.flatMap((fd, file) => {
        const buf = Buffer.alloc(fstatSync(fd).size);
        readSync(fd, buf, 0, buf.length, 0);
        return buf.toString("utf8").split("\n").filter((l) => l.trim() !== "").map((l) => ({ ...(JSON.parse(l) as FileRecord), file }));
      });
    },
    close() {
      clearInterval(timer);
      for (const fd of fds.splice(0)) closeSync(fd);
    },
  };
}

/** The probe's samples so far. */
function samples(file: string): MemorySample[] {
  try {
    return readFileSync(file, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as MemorySample);
  } catch {
    return [];
  }
}

/** The lines of the leader's harness.log that start a refusal ("refused: ..."). */
function refusals(runtimeDir: string): string[] {
  try {
    return readFileSync(join(runtimeDir, "logs", "harness.log"), "utf8").split("\n").filter((l) => l.includes("refused:"));
  } catch {
    return [];
  }
}

/**
 * Where the delivered order first differs from the append order, said in words: which record
 * came late, which generation of the inbox file it was in, and in which model request it and its
 * neighbours first appeared. Undefined when in order.
 */
function orderBreak(calls: readonly ModelCall[], written: readonly (FileRecord & { file: number })[], seen: readonly string[], idOf: ReadonlyMap<string, string>): string | undefined {
  const ids = written.map((r) => r.id);
  const at = seen.findIndex((id, i) => id !== ids[i]);
  if (at < 0) return undefined;
  const byId = new Map(written.map((r) => [r.id, r]));
  const name = (id: string | undefined) => (id && byId.has(id) ? `${byId.get(id)!.body} (file ${byId.get(id)!.file})` : "-");
  const firstCall = (id: string | undefined) => calls.findIndex((c) => mailInCall(c).some((m) => idOf.get(m.body) === id));
  const late = ids[at]!;
  return `${name(late)} came after ${name(seen[at])}: first in model request ${firstCall(late)} of the flood, ${name(seen[at])} in request ${firstCall(seen[at])}, ${name(ids[at - 1])} in request ${firstCall(ids[at - 1])}`;
}

describe("inbox flood", () => {
  it(`${FLOOD} messages from teammate bob into alice's inbox: all delivered once, in order, none refused, leader memory bounded, no leader turn`, async () => {
    const t0 = Date.now();
    const memFile = join(FIGURES_DIR, "..", `flood-memory-${process.pid}.jsonl`);
    mkdirSync(join(FIGURES_DIR, ".."), { recursive: true }); // the probe appends, it does not create dirs
    const bob: Flooder = { sent: 0, answers: 0, unqueued: [] };
    team = await startTeam({
      agents: AGENTS,
      // The peer-pair cap (W19) is off: 10,000 messages of one pair is the flood this case measures.
      // The model-call rate is off too: alice answers the flood in about 90 runs a minute (issue 18).
      leaderEnv: { PI_TEAMMATE_COMPACT_AT: "0", PI_TEAMMATE_PEER_PAIR_CAP: "0", PI_TEAMMATE_LOOP_CALLS: "0", NODE_OPTIONS: "--expose-gc", FAULTS_MEMORY_FILE: memFile },
      leaderArgs: ["--no-session", "-e", PROBE],
      envOptions: { settings: { compaction: { enabled: false } }, extraModels: [{ id: "scripted-big", contextWindow: 8_000_000, maxTokens: 16384 }] },
      scripts: {
        leader: (c) => {
          if (c.toolResults.length > 0) return { text: "Noted." };
          if (c.lastUser === "SETUP") return { toolCalls: [spawnCall("alice", "sink"), spawnCall("bob", "flooder")] };
          if (c.lastUser === "FLOOD") return { toolCalls: [sendCall("bob", "FLOOD alice with your mail")] };
          return { text: "Noted." };
        },
        bob: flooder(bob),
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

    const inbox = holdGenerations(join(t.runtimeDir, "inbox", "alice.jsonl"));
    try {
      const tFlood = Date.now();
      const aliceBefore = t.model.callsOf("alice").length;
      await t.run("FLOOD", 60_000);
      const leaderCalls = t.model.callsOf("leader").length; // the FLOOD turn itself has settled
      await pollUntil("bob to send the whole flood", () => bob.doneAt !== undefined, 150_000);
      const sendSeconds = Math.round((bob.doneAt! - bob.startedAt!) / 100) / 10;
      const written = inbox.records();
      // A lost message must still leave figures: give up waiting after a while, then count.
      const arrived = await pollUntil("alice's model to see the whole flood", () => mailInCall(t.model.callsOf("alice").at(-1)).length >= FLOOD, 90_000).then(() => true, () => false);
      const deliverSeconds = secondsSince(tFlood);
      await waitQuiet(t.model, t.runtimeDir);
      const settledAt = Date.now();
      await pollUntil("two full-GC samples after the flood", () => samples(memFile).filter((s) => s.gc && s.at > settledAt).length >= 2, 15_000);

      const idOf = new Map(written.map((r) => [r.body, r.id]));
      const ids = written.map((r) => r.id);
      const notWritten = Array.from({ length: FLOOD }, (_, i) => body(i)).filter((b) => !idOf.has(b));
      const writtenTwice = written.length - idOf.size;
      const foreignRecords = written.filter((r) => r.from !== "bob" || r.to !== "alice").length;
      const all = samples(memFile);
      const during = all.filter((s) => s.at >= tFlood);
      const afterHeap = all.filter((s) => s.gc && s.at > settledAt).at(-1)!.heapUsed;
      const peakRss = Math.max(...during.map((s) => s.rss));
      const peakHeap = Math.max(...during.map((s) => s.heapUsed));
      const maxLag = Math.max(...during.map((s) => s.lag));
      const aliceCalls = t.model.callsOf("alice").slice(aliceBefore);
      const seen = mailInCall(t.model.callsOf("alice").at(-1)).map((m) => idOf.get(m.body) ?? `unknown:${m.body}`);
      const counts = countById(ids, seen);
      const inOrder = JSON.stringify(seen) === JSON.stringify(ids);
      const order = orderBreak(aliceCalls, written, seen, idOf);
      const refused = refusals(t.runtimeDir);
      const leaderTurns = t.model.callsOf("leader").length - leaderCalls;
      const files = new Set(written.map((r) => r.file)).size;
      const mib = (b: number) => Math.round((b / MiB) * 10) / 10;
      const kTokens = (c: ModelCall | undefined) => Math.round(JSON.stringify(c?.messages ?? []).length / 4 / 1000); // the scripted model's count

      recordFigures("inbox-flood", {
        order: 5,
        title: "10,000-message inbox flood into one teammate (case 5)",
        seconds: secondsSince(t0),
        lines: [
          `teammate bob sent ${bob.sent} messages to alice with send_message, ${PER_ANSWER} parallel calls per model answer (${bob.answers} answers), in ${sendSeconds} s; results other than "queued": ${bob.unqueued.length}`,
          `alice's inbox file: ${written.length} records in ${files} file generation(s) (the leader rotates it as it reads); ${notWritten.length} messages missing, ${writtenTwice} written twice, ${foreignRecords} not from bob to alice`,
          `${arrived ? "all" : "NOT all (gave up waiting)"} in alice's model ${deliverSeconds} s after the leader was told to start, over ${aliceCalls.length} model requests (wakes and steers); last request ${kTokens(t.model.callsOf("alice").at(-1))}K tokens for alice, ${kTokens(t.model.callsOf("bob").at(-1))}K for bob (window 8,000K)`,
          `delivered by record id: ${counts.expected - counts.lost.length} of ${counts.expected}; lost ${counts.lost.length}, duplicated ${counts.duplicated.length}, unknown ${counts.foreign.length}; in append order: ${inOrder}${order ? ` (${order})` : ""}; refusals in harness.log: ${refused.length}`,
          `leader: model turns during the flood ${leaderTurns}; RSS ${mib(baseRss)} MiB before, peak ${mib(peakRss)} MiB (+${mib(peakRss - baseRss)}); heap after full GC ${mib(baseHeap)} MiB before, ${mib(afterHeap)} MiB after (+${mib(afterHeap - baseHeap)}), peak ${mib(peakHeap)} MiB; longest event-loop stall ${maxLag} ms`,
          `bounds asserted: retained heap growth < ${HEAP_BOUND_MIB} MiB, peak RSS growth < ${RSS_BOUND_MIB} MiB`,
        ],
      });

      expect(bob.unqueued).toEqual([]);
      expect(notWritten).toEqual([]);
      expect(writtenTwice).toBe(0);
      expect(foreignRecords).toBe(0);
      expect(counts.lost).toEqual([]);
      expect(counts.duplicated).toEqual([]);
      expect(counts.foreign).toEqual([]);
      expect(inOrder, order).toBe(true);
      expect(refused).toEqual([]);
      expect(leaderTurns).toBe(0);
      expect(mib(afterHeap - baseHeap)).toBeLessThan(HEAP_BOUND_MIB);
      expect(mib(peakRss - baseRss)).toBeLessThan(RSS_BOUND_MIB);
    } finally {
      inbox.close();
    }
  });
});
