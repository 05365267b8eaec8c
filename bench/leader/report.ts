/** Renders the real-leader benchmark as the "## Real leader pi" section of docs/benchmarks.md. */
import type { IdleTimes, IdleWindow } from "./idle.ts";
import type { MailTimes } from "./mail.ts";
import { LEADER_METHOD, LEADER_NOTES } from "./notes.ts";
import type { SpawnTimes } from "./spawn.ts";
import { reproduceLines, type Machine } from "../route/report.ts";
import { median, ms, stats } from "../route/stats.ts";

export const LEADER_SECTION_TITLE = "## Real leader pi: spawn, idle, delivery";

/** Everything one run measured. */
export interface LeaderResults {
  machine: Machine;
  spawn: SpawnTimes;
  idle: IdleTimes;
  peer: MailTimes;
  reports: MailTimes;
  /** A ready bare pi prompted over RPC: prompt written → model request (pi's own part of a wake). */
  barePrompts: MailTimes;
  elapsedS: number;
}

const verdict = (ok: boolean): string => (ok ? "met" : "**missed**");
const sum = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0);
const pct = (cpuMs: number, wallMs: number): number => (cpuMs / wallMs) * 100;

/** CPU % of a core over the whole window, and from the median slice (robust to a one-off burst). */
function idleRates(wdw: IdleWindow): { leader: number; bare: number; leaderMedian: number; bareMedian: number } {
  return {
    leader: pct(sum(wdw.leaderSlicesMs), wdw.windowMs),
    bare: pct(sum(wdw.bareSlicesMs), wdw.windowMs),
    leaderMedian: pct(median(wdw.leaderSlicesMs), wdw.sliceMs),
    bareMedian: pct(median(wdw.bareSlicesMs), wdw.sliceMs),
  };
}

interface Derived {
  bareWall: number;
  mateWall: number;
  wallRatio: number;
  cpuRatio: number;
  spawnOk: boolean;
  peer: ReturnType<typeof stats>;
  reports: ReturnType<typeof stats>;
  bare: ReturnType<typeof stats>;
}

function derive(r: LeaderResults): Derived {
  const bareWall = median(r.spawn.bare.map((s) => s.wallMs));
  const mateWall = median(r.spawn.teammate.map((s) => s.wallMs));
  const cpuRatio = median(r.spawn.teammate.map((s) => s.cpuMs)) / median(r.spawn.bare.map((s) => s.cpuMs));
  return {
    bareWall, mateWall, wallRatio: mateWall / bareWall, cpuRatio, spawnOk: mateWall / bareWall <= 1.1,
    peer: stats(r.peer.rounds.flat()), reports: stats(r.reports.rounds.flat()), bare: stats(r.barePrompts.rounds.flat()),
  };
}

function idleRow(label: string, wdw: IdleWindow): string {
  const x = idleRates(wdw);
  const diff = x.leader - x.bare;
  return `| ${label} | ${x.bare.toFixed(3)} % | ${x.leader.toFixed(3)} % | ${diff >= 0 ? "+" : ""}${diff.toFixed(3)} % (median 5 s slice: ${(x.leaderMedian - x.bareMedian).toFixed(3)} %) | ≤ +0.05 %: ${verdict(diff <= 0.05)} |`;
}

function mailRow(label: string, s: ReturnType<typeof stats>, bare: ReturnType<typeof stats>): string {
  const b = `prompt written → its request: p50 ${ms(bare.p50)}, p90 ${ms(bare.p90)}`;
  return `| ${label} | ${b} | p50 ${ms(s.p50)}, p90 ${ms(s.p90)} (${s.n} messages) | max ${ms(s.max)} | p50 ≤ 25 ms, p90 ≤ 50 ms: ${verdict(s.p50 <= 25 && s.p90 <= 50)} |`;
}

function summary(r: LeaderResults, d: Derived): string[] {
  return [
    "| target | bare pi, same run | this package | difference | verdict |",
    "|---|---|---|---|---|",
    `| spawn: leader's \`teammate_spawn\` call → the teammate's first model request, over bare start → first model request | ${ms(d.bareWall)} (median) | ${ms(d.mateWall)} (median) | ratio **${d.wallRatio.toFixed(2)}** wall clock, ${d.cpuRatio.toFixed(2)} child CPU | ≤ 1.10: ${verdict(d.spawnOk)} |`,
    idleRow("idle leader CPU, no teammate", r.idle.none),
    idleRow(`idle leader CPU, ${r.idle.team.teammates} idle teammates`, r.idle.team),
    mailRow("peer message: sender's tool call → recipient's model request", d.peer, d.bare),
    mailRow("report: sender's tool call → leader's model request", d.reports, d.bare),
  ];
}

function spawnTable(r: LeaderResults): string[] {
  const row = (label: string, xs: SpawnTimes["bare"]): string =>
    `| ${label} | ${ms(median(xs.map((s) => s.wallMs)))} | ${ms(median(xs.map((s) => s.cpuMs)))} | ${xs.map((s) => s.wallMs.toFixed(0)).join(", ")} |`;
  return [
    `### Spawn (${r.spawn.bare.length} rounds after one warm-up round of each, order alternating)`,
    "",
    "| start | median | child CPU at its first request (median) | runs (ms) |",
    "|---|---|---|---|",
    row("bare `pi --mode rpc --no-session --no-extensions`, prompted at spawn", r.spawn.bare),
    row("teammate: the leader model's `teammate_spawn` reply (with a kickoff) → the kickoff's model request", r.spawn.teammate),
  ];
}

function idleTable(r: LeaderResults): string[] {
  const row = (label: string, wdw: IdleWindow, pick: (w: IdleWindow) => number[]): string =>
    `| ${label} | ${pick(wdw).map((x) => x.toFixed(1)).join(", ")} |`;
  const { none, team } = r.idle;
  return [
    `### Idle (${(none.windowMs / 1000).toFixed(0)} s windows, after ${(r.idle.startSettleMs / 1000).toFixed(0)} s of rest from start and ${(r.idle.settleMs / 1000).toFixed(0)} s from the spawns; CPU ms per ${none.sliceMs / 1000} s slice)`,
    "",
    "| process | CPU ms per slice |",
    "|---|---|",
    row("bare pi, no teammate", none, (w) => w.bareSlicesMs),
    row("leader, no teammate", none, (w) => w.leaderSlicesMs),
    row(`bare pi, leader with ${team.teammates} teammates`, team, (w) => w.bareSlicesMs),
    row(`leader with ${team.teammates} idle teammates`, team, (w) => w.leaderSlicesMs),
    "",
    `The rests before the windows, CPU ms: after start, bare pi ${sum(r.idle.restNone.bareSlicesMs).toFixed(0)},`,
    `leader ${sum(r.idle.restNone.leaderSlicesMs).toFixed(0)}; after the spawns, bare pi ${sum(r.idle.restTeam.bareSlicesMs).toFixed(0)}, leader ${sum(r.idle.restTeam.leaderSlicesMs).toFixed(0)}.`,
    `Model calls during the windows: ${none.modelCalls + team.modelCalls} (target 0: ${verdict(none.modelCalls + team.modelCalls === 0)}).`,
  ];
}

function mailTable(label: string, t: MailTimes): string[] {
  const count = Math.max(...t.rounds.map((x) => x.length));
  const byIndex = Array.from({ length: count }, (_, i) => median(t.rounds.map((x) => x[i]).filter((v): v is number => v !== undefined)));
  const first = stats(t.rounds.flatMap((x) => x.slice(0, 3)));
  const rest = stats(t.rounds.flatMap((x) => x.slice(3)));
  return [
    `### ${label} (${t.rounds.length} rounds of ${count}, each in fresh processes)`,
    "",
    `Median by message index (ms): ${byIndex.map((x) => x.toFixed(0)).join(", ")}.`,
    `First 3 of each round: p50 ${ms(first.p50)}, max ${ms(first.max)}; the rest: p50 ${ms(rest.p50)}, p90 ${ms(rest.p90)}, max ${ms(rest.max)}.`,
    "",
    "| round | latencies in send order (ms) |",
    "|---|---|",
    ...t.rounds.map((x, i) => `| ${i + 1} | ${x.map((v) => v.toFixed(0)).join(", ")} |`),
  ];
}

/** The whole section, Markdown, starting with its "## " title. */
export function renderLeaderSection(r: LeaderResults): string {
  const d = derive(r);
  return [
    LEADER_SECTION_TITLE,
    "",
    ...reproduceLines("bench:leader", "bench/leader-pi.ts", r.elapsedS, r.machine),
    "",
    ...summary(r, d),
    "",
    ...LEADER_METHOD,
    "",
    ...spawnTable(r),
    "",
    ...idleTable(r),
    "",
    ...mailTable("Peer messages", r.peer),
    "",
    ...mailTable("Reports", r.reports),
    "",
    ...mailTable("Bare pi prompted over RPC (pi's own part of a wake; no sender, no leader)", r.barePrompts),
    "",
    ...LEADER_NOTES,
    "",
  ].join("\n");
}
