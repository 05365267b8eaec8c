/**
 * Delivery latency through the real leader, measured at the model endpoint, in fresh teammates:
 *
 * - peer mail: a sender's model answers with `send_message` to a peer; from that reply to the
 *   recipient's model request carrying the message (its wake turn). Everything the user waits
 *   for is inside: the sender's pi running the tool (roster read, append), the leader's watch,
 *   cursor read and routing, the wake prompt on the recipient's stdin, the recipient's pi
 *   preparing its request.
 * - reports: a sender's model answers with an intermediate report (`send_message` to "leader");
 *   from that reply to the leader's model request carrying it (a follow-up turn).
 *
 * Paced: the next message goes only once the recipient (the peer, or the leader) is idle again,
 * so each one takes the idle path. Every round spawns new teammates, so the first messages of a
 * fresh teammate are in every round (the per-index medians show any cold cost).
 */
import { join } from "node:path";
import { spawnPiChild } from "../../src/process/index.ts";
import type { ModelCall, Reply } from "../../tests/support/scripted-model.ts";
import { bareTag, pause, ROLE, type World } from "./world.ts";

/** Latencies of one kind, by round, in send order (ms). */
export interface MailTimes {
  rounds: number[][];
}

const TOOL_RESULT_WAIT_MS = 60_000;

/** Polls `done` every 2 ms. @throws after `timeoutMs`. */
async function until(done: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await done())) {
    if (performance.now() > deadline) throw new Error(`benchmark: timed out waiting for ${what}`);
    await pause(2);
  }
}

/** True when the leader's last run event is `agent_settled` (or it never ran). */
function leaderIdle(w: World): boolean {
  return w.leader.events.findLast((e) => e.type === "agent_start" || e.type === "agent_settled")?.type !== "agent_start";
}

/** True when the roster, rewritten after `since` (epoch ms), shows `name` idle. */
async function rosterIdle(w: World, name: string, since: number): Promise<boolean> {
  const r = await w.roster();
  const t = r?.teammates.find((x) => x.name === name);
  return r !== undefined && r.updatedAt >= since && t?.status === "idle";
}

/**
 * Plays a sender that, once woken, makes `count` `send_message` calls one per model turn, each
 * only after `gate(i)` resolves, recording when each reply went out; then answers "done".
 */
function sender(count: number, message: (i: number) => Record<string, unknown>, gate: (i: number) => Promise<void>, sentAt: number[]) {
  let i = 0;
  return async (call: ModelCall): Promise<Reply> => {
    if (i >= count) return { text: "done" };
    if (call.toolResults.length === 0 && i > 0) return { text: "done" };
    await gate(i);
    sentAt[i] = performance.now();
    return { toolCalls: [{ name: "send_message", arguments: message(i++) }] };
  };
}

/**
 * Spawns `names` without kickoffs (one leader reply; each plays `agents[name]`, default the
 * benchmark role) and waits until the leader is quiet.
 */
export async function spawnIdle(w: World, names: string[], agents: Record<string, string> = {}): Promise<void> {
  await w.command(names.map((name) => ({ name: "teammate_spawn", arguments: { name, agent: agents[name] ?? ROLE } })));
  await w.quiet();
}

/** Shuts `names` down (one leader reply), waits until the leader is quiet, drops their scripts. */
export async function shutdown(w: World, names: string[]): Promise<void> {
  await w.command(names.map((name) => ({ name: "teammate_shutdown", arguments: { name } })));
  await w.quiet();
  for (const name of names) w.director.play(name, undefined);
}

/** One round of peer mail between a fresh pair: `count` messages, paced. */
async function peerRound(w: World, round: number, count: number): Promise<number[]> {
  const [from, to] = [`psend${round}`, `precv${round}`];
  await spawnIdle(w, [from, to]);
  const times = await peerRun(w, from, to, count);
  await shutdown(w, [from, to]);
  return times;
}

/**
 * `count` paced peer messages from living teammate `from` to living teammate `to` (woken by one
 * leader message); each goes once `to` got the previous one and is idle again, and the leader is
 * idle, then `gapMs` later. Returns the latencies in send order.
 */
export async function peerRun(w: World, from: string, to: string, count: number, gapMs = 0): Promise<number[]> {
  const sentAt: number[] = [];
  const arrivedAt: number[] = [];
  let idleSince = 0;
  w.director.play(to, (call, t) => {
    const m = /peer-msg (\d+)/.exec(call.lastUser);
    if (m) arrivedAt[Number(m[1])] = t;
    return { text: "ok" };
  });
  const gate = async (i: number): Promise<void> => {
    if (i > 0) {
      await until(() => arrivedAt[i - 1] !== undefined, `${to} to get message ${i - 1}`);
      await until(() => rosterIdle(w, to, idleSince), `${to} to be idle again`);
    }
    await until(() => leaderIdle(w), "the leader to be idle");
    if (gapMs > 0) await pause(gapMs);
    idleSince = Date.now();
  };
  w.director.play(from, sender(count, (i) => ({ to, message: `peer-msg ${i} for ${to}` }), gate, sentAt));
  await w.command([{ name: "send_message", arguments: { to: from, message: `Start the peer run to ${to}.` } }]);
  await until(() => arrivedAt.length === count && arrivedAt.every((x) => x !== undefined), `${to}'s last message`, TOOL_RESULT_WAIT_MS);
  await w.quiet();
  return sentAt.map((t0, i) => arrivedAt[i]! - t0);
}

/** One round of intermediate reports from a fresh teammate: `count` reports, paced. */
async function reportRound(w: World, round: number, count: number): Promise<number[]> {
  const from = `rsend${round}`;
  await spawnIdle(w, [from]);
  const sentAt: number[] = [];
  const arrivedAt: number[] = [];
  const leaderScript = (call: ModelCall, t: number): Reply => {
    const m = call.toolResults.length === 0 ? /report-msg (\d+) from (\S+)/.exec(call.lastUser) : null;
    if (m && m[2] === from) arrivedAt[Number(m[1])] = t;
    return { text: "ok" };
  };
  w.overlayLeader(leaderScript);
  const gate = async (i: number): Promise<void> => {
    if (i > 0) await until(() => arrivedAt[i - 1] !== undefined, `the leader to get report ${i - 1}`);
    await until(() => leaderIdle(w), "the leader to be idle");
  };
  w.director.play(from, sender(count, (i) => ({ to: "leader", message: `report-msg ${i} from ${from}` }), gate, sentAt));
  try {
    await w.command([{ name: "send_message", arguments: { to: from, message: "Start the report run." } }]);
    await until(() => arrivedAt.length === count && arrivedAt.every((x) => x !== undefined), `the leader's report ${count - 1}`, TOOL_RESULT_WAIT_MS);
    await w.quiet();
  } finally {
    w.overlayLeader(undefined);
  }
  await shutdown(w, [from]);
  return sentAt.map((t0, i) => arrivedAt[i]! - t0);
}

/** `rounds` rounds of `count` paced peer messages, each round between a freshly spawned pair. */
export async function measurePeerMail(w: World, rounds: number, count: number): Promise<MailTimes> {
  const out: MailTimes = { rounds: [] };
  for (let r = 0; r < rounds; r++) out.rounds.push(await peerRound(w, r, count));
  return out;
}

/** `rounds` rounds of `count` paced reports, each round from a freshly spawned teammate. */
export async function measureReports(w: World, rounds: number, count: number): Promise<MailTimes> {
  const out: MailTimes = { rounds: [] };
  for (let r = 0; r < rounds; r++) out.rounds.push(await reportRound(w, r, count));
  return out;
}

/**
 * Pi's own cold cost, for comparison: a bare pi started and ready (first `get_state` answered),
 * then prompted `count` times over RPC, paced (each after the previous run settled); from each
 * prompt written to its model request. A fresh bare pi per round.
 */
export async function measureBarePrompts(w: World, rounds: number, count: number): Promise<MailTimes> {
  const out: MailTimes = { rounds: [] };
  for (let r = 0; r < rounds; r++) {
    const name = `bare-prompts-${r}`;
    const proc = await spawnPiChild({
      piCli: w.env.piCli, args: ["--mode", "rpc", "--no-session", "--no-extensions"], cwd: w.env.cwd,
      env: w.env.env, stderrLog: join(w.env.root, `${name}.log`), label: name,
    });
    try {
      await proc.waitReady(30_000);
      await pause(300); // as long as the teammates rest between their spawn and their first message
      const times: number[] = [];
      for (let i = 0; i < count; i++) {
        const arrived = w.director.next(name, () => true, `${name}'s request ${i}`);
        const settled = proc.child.nextEvent("agent_settled", { timeoutMs: 60_000 });
        const t0 = performance.now();
        await proc.child.prompt(`bare prompt ${i} ${bareTag(name)}`, { streamingBehavior: "followUp" });
        times.push((await arrived).t - t0);
        await settled;
      }
      out.rounds.push(times);
    } finally {
      await proc.stop({ abortFirst: false });
    }
  }
  return out;
}
