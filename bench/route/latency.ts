/**
 * Write → delivered latency through the real harness: records are appended exactly as a worker's
 * `send_message` appends them (same helpers, same files), and the clock stops in the harness
 * signal that marks delivery (`mail_delivered` for peer mail, `delivery` for reports).
 */
import {
  appendInboxRecord,
  appendOutboxRecord,
  makeInboxRecord,
  makeOutboxRecord,
  type InboxRecord,
  type OutboxRecord,
} from "../../src/mail/index.ts";
import type { Hit, Via } from "./probe.ts";
import { waitUntil } from "./stats.ts";
import type { Team } from "./team.ts";

/**
 * A record that was not delivered within this budget counts as lost. These records are appended by
 * this process, not by a teammate's send_message, so only the watch can deliver them (the harness's
 * event-driven safety net hears of a teammate's sends only).
 */
const DELIVERY_BUDGET_MS = 15_000;

/** Samples of one run. */
export interface LatencyRun {
  label: string;
  /** ms from just before the append to the harness callback, one per delivered record. */
  samples: number[];
  /** Mail only: write → the harness sent the `steer`/`prompt` command (watch, cursor read, routing). */
  harnessSamples: number[];
  /** Mail only: command sent → the child's success response (pipe round trip and pi's own preflight). */
  childSamples: number[];
  lost: number;
  via: Partial<Record<Via, number>>;
  /** Harness callbacks that carried these records (fewer than records = batched). */
  batches: number;
  elapsedMs: number;
}

interface Sent {
  id: string;
  t0: number;
}

function summarise(label: string, sent: Sent[], hits: (Hit | undefined)[], elapsedMs: number): LatencyRun {
  const run: LatencyRun = { label, samples: [], harnessSamples: [], childSamples: [], lost: 0, via: {}, batches: 0, elapsedMs };
  const batchTimes = new Set<number>();
  hits.forEach((hit, i) => {
    if (!hit) {
      run.lost += 1;
      return;
    }
    run.samples.push(hit.t - sent[i]!.t0);
    if (hit.sentAt !== undefined) {
      run.harnessSamples.push(hit.sentAt - sent[i]!.t0);
      run.childSamples.push(hit.t - hit.sentAt);
    }
    run.via[hit.via] = (run.via[hit.via] ?? 0) + 1;
    batchTimes.add(hit.t);
  });
  run.batches = batchTimes.size;
  return run;
}

/** Appends one record, timing from just before the append. */
async function send<R extends { id: string }>(append: (r: R) => Promise<void>, record: R): Promise<Sent> {
  const t0 = performance.now();
  await append(record);
  return { id: record.id, t0 };
}

/**
 * Paced: one record at a time, the next only after the previous was delivered and `ready()`
 * holds again (e.g. every recipient idle again after the model turn the wake started).
 */
async function paced<R extends { id: string }>(
  team: Team,
  label: string,
  count: number,
  make: (i: number) => { record: R; append: (r: R) => Promise<void> },
  ready: () => boolean,
): Promise<LatencyRun> {
  const sent: Sent[] = [];
  const hits: (Hit | undefined)[] = [];
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    await waitUntil(ready, `${label}: ready before message ${i}`);
    const { record, append } = make(i);
    const s = await send(append, record);
    sent.push(s);
    hits.push(await team.probe.wait(s.id, DELIVERY_BUDGET_MS));
  }
  return summarise(label, sent, hits, performance.now() - start);
}

/**
 * Burst: all records appended back to back, then all awaited. After each append the loop gives
 * the event loop one turn (setImmediate): the harness shares this process, and appends are
 * synchronous calls, so without it the harness would see nothing until the whole burst was
 * written; in a team every writer is another process.
 */
async function burst<R extends { id: string }>(
  team: Team,
  label: string,
  count: number,
  make: (i: number) => { record: R; append: (r: R) => Promise<void> },
): Promise<LatencyRun> {
  const sent: Sent[] = [];
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const { record, append } = make(i);
    sent.push(await send(append, record));
    await new Promise((r) => setImmediate(r));
  }
  const hits = await Promise.all(sent.map((s) => team.probe.wait(s.id, DELIVERY_BUDGET_MS)));
  return summarise(label, sent, hits, performance.now() - start);
}

function peerMail(team: Team, from: string, to: string, i: number, tag: string): { record: InboxRecord; append: (r: InboxRecord) => Promise<void> } {
  const sender = team.member(from);
  const key = team.harness.keys.keyOf(sender.name, sender.spawnId);
  const record = makeInboxRecord({ from: sender.name, fromSpawnId: sender.spawnId, to, body: `${tag} peer message ${i} from ${from}: please have a look at item ${i}.` }, Date.now(), key);
  return { record, append: (r) => appendInboxRecord(team.layout.inbox(to), r) };
}

function report(team: Team, from: string, i: number, tag: string): { record: OutboxRecord; append: (r: OutboxRecord) => Promise<void> } {
  const m = team.member(from);
  const key = team.harness.keys.keyOf(m.name, m.spawnId)!;
  const record = makeOutboxRecord({ from: m.name, spawnId: m.spawnId, status: "in_progress", body: `${tag} progress ${i}: step ${i} done, continuing.` }, key);
  return { record, append: (r) => appendOutboxRecord(team.layout.outbox(from), r) };
}

/**
 * Peer mail to idle teammates, paced: each message wakes its recipient (a `prompt` the child
 * accepts), whose scripted model answers at once; the next message is written only when every
 * recipient is idle again, so the model turn is never inside a measured interval. Recipients
 * take turns so no single teammate's context grows to 1,000 turns.
 */
export function peerWakePaced(team: Team, from: string, recipients: string[], count: number): Promise<LatencyRun> {
  return paced(team, "peer → idle teammate (wake), paced", count,
    (i) => peerMail(team, from, recipients[i % recipients.length]!, i, "wake"),
    () => recipients.every((r) => team.quiet(r)));
}

/**
 * Holds `name` in a model call that does not return, so it stays `working` and mail reaches it
 * by `steer`. Returns once the held call has arrived.
 */
export async function keepWorking(team: Team, name: string): Promise<void> {
  team.desk.hold(name);
  await team.harness.sendFromLeader({ to: name, message: "Start on the long task; keep going until told otherwise." });
  await waitUntil(() => team.desk.heldCount(name) > 0 && team.member(name).status === "working", `${name} to be working`);
}

/** Answers the held call and waits until `name` is idle again. */
export async function letRest(team: Team, name: string): Promise<void> {
  team.desk.release(name);
  // Pi feeds the queued steers to the model one per turn (one-at-a-time): some 1,600 turns after
  // the two steer runs, slower as the context grows (about 60 s on 2 cores).
  await waitUntil(() => team.quiet(name), `${name} to settle`, 240_000);
}

/** Peer mail to a working teammate, paced: each message is steered into the child. */
export function peerSteerPaced(team: Team, from: string, to: string, count: number): Promise<LatencyRun> {
  return paced(team, "peer → working teammate (steer), paced", count, (i) => peerMail(team, from, to, i, "steer"),
    () => !team.member(to).sending);
}

/** Peer mail to a working teammate, burst. */
export function peerSteerBurst(team: Team, from: string, to: string, count: number): Promise<LatencyRun> {
  return burst(team, "peer → working teammate (steer), burst", count, (i) => peerMail(team, from, to, i, "burst"));
}

/** Intermediate reports (`in_progress`, all admitted) from an idle teammate, paced. */
export function reportsPaced(team: Team, from: string, count: number): Promise<LatencyRun> {
  return paced(team, "report → leader turn, paced", count, (i) => report(team, from, i, "paced"), () => true);
}

/** Intermediate reports, burst. */
export function reportsBurst(team: Team, from: string, count: number): Promise<LatencyRun> {
  return burst(team, "report → leader turn, burst", count, (i) => report(team, from, i, "burst"));
}
