/** Renders the route-latency results as the "## Route latency and idle cost" section of docs/benchmarks.md. */
import { readFileSync, writeFileSync } from "node:fs";
import type { IdleResult } from "./idle.ts";
import type { LatencyRun } from "./latency.ts";
import { IDLE_NOTES, LATENCY_NOTES, METHOD, spawnMissNotes } from "./notes.ts";
import type { SpawnTimes, SpawnVariant } from "./spawn.ts";
import { countAbove, median, ms, stats } from "./stats.ts";

export const SECTION_TITLE = "## Route latency and idle cost";

export interface Results {
  machine: Machine;
  n: number;
  spawn: SpawnTimes;
  idle: IdleResult;
  /** Model calls made by the idle teammates from their spawn to the end of the idle window. */
  idleTeamCalls: number;
  latency: LatencyRun[];
  elapsedS: number;
}

const load = (xs: number[]): string => xs.map((x) => x.toFixed(2)).join(" / ");

/** The machine a benchmark ran on: cores, CPU, Node, platform, load averages (1 / 5 / 15 min). */
export interface Machine {
  nproc: number;
  cpu: string;
  node: string;
  platform: string;
  loadBefore: number[];
  loadAfter: number[];
}

/**
 * The lines under a section's title: how to reproduce it (`npm run <script>`, or `file --write`
 * to write it here), the run's length (s, rounded up to 10) and the machine with its load.
 */
export function reproduceLines(script: string, file: string, elapsedS: number, m: Machine): string[] {
  return [
    `Reproduce: \`npm run ${script}\` (prints this section; \`node_modules/.bin/node ${file} --write\` also writes`,
    `it here; about ${Math.ceil(elapsedS / 10) * 10} s). Machine: ${m.nproc} × ${m.cpu}, Node ${m.node}, ${m.platform}; load average (1 / 5 / 15 min)`,
    `${load(m.loadBefore)} before the run and ${load(m.loadAfter)} after it (other jobs shared the machine).`,
  ];
}
const verdict = (ok: boolean): string => (ok ? "met" : "**missed**");
const isReport = (run: LatencyRun): boolean => run.label.startsWith("report");

function latencyOk(run: LatencyRun): boolean {
  const s = stats(run.samples);
  return run.lost === 0 && s.p50 <= 10 && (isReport(run) || s.p99 <= 50);
}

interface Derived {
  wakePaced: LatencyRun | undefined;
  reportsPaced: LatencyRun | undefined;
  ratio: number;
  cpuRatio: number;
  /** Both ratios within 1.10: wall-clock medians on a shared machine can hide or inflate the difference. */
  spawnOk: boolean;
  idleWrites: number;
}

function derive(r: Results): Derived {
  const wall = (v: SpawnVariant): number => median(r.spawn[v].map((x) => x.wallMs));
  const cpu = (v: SpawnVariant): number => median(r.spawn[v].map((x) => x.childCpuMs));
  return {
    wakePaced: r.latency.find((run) => run.label.includes("wake")),
    reportsPaced: r.latency.find((run) => isReport(run) && run.label.includes("paced")),
    ratio: wall("harness") / wall("bare"),
    // The same child as harness.spawn starts; its CPU is read right at ready (the harness row's is read when spawn()
    // returns, after the roster write, so it includes some of the child's post-ready work).
    cpuRatio: cpu("teammateArgs") / cpu("bare"),
    spawnOk: wall("harness") / wall("bare") <= 1.1 && cpu("teammateArgs") / cpu("bare") <= 1.1,
    idleWrites: [...r.idle.fsEvents.values()].reduce((s, x) => s + x, 0) + r.idle.changedFiles.length,
  };
}

function summaryTable(r: Results, d: Derived): string[] {
  const p = (run: LatencyRun | undefined): string => (run ? `p50 ${ms(stats(run.samples).p50)}, p99 ${ms(stats(run.samples).p99)}` : "n/a");
  const mailOk = r.latency.filter((run) => !isReport(run)).every(latencyOk);
  const reportsOk = r.latency.filter(isReport).every(latencyOk);
  return [
    "| target (design.md \"Performance targets\") | measured | verdict |",
    "|---|---|---|",
    `| peer message → delivered into an idle recipient's wake prompt: p50 ≤ 10 ms, p99 ≤ 50 ms | ${p(d.wakePaced)} (steer runs below: ${mailOk ? "all met" : "**not all met**"}) | ${verdict(d.wakePaced !== undefined && latencyOk(d.wakePaced))} |`,
    `| worker report → leader follow-up turn dispatched: p50 ≤ 10 ms | ${p(d.reportsPaced)} (burst below: ${reportsOk ? "met" : "**missed**"}) | ${verdict(d.reportsPaced !== undefined && latencyOk(d.reportsPaced))} |`,
    `| teammate_spawn → child ready, over bare \`pi --mode rpc\` start: ratio ≤ 1.10 | wall clock ${d.ratio.toFixed(2)}, child CPU ${d.cpuRatio.toFixed(2)} | ${verdict(d.spawnOk)} |`,
    `| idle team (leader + ${r.idle.teammates} teammates, ${(r.idle.windowMs / 1000).toFixed(0)} s): 0 model calls | ${r.idle.modelCalls} | ${verdict(r.idle.modelCalls === 0)} |`,
    `| idle team: 0 file writes | ${d.idleWrites} | ${verdict(d.idleWrites === 0)} |`,
    `| idle team: harness CPU < 0.5 % of a core | ${r.idle.harnessCpuPct.toFixed(2)} % | ${verdict(r.idle.harnessCpuPct < 0.5)} |`,
  ];
}

function latencyTable(r: Results): string[] {
  const rows = r.latency.map((run) => {
    const s = stats(run.samples);
    const via = Object.entries(run.via).map(([k, v]) => `${k} ${v}`).join(", ");
    const callbacks = isReport(run) ? "n/a" : `${run.batches}`;
    const target = isReport(run) ? "p50 ≤ 10 ms" : "p50 ≤ 10 ms, p99 ≤ 50 ms";
    const lost = run.lost ? ` (**${run.lost} not delivered in 15 s**)` : "";
    return `| ${run.label} | ${s.n}${lost} | ${ms(s.p50)} | ${ms(s.p90)} | ${ms(s.p99)} | ${ms(s.max)} | ${countAbove(run.samples, 50)} | ${via} | ${callbacks} | ${(run.elapsedMs / 1000).toFixed(1)} s | ${target}: ${verdict(latencyOk(run))} |`;
  });
  return [
    `### Write → delivered (${r.n} records per run)`,
    "",
    "| run | delivered | p50 | p90 | p99 | max | > 50 ms | delivered as | harness callbacks | run time | target |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
    ...rows,
  ];
}

function splitTable(r: Results): string[] {
  const triple = (xs: number[]): string => {
    const s = stats(xs);
    return `${ms(s.p50)} / ${ms(s.p99)} / ${ms(s.max)}`;
  };
  return [
    "Where the time of peer mail goes (p50 / p99 / max). Harness: from the write until the harness wrote the command",
    "carrying the mail (a wake `prompt`, or a `prompt` with streamingBehavior `steer`) to the child's stdin: watch event,",
    "cursor read, routing. Child: from that command to the child's success response: pipe round trip and pi's own",
    "handling (for a wake, pi's prompt preflight and run start).",
    "",
    "| run | write → command sent (harness) | command sent → accepted (child) |",
    "|---|---|---|",
    ...r.latency.filter((run) => run.harnessSamples.length > 0).map((run) => `| ${run.label} | ${triple(run.harnessSamples)} | ${triple(run.childSamples)} |`),
  ];
}

const SPAWN_LABELS: Record<SpawnVariant, string> = {
  bare: "bare `pi --mode rpc --no-session --no-extensions` → first `get_state` answer",
  emptyExtension: "the same plus `-e` an empty extension (pi's extension loader as such)",
  teammateArgs: "the teammate's command line outside the harness (`-e` this package, `--tools`, `--name`, model flags, identity env)",
  harness: "`harness.spawn` without kickoff (agent discovery, roster write, child, `get_state`, status idle)",
};

function spawnTable(r: Results, d: Derived): string[] {
  const rows = (Object.keys(SPAWN_LABELS) as SpawnVariant[]).map((v) => {
    const wall = r.spawn[v].map((x) => x.wallMs);
    const cpu = median(r.spawn[v].map((x) => x.childCpuMs));
    return `| ${SPAWN_LABELS[v]} | ${ms(median(wall))} | ${ms(Math.min(...wall))} | ${ms(Math.max(...wall))} | ${ms(cpu)} | ${wall.map((x) => x.toFixed(0)).join(", ")} |`;
  });
  return [
    `### Spawn to ready (${r.spawn.bare.length} rounds after one warm-up round, order alternating)`,
    "",
    "| start | median | min | max | child CPU at ready (median) | runs (ms) |",
    "|---|---|---|---|---|---|",
    ...rows,
    "",
    `Ratio \`harness.spawn\` / bare start: **${d.ratio.toFixed(2)}** in wall-clock medians. Ratio of the teammate child's own CPU time`,
    `at ready to the bare child's (which other load on the machine moves much less): **${d.cpuRatio.toFixed(2)}**. Target ≤ 1.10:`,
    `${verdict(d.spawnOk)} (judged on both: on a shared machine the wall-clock medians alone can hide or inflate the difference).`,
    "The harness row's CPU is read when `spawn()` returns, after the roster write, so it includes some post-ready work of the child.",
    ...spawnMissNotes(r.spawn, d.spawnOk),
  ];
}

function idleTable(r: Results): string[] {
  const i = r.idle;
  const events = [...i.fsEvents.values()].reduce((s, x) => s + x, 0);
  const eventList = [...i.fsEvents.entries()].map(([p, c]) => `${p} ×${c}`).join(", ");
  const slices = i.harnessCpuSlicesMs;
  const worst = Math.max(...slices);
  const restPct = slices.length > 1 ? ((slices.reduce((s, x) => s + x, 0) - worst) / (i.windowMs - i.windowMs / slices.length)) * 100 : NaN;
  return [
    `### Idle team (the benchmark process as leader + ${i.teammates} teammates, ${(i.windowMs / 1000).toFixed(1)} s window after a 3 s settle)`,
    "",
    "| measure | value | target |",
    "|---|---|---|",
    `| model calls during the window | ${i.modelCalls} | 0: ${verdict(i.modelCalls === 0)} |`,
    `| model calls by the ${i.teammates} idle teammates from their spawn to the end of the window | ${r.idleTeamCalls} | 0: ${verdict(r.idleTeamCalls === 0)} |`,
    `| file writes: inotify events in ${i.watchedDirs} dirs (agent dir with the runtime dir, project) | ${events}${eventList ? ` (${eventList})` : ""} | 0: ${verdict(events === 0)} |`,
    `| file writes: files added, removed or with a new size, mtime or inode (snapshot diff of the same dirs) | ${i.changedFiles.length}${i.changedFiles.length ? ` (${i.changedFiles.join(", ")})` : ""} | 0: ${verdict(i.changedFiles.length === 0)} |`,
    `| widget redraws asked for, with the console feed and the widget loaded as in a TUI leader | ${i.widgetRedraws} | 0: ${verdict(i.widgetRedraws === 0)} |`,
    `| console feed changes (each would refresh an open console) | ${i.feedChanges} | 0: ${verdict(i.feedChanges === 0)} |`,
    `| harness CPU (\`process.cpuUsage()\` of the benchmark process, which hosts the harness) | ${i.harnessCpuPct.toFixed(3)} % of a core (${i.harnessCpuMs.toFixed(0)} ms) | < 0.5 %: ${verdict(i.harnessCpuPct < 0.5)} |`,
    `| harness CPU per 5 s slice | ${slices.map((x) => x.toFixed(1)).join(", ")} ms | (info) |`,
    `| harness CPU without the costliest slice | ${restPct.toFixed(3)} % of a core | (info) |`,
    `| harness event-loop utilisation | ${(i.eventLoopUtil * 100).toFixed(3)} % | (info) |`,
    `| teammate children CPU (/proc/<pid>/stat utime+stime, 10 ms ticks), total | ${i.childCpuTotalPct.toFixed(3)} % of a core | (info) |`,
    `| per child | ${[...i.childCpuPct.values()].map((x) => x.toFixed(2)).join(", ")} % | (info) |`,
    ...(i.controlCpuPct === undefined ? [] : [`| control: a bare \`pi --mode rpc\` child idling in the same window | ${i.controlCpuPct.toFixed(2)} % of a core | (info) |`]),
  ];
}

/** The whole section, Markdown, starting with its "## " title. */
export function renderSection(r: Results): string {
  const d = derive(r);
  return [
    SECTION_TITLE,
    "",
    ...reproduceLines("bench:route", "bench/route-latency.ts", r.elapsedS, r.machine),
    "",
    ...summaryTable(r, d),
    "",
    ...METHOD,
    "",
    ...latencyTable(r),
    "",
    ...splitTable(r),
    "",
    ...LATENCY_NOTES,
    "",
    ...spawnTable(r, d),
    "",
    ...idleTable(r),
    "",
    ...IDLE_NOTES,
    "",
  ].join("\n");
}

/**
 * Replaces (or appends) the section titled `title` (its "## " line) in docs/benchmarks.md,
 * leaving every other section as it is.
 */
export function writeSection(section: string, title: string = SECTION_TITLE): void {
  const path = new URL("../../docs/benchmarks.md", import.meta.url);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    text = "# Benchmarks\n\nFigures measured by the scripts in bench/; each section says how to reproduce it.\n";
  }
  const start = text.indexOf(`\n${title}\n`);
  if (start === -1) {
    text = `${text.trimEnd()}\n\n${section.trimEnd()}\n`;
  } else {
    const next = text.indexOf("\n## ", start + 1);
    text = `${text.slice(0, start + 1)}${section.trimEnd()}\n${next === -1 ? "" : text.slice(next)}`;
  }
  writeFileSync(path, text);
}
