/**
 * Launcher benchmark (issue 10). Not a test: prints a Markdown report.
 *
 *   node_modules/.bin/node bench/launchers.ts            # report on stdout
 *   node_modules/.bin/node bench/launchers.ts --write    # also replace its section in docs/benchmarks.md
 *
 * In one run, with one real leader pi (bench/launch/*.ts, on bench/leader/*.ts): per launcher
 * (local; bwrap where `bwrap --ro-bind / / --unshare-pid true` runs; ssh:127.0.0.1 through a
 * throwaway sshd where sshd is installed), beside a bare `pi --mode rpc` start:
 * 1. spawn: the leader's `teammate_spawn` reply → the teammate's first model request;
 * 2. peer messages from the launcher's teammate to a local one and back, paced.
 *
 * Env: BENCH_LAUNCH_ROUNDS (spawn rounds after the warm-ups, default 5), BENCH_LAUNCH_MAIL_N
 * (messages per direction, default 15). Stops every process it started (leader, teammates,
 * sshd, bare pis) and removes its temp dirs, also on error and on SIGINT / SIGTERM.
 */
import { cpus, loadavg } from "node:os";
import { measureLaunchMail, measureLaunchSpawn } from "./launch/measure.ts";
import { LAUNCH_SECTION_TITLE, renderLaunchSection, type LaunchResults } from "./launch/report.ts";
import { Cleanups, startLaunchWorld, type LaunchWorld } from "./launch/setup.ts";
import { writeSection } from "./route/report.ts";
import { closeOnSignal } from "./signals.ts";

const num = (name: string, fallback: number): number => Number(process.env[name] ?? fallback);
const ROUNDS = num("BENCH_LAUNCH_ROUNDS", 5);
const MAIL_N = num("BENCH_LAUNCH_MAIL_N", 15);
const GAP_MS = 50;

async function run(lw: LaunchWorld, started: number, loadBefore: number[]): Promise<LaunchResults> {
  const names = lw.launchers.map((l) => l.name).join(", ");
  console.error(`bench: measuring ${names}${lw.skipped.map((s) => `; skipped ${s.name}: ${s.reason}`).join("")}`);
  const spawn = await measureLaunchSpawn(lw.w, lw.launchers, ROUNDS);
  console.error("bench: spawn rounds done; peer messages");
  const mail = await measureLaunchMail(lw.w, lw.launchers, MAIL_N, GAP_MS);
  return {
    machine: { nproc: cpus().length, cpu: cpus()[0]?.model ?? "unknown", node: process.version, platform: `${process.platform} ${process.arch}`, loadBefore, loadAfter: loadavg() },
    rounds: ROUNDS, mailCount: MAIL_N, gapMs: GAP_MS, spawn, mail, skipped: lw.skipped,
    elapsedS: (Date.now() - started) / 1000,
  };
}

async function main(): Promise<void> {
  const started = Date.now();
  const loadBefore = loadavg();
  const cleanups = new Cleanups();
  const offSignals = closeOnSignal(() => cleanups.close());
  let results: LaunchResults;
  try {
    results = await run(await startLaunchWorld(cleanups), started, loadBefore);
  } finally {
    offSignals();
    await cleanups.close();
  }
  const section = renderLaunchSection(results);
  console.log(section);
  if (process.argv.includes("--write")) writeSection(section, LAUNCH_SECTION_TITLE);
}

await main();
