/**
 * Fault suite, case 3: a process killed while it writes board.json. A child runs the leader's
 * real writer (tests/faults/fixtures/board-writer.ts: BoardSnapshots, write-file-atomic) in a
 * loop of back-to-back writes of a 100-task board; the test SIGKILLs it at a random moment,
 * checks that board.json parses as a whole board whose revision is the one before the child or
 * one the child wrote, and starts the next child on the same file (which reads it like a leader
 * at start). KILLS kills in two lanes (two boards) at once.
 *
 * Each kill costs a process start, so the child starts from a V8 startup snapshot: the writer
 * is bundled with esbuild (vitest's own bundler) and `node --build-snapshot` loads it once into
 * a heap image; every child then starts from that image (modules loaded, nothing run yet) and
 * calls `runWriter` in a fresh process. Run from the TypeScript sources a child needs about a
 * second to start on a loaded 2-core machine; from the snapshot a fraction of that. The code
 * that writes is the same.
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { build } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";
import { parseBoardFile } from "../../src/board/index.ts";
import { FIGURES_DIR, recordFigures, secondsSince, seededRandom } from "./support/figures.ts";

const KILLS = Number(process.env.FAULTS_WRITE_KILLS ?? 1000);
const LANES = Number(process.env.FAULTS_WRITE_LANES ?? 2);
const FIXTURES = new URL("./fixtures/", import.meta.url).pathname;
const BUILD = join(FIGURES_DIR, "..", "faults-build");
const BUNDLE = join(BUILD, "board-writer.cjs");
const BLOB = join(BUILD, "board-writer.blob");
/** The snapshot's entry: in the snapshot builder it only registers the main function. */
const ENTRY = `
const { runWriter } = require("./board-writer.ts");
const v8 = require("node:v8");
if (v8.startupSnapshot.isBuildingSnapshot()) v8.startupSnapshot.setDeserializeMainFunction(() => void runWriter(process.argv[1]));
else void runWriter(process.argv[2]);
`;

beforeAll(async () => {
  await build({ stdin: { contents: ENTRY, resolveDir: FIXTURES, loader: "js" }, outfile: BUNDLE, bundle: true, platform: "node", format: "cjs", logLevel: "warning" });
  // write-file-atomic asks worker_threads for its thread id at load, which node warns about in a snapshot.
  await execa(process.execPath, ["--snapshot-blob", BLOB, "--build-snapshot", BUNDLE], { cwd: BUILD, env: { NODE_NO_WARNINGS: "1" } });
});

/** What one lane saw. */
interface LaneResult {
  kills: number;
  /** Sum of the children's start-to-ready times (ms). */
  startMs: number;
  parsed: number;
  /** The writer's own notes (a failed write): must be none. */
  notes: string[];
  failures: string[];
  movedAside: number;
  /** Kills after which board.json was still the file the child had loaded. */
  unchanged: number;
  tempLeft: number;
  revisions: number[];
  /** The lane's first kill, once the first write had landed: board.json then parsed as a whole board. */
  witnessed: boolean;
}

/** Starts a writer on `dir`, resolves with its loaded revision once it prints `ready`. */
async function startWriter(dir: string) {
  const child = execa(process.execPath, ["--snapshot-blob", BLOB, dir], { stdout: "pipe", stderr: "pipe", buffer: false, reject: false });
  let moved = false;
  const notes: string[] = [];
  const ready = new Promise<number>((resolve, reject) => {
    let text = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      if (/^moved$/m.test(text)) moved = true;
      for (const m of text.matchAll(/^note (.*)$/gm)) if (!notes.includes(m[1]!)) notes.push(m[1]!);
      const m = /^ready (\d+)$/m.exec(text);
      if (m) resolve(Number(m[1]));
    });
    void child.then((r) => reject(new Error(`writer exited before ready: ${r.exitCode ?? r.signal} ${String(r.stderr ?? "")}`)));
  });
  return { child, ready, moved: () => moved, notes };
}

/** One lane: KILLS / LANES kills of writers on one board dir. */
async function lane(kills: number, rnd: ReturnType<typeof seededRandom>): Promise<LaneResult> {
  const dir = await mkdtemp(join(tmpdir(), "pi-teams-faults-board-"));
  const out: LaneResult = { kills: 0, startMs: 0, parsed: 0, notes: [], failures: [], movedAside: 0, unchanged: 0, tempLeft: 0, revisions: [], witnessed: false };
  let previous = -1;
  try {
    // A first board on disk (not counted): every counted kill then has an old revision to keep.
    // Killed once its first write landed (often inside its next one), it is also the lane's proof
    // that the writer really writes: on a slow or loaded machine every random kill below can
    // come before a child's first write, and a lane of unchanged files proves nothing.
    const first = await startWriter(dir);
    await first.ready;
    while (!(await readdir(dir)).includes("board.json")) await new Promise((r) => setTimeout(r, 5));
    first.child.kill("SIGKILL");
    await first.child;
    const witness = parseBoardFile(await readFile(join(dir, "board.json"), "utf8"));
    if (witness.ok && witness.file.tasks.length === 100) out.witnessed = true;
    else out.failures.push(`first kill: board.json ${witness.ok ? `has ${witness.file.tasks.length} tasks` : `${witness.reason}: ${witness.message}`}`);
    for (let i = 0; i < kills; i++) {
      const tk = Date.now();
      const w = await startWriter(dir);
      const loaded = await w.ready;
      out.startMs += Date.now() - tk;
      if (w.moved()) out.movedAside++;
      await new Promise((r) => setTimeout(r, rnd.int(0, 30)));
      w.child.kill("SIGKILL");
      await w.child;
      out.kills++;
      out.notes.push(...w.notes);
      const parsed = parseBoardFile(await readFile(join(dir, "board.json"), "utf8"));
      if (!parsed.ok) {
        out.failures.push(`kill ${i}: ${parsed.reason}: ${parsed.message}`);
        continue;
      }
      const rev = parsed.file.revision;
      const whole = parsed.file.tasks.length === 100;
      if (whole && rev >= loaded && rev >= previous) out.parsed++;
      else out.failures.push(`kill ${i}: revision ${rev} (loaded ${loaded}, previous ${previous}), ${parsed.file.tasks.length} tasks`);
      if (rev === loaded) out.unchanged++;
      out.revisions.push(rev);
      previous = rev;
    }
    out.tempLeft = (await readdir(dir)).filter((f) => f !== "board.json").length;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return out;
}

describe("kill while writing board.json", () => {
  it(`${KILLS} SIGKILLs of the real board.json writer: the file always parses, as the old or a new revision`, async () => {
    const t0 = Date.now();
    const rnd = seededRandom();
    const lanes = await Promise.all(Array.from({ length: LANES }, () => lane(KILLS / LANES, rnd)));
    const sum = (f: (l: LaneResult) => number) => lanes.reduce((a, l) => a + f(l), 0);
    const failures = lanes.flatMap((l) => l.failures);
    const notes = lanes.flatMap((l) => l.notes);
    const newer = sum((l) => l.kills) - sum((l) => l.unchanged) - failures.length;
    const writes = lanes.reduce((a, l) => a + (l.revisions.at(-1) ?? 0), 0);
    recordFigures("board-write-kill", {
      order: 3,
      title: "SIGKILL while writing board.json (case 3)",
      seconds: secondsSince(t0),
      seed: rnd.seed,
      lines: [
        `${sum((l) => l.kills)} kills of the real writer (BoardSnapshots + write-file-atomic, 100 tasks, about 35 KB per write) in ${LANES} lanes, each at a random 0-30 ms after the writer was ready`,
        `board.json parsed as a whole board after ${sum((l) => l.parsed)} of ${sum((l) => l.kills)} kills; failures: ${failures.length}; moved aside as corrupt by the next reader: ${sum((l) => l.movedAside)}`,
        `the old revision survived ${sum((l) => l.unchanged)} kills (killed before its first write finished); a newer one ${newer}; writer notes (failed writes): ${notes.length}; each lane's first kill, after its first write landed, left a whole board: ${lanes.filter((l) => l.witnessed).length} of ${LANES}`,
        `temp files (board.json.<n>) left behind by killed writes: ${sum((l) => l.tempLeft)} (the next leader removes them when it loads the board)`,
        `revisions reached: ${writes} (board ops; the writer coalesces them into fewer writes); a child took ${Math.round(sum((l) => l.startMs) / Math.max(1, sum((l) => l.kills)))} ms on average from spawn to ready`,
      ],
    });
    // The only note a writer may make: it removed the temp files an earlier kill left.
    expect(notes.filter((n) => !/^removed \d+ temp file\(s\) of board\.json writes/.test(n))).toEqual([]);
    // The writer really wrote: each lane's first kill came after a write landed (random kills may all come before one).
    expect(lanes.every((l) => l.witnessed)).toBe(true);
    expect(failures).toEqual([]);
    expect(sum((l) => l.movedAside)).toBe(0);
    expect(sum((l) => l.parsed)).toBe(KILLS);
  });
});
