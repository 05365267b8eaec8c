/**
 * Idle team: the harness (in this process) with its living teammates, nothing sent, for a fixed
 * window. Counts model calls, file writes under the pi env (agent dir with the runtime dir, and
 * the project), this process's CPU, and each child's CPU from /proc/<pid>/stat.
 */
import { watch, type FSWatcher } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { join, relative } from "node:path";
import { processCpuMs } from "./proc.ts";
import { pause } from "./stats.ts";
import type { Team } from "./team.ts";

export interface IdleResult {
  windowMs: number;
  teammates: number;
  modelCalls: number;
  /** inotify events (create, modify, attrib, rename, delete) under the watched dirs, by path. */
  fsEvents: Map<string, number>;
  /** Files whose size, mtime or inode differ between the snapshots, plus files added or removed. */
  changedFiles: string[];
  watchedDirs: number;
  /** CPU time of this process (the harness) during the window, as % of one core. */
  harnessCpuPct: number;
  harnessCpuMs: number;
  /** This process's CPU ms per consecutive slice of the window (5 s each, the last may be shorter). */
  harnessCpuSlicesMs: number[];
  /** Event-loop utilisation of this process during the window (0..1). */
  eventLoopUtil: number;
  /** CPU % of one core per child pid, and their sum. */
  childCpuPct: Map<number, number>;
  childCpuTotalPct: number;
  /** Redraws the widget asked for, and feed changes (console refreshes), during the window. */
  widgetRedraws: number;
  feedChanges: number;
  /** CPU % of one core of a bare `pi --mode rpc` child idling in the same window (control), if one was given. */
  controlCpuPct: number | undefined;
}

type FileSnapshot = Map<string, string>;

/** Every directory below `root` (included). */
async function dirsUnder(root: string): Promise<string[]> {
  const out = [root];
  for (const entry of await readdir(root, { withFileTypes: true })) {
    if (entry.isDirectory()) out.push(...(await dirsUnder(join(root, entry.name))));
  }
  return out;
}

/** size:mtimeNs:inode of every file below the dirs. */
async function snapshot(dirs: readonly string[]): Promise<FileSnapshot> {
  const snap: FileSnapshot = new Map();
  for (const dir of dirs) {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      if (!entry.isFile()) continue;
      const path = join(dir, entry.name);
      const s = await stat(path, { bigint: true }).catch(() => undefined);
      if (s) snap.set(path, `${s.size}:${s.mtimeNs}:${s.ino}`);
    }
  }
  return snap;
}

function diff(a: FileSnapshot, b: FileSnapshot, root: string): string[] {
  const paths = new Set([...a.keys(), ...b.keys()]);
  return [...paths].filter((p) => a.get(p) !== b.get(p)).map((p) => relative(root, p));
}

/** Non-recursive inotify watches on each dir, counting events per path. */
function countEvents(dirs: readonly string[], root: string, into: Map<string, number>): FSWatcher[] {
  return dirs.map((dir) =>
    watch(dir, { persistent: false }, (_event, file) => {
      const key = relative(root, join(dir, file ?? ""));
      into.set(key, (into.get(key) ?? 0) + 1);
    }),
  );
}

/** Waits `windowMs` in slices of `sliceMs`, returning this process's CPU ms per slice. */
async function cpuSlices(windowMs: number, sliceMs: number): Promise<number[]> {
  const slices: number[] = [];
  for (let left = windowMs; left > 0; left -= sliceMs) {
    const before = process.cpuUsage();
    await pause(Math.min(sliceMs, left));
    const used = process.cpuUsage(before);
    slices.push((used.user + used.system) / 1000);
  }
  return slices;
}

/** Lets the team sit idle for `windowMs` (after `settleMs`) and measures it. */
export async function measureIdle(team: Team, windowMs: number, settleMs: number, controlPid?: number): Promise<IdleResult> {
  const living = team.harness.members().filter((m) => m.living && m.proc);
  const pids = living.map((m) => m.proc!.pid);
  if (controlPid !== undefined) pids.push(controlPid);
  await pause(settleMs);
  const root = team.env.root;
  const dirs = [...(await dirsUnder(team.env.agentDir)), ...(await dirsUnder(team.env.cwd))];
  const before = await snapshot(dirs);
  const fsEvents = new Map<string, number>();
  const watchers = countEvents(dirs, root, fsEvents);
  const calls0 = team.desk.total;
  const redraws0 = team.widget.redraws;
  const changes0 = team.widget.feedChanges;
  const child0 = await Promise.all(pids.map(processCpuMs));
  const elu0 = performance.eventLoopUtilization();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const harnessCpuSlicesMs = await cpuSlices(windowMs, 5000);
  const cpu = process.cpuUsage(cpu0);
  const elapsed = performance.now() - t0;
  const elu = performance.eventLoopUtilization(elu0);
  const child1 = await Promise.all(pids.map(processCpuMs));
  for (const w of watchers) w.close();
  const after = await snapshot(dirs);
  const harnessCpuMs = (cpu.user + cpu.system) / 1000;
  const pct = pids.map((_, i) => ((child1[i]! - child0[i]!) / elapsed) * 100);
  const controlCpuPct = controlPid === undefined ? undefined : pct.pop();
  const childCpuPct = new Map(pct.map((p, i) => [pids[i]!, p]));
  return {
    windowMs: elapsed,
    teammates: living.length,
    modelCalls: team.desk.total - calls0,
    widgetRedraws: team.widget.redraws - redraws0,
    feedChanges: team.widget.feedChanges - changes0,
    fsEvents,
    changedFiles: diff(before, after, root),
    watchedDirs: dirs.length,
    harnessCpuMs,
    harnessCpuSlicesMs,
    harnessCpuPct: (harnessCpuMs / elapsed) * 100,
    eventLoopUtil: elu.utilization,
    childCpuPct,
    childCpuTotalPct: [...childCpuPct.values()].reduce((s, x) => s + x, 0),
    controlCpuPct,
  };
}
