/**
 * Route-latency benchmark (issue 2, item 11). Not a test: prints a Markdown report.
 *
 *   npm run bench:route                                      # report on stdout
 *   node_modules/.bin/node bench/route-latency.ts --write    # also replace its section in docs/benchmarks.md
 *
 * Everything runs through the real code: a `LeaderHarness` hosted in this process (it plays the
 * leader), real `pi --mode rpc` teammates loading this package, a scripted OpenAI-compatible
 * model on 127.0.0.1, real chokidar watches and JSONL cursors on a temp agent dir.
 *
 * 1. Spawn-to-ready: `harness.spawn` vs a bare `pi --mode rpc` start (and the teammate's own
 *    command line outside the harness), medians of BENCH_SPAWN_RUNS alternating rounds.
 * 2. Idle team: 8 teammates, BENCH_IDLE_S seconds: model calls, file writes, CPU.
 * 3. Latency (BENCH_N records each): reports (outbox → `deliver`) and peer mail (inbox →
 *    `mail_delivered`, wake and steer), paced and in bursts.
 *
 * Env: BENCH_N (default 1000), BENCH_IDLE_S (default 30), BENCH_SPAWN_RUNS (default 7).
 * Cleans up every child and temp dir; exit code 0 unless the run itself failed.
 */
import { cpus, loadavg } from "node:os";
import { measureIdle } from "./route/idle.ts";
import { keepWorking, letRest, peerSteerBurst, peerSteerPaced, peerWakePaced, reportsBurst, reportsPaced, type LatencyRun } from "./route/latency.ts";
import { renderSection, writeSection, type Results } from "./route/report.ts";
import { measureSpawn, startBare } from "./route/spawn.ts";
import { AGENT, startTeam, type Team } from "./route/team.ts";
import { closeOnSignal } from "./signals.ts";

const N = Number(process.env.BENCH_N ?? 1000);
const IDLE_MS = Number(process.env.BENCH_IDLE_S ?? 30) * 1000;
const SPAWN_RUNS = Number(process.env.BENCH_SPAWN_RUNS ?? 7);
const SETTLE_MS = 3000;
const TEAM = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"];
const WAKE_RECIPIENTS = ["bob", "carol", "dave", "erin"];

async function latencyRuns(team: Team): Promise<LatencyRun[]> {
  const runs: LatencyRun[] = [];
  runs.push(await reportsPaced(team, "alice", N));
  runs.push(await reportsBurst(team, "alice", N));
  runs.push(await peerWakePaced(team, "alice", WAKE_RECIPIENTS, N));
  await keepWorking(team, "frank");
  runs.push(await peerSteerPaced(team, "alice", "frank", N));
  runs.push(await peerSteerBurst(team, "alice", "frank", N));
  await letRest(team, "frank");
  return runs;
}

/** Pids of every child the harness started that still answer `kill -0`. */
function survivors(pids: readonly number[]): number[] {
  return pids.filter((pid) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  });
}

async function run(team: Team): Promise<Results> {
  const started = Date.now();
  const loadBefore = loadavg();
  const spawn = await measureSpawn(team, SPAWN_RUNS);
  const control = await startBare(team, "idle-control");
  for (const name of TEAM) {
    await team.harness.spawn({ name, agent: AGENT });
    team.probe.watchCommands(name, team.member(name).proc!.child);
  }
  const idle = await measureIdle(team, IDLE_MS, SETTLE_MS, control.pid).finally(() => control.stop({ abortFirst: false }));
  const idleTeamCalls = TEAM.reduce((s, name) => s + (team.desk.byAgent.get(name) ?? 0), 0);
  const latency = await latencyRuns(team);
  return {
    machine: { nproc: cpus().length, cpu: cpus()[0]?.model ?? "unknown", node: process.version, platform: `${process.platform} ${process.arch}`, loadBefore, loadAfter: loadavg() },
    n: N,
    spawn,
    idle,
    idleTeamCalls,
    latency,
    elapsedS: (Date.now() - started) / 1000,
  };
}

async function main(): Promise<void> {
  const team = await startTeam();
  const offSignals = closeOnSignal(() => team.close());
  let results: Results;
  try {
    results = await run(team);
  } finally {
    offSignals();
    const pids = team.harness.members().flatMap((m) => (m.proc ? [m.proc.pid] : []));
    await team.close();
    const left = survivors(pids);
    if (left.length > 0) {
      console.error(`benchmark: children still alive after close: ${left.join(", ")}`);
      process.exitCode = 1;
    }
  }
  const section = renderSection(results);
  console.log(section);
  if (process.argv.includes("--write")) writeSection(section);
}

await main();
