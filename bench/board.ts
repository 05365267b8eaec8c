/**
 * Board core benchmark (issue 3, item 10). Not a test: prints a Markdown report.
 *
 *   node_modules/.bin/node bench/board.ts            # report on stdout
 *   node_modules/.bin/node bench/board.ts --write    # also replace "## Board" in docs/benchmarks.md
 *
 * 1. Per-operation latency of create, claim (by id and first-claimable), submit (plain, failed,
 *    through a verify gate) and the gate outcome, at 1,000 and 10,000 tasks, to show the cost
 *    follows the tasks touched and not the board size.
 * 2. A burst of 1,000 claims (one per ms) on a 10,000-task board persisted through
 *    `SnapshotScheduler` with real atomic writes (write-file-atomic) into a temp dir.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setImmediate as yieldNow, setTimeout as sleep } from "node:timers/promises";
import writeFileAtomic from "write-file-atomic";
import {
  SnapshotScheduler,
  claimTask,
  createBoard,
  createTask,
  gateOutcome,
  parseBoardFile,
  reviveBoard,
  serializeBoard,
  submitTask,
  type Board,
  type Effect,
} from "../src/board/index.ts";

const CHAIN = 10; // tasks per dependency chain (latency runs)
const BURST_CHAIN = 5; // shorter chains for the burst board: 2,000 chain heads to claim
const SAMPLES = 1_000;

type Stats = { p50: number; p99: number; max: number; n: number };

function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? NaN, n: sorted.length };
}

function time(fn: () => void): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

/** Task i of chain c: depends on the previous task of its chain; locks the chain's module. */
function taskInput(i: number, chainLength: number) {
  const chain = Math.floor(i / chainLength);
  const prev = i % chainLength === 0 ? [] : [`task-${i - 1}`];
  // Every 50th chain head locks a whole area, which overlaps the modules under it.
  const resources = i % (chainLength * 50) === 0 ? [`area${chain % 20}`] : [`area${chain % 20}/mod${chain}`];
  return { subject: `Task ${i}`, dependsOn: prev, resources, verify: i % 4 === 0 ? "Reviewer-checkable criteria." : undefined };
}

/** Builds a board of `size` tasks; returns it with the create latency of every task. */
function build(size: number, chainLength = CHAIN): { board: Board; create: number[] } {
  const board = createBoard();
  const create: number[] = [];
  for (let i = 0; i < size; i++) {
    const input = taskInput(i, chainLength);
    create.push(
      time(() => {
        const r = createTask(board, input.verify ? input : { subject: input.subject, dependsOn: input.dependsOn, resources: input.resources }, i);
        if (!r.ok) throw new Error(r.message);
      }),
    );
  }
  return { board, create };
}

const holder = (i: number) => ({ name: `w${i}`, spawnId: `s${i}`, hasAssignment: false });

function tokenOf(effects: readonly Effect[]): string | undefined {
  const e = effects.find((x) => x.type === "start_reviewer");
  return e?.type === "start_reviewer" ? e.token : undefined;
}

interface SizeResult {
  size: number;
  create: Stats;
  createLast: Stats;
  claimById: Stats;
  claimFirst: Stats;
  submit: Stats;
  submitFailed: Stats;
  gate: Stats;
  supersede: Stats;
  noneClaimable: Stats;
  load: Stats;
}

type Samples = Record<"claimById" | "claimFirst" | "submit" | "submitFailed" | "gate", number[]>;

/** SAMPLES claims (half by id, half first-claimable), each followed by a submit and, if gated, a PASS. */
function claimSubmitLoop(board: Board): Samples {
  const out: Samples = { claimById: [], claimFirst: [], submit: [], submitFailed: [], gate: [] };
  for (let k = 0; k < SAMPLES; k++) {
    const byId = k % 2 === 0;
    const target = board.index.ready[(k * 7919) % Math.max(1, board.index.ready.length)]?.id;
    const h = holder(k);
    let claimed = "";
    const dt = time(() => {
      const r = claimTask(board, byId && target ? { holder: h, taskId: target } : { holder: h }, k);
      if (r.ok) claimed = r.task.id;
    });
    if (!claimed) continue;
    (byId ? out.claimById : out.claimFirst).push(dt);
    if (k % 5 === 4) {
      out.submitFailed.push(time(() => submitTask(board, { holder: h, taskId: claimed, status: "failed", result: "bench" }, k)));
      continue;
    }
    let token: string | undefined;
    out.submit.push(
      time(() => {
        const r = submitTask(board, { holder: h, taskId: claimed, status: "completed", result: "done" }, k);
        token = r.ok ? tokenOf(r.effects) : undefined;
      }),
    );
    const t = token;
    if (t) out.gate.push(time(() => gateOutcome(board, { token: t, text: "Checked.\nVERDICT: PASS" }, k)));
  }
  return out;
}

/** Supersedes pending mid-chain tasks: re-points the pending dependent and runs the cycle check. */
function supersedeLoop(board: Board, size: number): number[] {
  const out: number[] = [];
  for (let k = 0; k < 200; k++) {
    const chain = (k * 37) % Math.floor(size / CHAIN);
    const old = `task-${chain * CHAIN + 5}`;
    if (board.tasks.get(old)?.state.status !== "pending") continue;
    const input = { subject: `Replace ${old}`, dependsOn: [`task-${chain * CHAIN + 4}`], supersedes: [old] };
    out.push(
      time(() => {
        const r = createTask(board, input, k);
        if (!r.ok) throw new Error(r.message);
      }),
    );
  }
  return out;
}

/** Worst case of the first-claimable scan: `size` ready tasks, every one under a held tag. */
function worstScan(size: number): number[] {
  const blocked = createBoard();
  for (let i = 0; i < size; i++) createTask(blocked, { subject: `Blocked ${i}`, resources: [`shared/f${i}`] }, 0);
  createTask(blocked, { subject: "Lock", resources: ["shared"] }, 0);
  claimTask(blocked, { holder: holder(-1), taskId: "lock" }, 0);
  return Array.from({ length: 200 }, (_, k) => time(() => claimTask(blocked, { holder: holder(k) }, 0)));
}

/** Reading the board at startup (or for a worker's task_list): parse, schema check, integrity, indexes. */
function loadTimes(board: Board): number[] {
  const text = serializeBoard(board);
  return Array.from({ length: 7 }, () =>
    time(() => {
      const r = parseBoardFile(text);
      if (!r.ok) throw new Error(r.message);
      reviveBoard(r.file, [], 0);
    }),
  );
}

function measure(size: number): SizeResult {
  const { board, create } = build(size);
  const loop = claimSubmitLoop(board);
  return {
    size,
    create: stats(create),
    createLast: stats(create.slice(-Math.min(1_000, create.length))),
    claimById: stats(loop.claimById),
    claimFirst: stats(loop.claimFirst),
    submit: stats(loop.submit),
    submitFailed: stats(loop.submitFailed),
    gate: stats(loop.gate),
    supersede: stats(supersedeLoop(board, size)),
    noneClaimable: stats(worstScan(size)),
    load: stats(loadTimes(board)),
  };
}

interface BurstResult {
  claims: number;
  gapMs: number;
  intervalMs: number;
  snapshots: number;
  elapsedMs: number;
  writesPerSecond: number;
  serializeMs: Stats;
  writeMs: Stats;
  bytes: number;
  finalOnDisk: boolean;
}

/** The shell's writer loop in miniature: a timer armed for `dueAt()`, one real atomic write at a time. */
function coalescingWriter(board: Board, file: string, scheduler: SnapshotScheduler) {
  const serializeMs: number[] = [];
  const writeMs: number[] = [];
  const state = { bytes: 0, writing: false, timer: undefined as NodeJS.Timeout | undefined };
  const kick = (): void => {
    if (state.timer || state.writing) return;
    const due = scheduler.dueAt();
    if (due !== undefined) state.timer = setTimeout(() => void flush(), Math.max(0, due - performance.now()));
  };
  const flush = async (): Promise<void> => {
    state.timer = undefined;
    const revision = scheduler.begin(performance.now());
    if (revision === undefined) return kick();
    state.writing = true;
    const t0 = performance.now();
    const text = serializeBoard(board);
    const t1 = performance.now();
    const ok = await writeFileAtomic(file, text).then(() => true, () => false);
    serializeMs.push(t1 - t0);
    writeMs.push(performance.now() - t1);
    state.bytes = text.length;
    state.writing = false;
    scheduler.done(revision, ok, performance.now());
    kick();
  };
  return { kick, serializeMs, writeMs, state };
}

/** A burst of `claims` claims, one every `gapMs`, persisted through the scheduler with real writes. */
async function burst(claims: number, gapMs: number, intervalMs: number): Promise<BurstResult> {
  const { board } = build(10_000, BURST_CHAIN);
  const dir = mkdtempSync(join(tmpdir(), "board-bench-"));
  const file = join(dir, "board.json");
  writeFileSync(file, serializeBoard(board));
  const scheduler = new SnapshotScheduler({ minIntervalMs: intervalMs, writtenRevision: board.revision });
  const writer = coalescingWriter(board, file, scheduler);
  const start = performance.now();
  for (let i = 0; i < claims; i++) {
    while (performance.now() < start + i * gapMs) await yieldNow();
    const r = claimTask(board, { holder: holder(i) }, performance.now());
    if (!r.ok) throw new Error(r.message);
    for (const e of r.effects) if (e.type === "persist") scheduler.markDirty(e.revision, performance.now());
    writer.kick();
  }
  while (scheduler.dirty || writer.state.writing) await sleep(2);
  const elapsedMs = performance.now() - start;
  const onDisk = parseBoardFile(readFileSync(file, "utf8"));
  rmSync(dir, { recursive: true, force: true });
  return {
    claims,
    gapMs,
    intervalMs,
    snapshots: writer.writeMs.length,
    elapsedMs,
    writesPerSecond: writer.writeMs.length / (elapsedMs / 1000),
    serializeMs: stats(writer.serializeMs),
    writeMs: stats(writer.writeMs),
    bytes: writer.state.bytes,
    finalOnDisk: onDisk.ok && onDisk.file.revision === board.revision,
  };
}

const ms = (n: number): string => (n < 0.1 ? `${(n * 1000).toFixed(1)} µs` : `${n.toFixed(2)} ms`);
const ok = (n: number, target: number): string => (n <= target ? "met" : "**missed**");

function latencyTable(small: SizeResult, big: SizeResult): string[] {
  const rows: [string, keyof SizeResult][] = [
    ["create (whole build)", "create"],
    ["create (last 1,000 of the build)", "createLast"],
    ["claim by id", "claimById"],
    ["claim first claimable (no id)", "claimFirst"],
    ["submit completed (no gate / starts gate)", "submit"],
    ["submit failed (release)", "submitFailed"],
    ["gate outcome PASS", "gate"],
    ["create with supersedes (re-point + cycle check)", "supersede"],
    ["claim, nothing claimable (full ready scan)", "noneClaimable"],
    ["load board.json: parse + check + revive", "load"],
  ];
  const lines = [
    "## Board",
    "",
    `Reproduce: \`node_modules/.bin/node bench/board.ts\` (Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model.trim() ?? "cpu"}).`,
    `Board: tasks in dependency chains of ${CHAIN}, each chain locking its own module tag \`areaN/modM\`, every 50th chain head`,
    "locking a whole area (overlapping the modules under it), a verify gate on every 4th task. Per size: 1,000 claims",
    "(half by id, half first-claimable), each followed by a submit (every 5th as `failed`), gated submits answered PASS.",
    "",
    `| operation | p50 @ ${small.size.toLocaleString("en")} | p50 @ ${big.size.toLocaleString("en")} | p99 @ ${big.size.toLocaleString("en")} | p50 ratio 10k/1k | target p50 ≤ 2 ms @ 10k |`,
    "|---|---|---|---|---|---|",
  ];
  for (const [label, key] of rows) {
    const a = small[key] as Stats;
    const b = big[key] as Stats;
    const target = key === "noneClaimable" ? "n/a (worst case)" : key === "load" ? "n/a (once per load, O(board))" : ok(b.p50, 2);
    lines.push(`| ${label} | ${ms(a.p50)} | ${ms(b.p50)} | ${ms(b.p99)} | ${(b.p50 / a.p50).toFixed(2)} | ${target} |`);
  }
  lines.push(
    "",
    "Cost follows the tasks touched: create touches its dependencies (and, with `supersedes`, the superseded tasks' dependents);",
    "claim touches the task, its dependencies and the resource index (O(tag depth)); submit touches the task and its dependents.",
    "The only scan is the first-claimable claim, over the ready index (pending tasks with completed dependencies) in creation",
    "order, stopping at the first task whose resources are free; the last row is its worst case (every ready task's resources",
    "locked), which grows with the number of ready tasks, not with the board.",
    "Ratios between about 0.4 and 1.7 at the microsecond level are run-to-run noise (JIT, GC, caches); a cost proportional to",
    "the board would show a ratio near 10, like the worst-case scan (10× larger ready list) and the O(board) load.",
    "",
  );
  return lines;
}

function burstTable(bursts: BurstResult[]): string[] {
  const lines = [
    "### Snapshot coalescing (10,000-task board, real atomic writes)",
    "",
    "`SnapshotScheduler` (src/board/scheduler.ts): write only when the revision moved, one write in flight, at most one write",
    "start per interval, leading edge (a lone change is written at once) and trailing edge (the last change of a burst is",
    "always written). Writes go through write-file-atomic into a temp dir; the file read back after the burst must parse and",
    "hold the final revision.",
    "",
    "| burst | interval | snapshots | claims/snapshot | writes/s | serialise p50 | write p50 | file size | final revision on disk |",
    "|---|---|---|---|---|---|---|---|---|",
  ];
  for (const b of bursts) {
    lines.push(
      `| ${b.claims} claims, ${b.gapMs === 0 ? "back to back" : `1 per ${b.gapMs} ms`} (${b.elapsedMs.toFixed(0)} ms) | ${b.intervalMs} ms | ${b.snapshots} | ${(b.claims / b.snapshots).toFixed(0)} | ${b.writesPerSecond.toFixed(1)} | ${ms(b.serializeMs.p50)} | ${ms(b.writeMs.p50)} | ${(b.bytes / 1e6).toFixed(2)} MB | ${b.finalOnDisk ? "yes" : "**no**"} |`,
    );
  }
  const snap = bursts[0];
  if (snap) {
    const coalesced = bursts.every((b) => b.snapshots * 10 <= b.claims && b.finalOnDisk);
    lines.push(
      "",
      `Target "snapshot writes coalesced, far fewer writes than claims": ${coalesced ? "met" : "**missed**"} (${bursts.map((b) => `${b.snapshots} for ${b.claims}`).join(", ")}; the final revision always reached the disk).`,
      "",
      `Without coalescing, each of the ${snap.claims} claims would serialise the board (${ms(snap.serializeMs.p50)} on the leader's`,
      `thread) and write ${(snap.bytes / 1e6).toFixed(2)} MB: about ${((snap.claims * (snap.serializeMs.p50 + snap.writeMs.p50)) / 1000).toFixed(1)} s of work for a burst that lasts ${(snap.elapsedMs / 1000).toFixed(1)} s.`,
    );
  }
  return lines;
}

function report(small: SizeResult, big: SizeResult, bursts: BurstResult[]): string {
  return [...latencyTable(small, big), ...burstTable(bursts)].join("\n");
}

function writeDocs(section: string): void {
  const path = new URL("../docs/benchmarks.md", import.meta.url);
  let text = "";
  try {
    text = readFileSync(path, "utf8");
  } catch {
    text = "# Benchmarks\n";
  }
  const start = text.indexOf("\n## Board\n");
  if (start === -1) {
    text = `${text.trimEnd()}\n\n${section}\n`;
  } else {
    const next = text.indexOf("\n## ", start + 1);
    text = `${text.slice(0, start + 1)}${section}\n${next === -1 ? "" : text.slice(next)}`;
  }
  writeFileSync(path, text);
}

build(2_000); // warm-up (JIT)
const small = measure(1_000);
const big = measure(10_000);
const bursts = [await burst(1_000, 1, 250), await burst(1_000, 0, 250), await burst(1_000, 1, 1_000)];
const section = report(small, big, bursts);
console.log(section);
if (process.argv.includes("--write")) writeDocs(section);
