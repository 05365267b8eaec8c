/**
 * Real-leader benchmark (issue 9, item 5). Not a test: prints a Markdown report.
 *
 *   npm run bench:leader                                  # report on stdout
 *   node_modules/.bin/node bench/leader-pi.ts --write     # also replace its section in docs/benchmarks.md
 *
 * A real leader pi with this package, real teammate pis, a scripted model, and a bare pi beside
 * them in the same run (bench/leader/*.ts):
 * 1. Idle: leader and bare pi CPU in the same windows, with no teammate and with 8 idle ones.
 * 2. Spawn: the leader's `teammate_spawn` call → the teammate's first model request, against a
 *    bare pi's spawn → first model request, alternating rounds.
 * 3. Peer messages and reports: the sender's tool call → the recipient's model request, paced,
 *    each round from freshly spawned teammates.
 *
 * Env: BENCH_SPAWN_ROUNDS (default 9), BENCH_IDLE_S (window, default 60), BENCH_START_SETTLE_S
 * (rest after start, before the first idle window, default 90), BENCH_SETTLE_S (rest after the
 * spawns, before the second, default 40), BENCH_MAIL_ROUNDS (default 4), BENCH_MAIL_N
 * (messages per round, default 30). Stops every process and removes its temp dir.
 */
import { cpus, loadavg } from "node:os";
import { measureIdle, startBarePi } from "./leader/idle.ts";
import { measureBarePrompts, measurePeerMail, measureReports } from "./leader/mail.ts";
import { LEADER_SECTION_TITLE, renderLeaderSection, type LeaderResults } from "./leader/report.ts";
import { measureSpawn } from "./leader/spawn.ts";
import { startWorld, type World } from "./leader/world.ts";
import { writeSection } from "./route/report.ts";
import { closeOnSignal } from "./signals.ts";

const num = (name: string, fallback: number): number => Number(process.env[name] ?? fallback);
const SPAWN_ROUNDS = num("BENCH_SPAWN_ROUNDS", 9);
const IDLE_MS = num("BENCH_IDLE_S", 60) * 1000;
const START_SETTLE_MS = num("BENCH_START_SETTLE_S", 90) * 1000;
const SETTLE_MS = num("BENCH_SETTLE_S", 40) * 1000;
const MAIL_ROUNDS = num("BENCH_MAIL_ROUNDS", 4);
const MAIL_N = num("BENCH_MAIL_N", 30);
const TEAM = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"];

async function run(w: World): Promise<LeaderResults> {
  const started = Date.now();
  const loadBefore = loadavg();
  const bare = await startBarePi(w);
  let idle: LeaderResults["idle"];
  try {
    idle = await measureIdle(w, bare, { startSettleMs: START_SETTLE_MS, settleMs: SETTLE_MS, windowMs: IDLE_MS, sliceMs: 5000, team: TEAM });
  } finally {
    await bare.stop();
  }
  await w.command(TEAM.map((name) => ({ name: "teammate_shutdown", arguments: { name } })));
  await w.quiet();
  const spawn = await measureSpawn(w, SPAWN_ROUNDS);
  const peer = await measurePeerMail(w, MAIL_ROUNDS, MAIL_N);
  const reports = await measureReports(w, MAIL_ROUNDS, MAIL_N);
  const barePrompts = await measureBarePrompts(w, MAIL_ROUNDS, MAIL_N);
  return {
    machine: { nproc: cpus().length, cpu: cpus()[0]?.model ?? "unknown", node: process.version, platform: `${process.platform} ${process.arch}`, loadBefore, loadAfter: loadavg() },
    spawn, idle, peer, reports, barePrompts,
    elapsedS: (Date.now() - started) / 1000,
  };
}

async function main(): Promise<void> {
  const w = await startWorld();
  const offSignals = closeOnSignal(() => w.close());
  let results: LeaderResults;
  try {
    results = await run(w);
  } finally {
    offSignals();
    await w.close();
  }
  const section = renderLeaderSection(results);
  console.log(section);
  if (process.argv.includes("--write")) writeSection(section, LEADER_SECTION_TITLE);
}

await main();
