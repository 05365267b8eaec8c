/**
 * Board steps: board.json, reload and coalesced snapshots (features/board-persistence.feature).
 */
import assert from "node:assert/strict";
import { Then, When } from "@cucumber/cucumber";
import {
  SnapshotScheduler,
  claimTask,
  parseBoardFile,
  reviveBoard,
  serializeBoard,
  type BoardParseResult,
} from "../../src/board/index.ts";
import { lastResult, mate, names, record, scene } from "./board-world.steps.ts";

interface PersistenceScene {
  parsed?: BoardParseResult;
  fileText?: string;
  released?: string[];
  snapshots?: number[];
  finalRevision?: number;
}

function persistence(world: object): PersistenceScene {
  const w = world as { boardFile?: PersistenceScene };
  w.boardFile ??= {};
  return w.boardFile;
}

When("the board is saved and reloaded with living teammates {string}", function (list: string) {
  const s = scene(this);
  const p = persistence(this);
  p.fileText = serializeBoard(s.board);
  const parsed = parseBoardFile(p.fileText);
  assert.ok(parsed.ok, parsed.ok ? "" : parsed.message);
  const living = names(list).map((name) => ({ name, spawnId: mate(s, name).spawnId }));
  for (const name of [...s.mates.keys()]) if (!names(list).includes(name)) s.mates.delete(name);
  const revived = reviveBoard(parsed.file, living, s.now);
  s.board = revived.board;
  p.released = revived.released;
  record(s, { ok: true, effects: revived.effects });
});

Then("the reload released {string}", function (ids: string) {
  assert.deepEqual(persistence(this).released, names(ids));
});

Then("the board file has format version {int}", function (version: number) {
  assert.equal(JSON.parse(persistence(this).fileText ?? "{}").version, version);
});

Then("the last board operation asks to persist", function () {
  const s = scene(this);
  assert.deepEqual(
    lastResult(s).effects.filter((e) => e.type === "persist"),
    [{ type: "persist", revision: s.board.revision }],
  );
});

Then("the last board operation does not ask to persist", function () {
  assert.equal(lastResult(scene(this)).effects.filter((e) => e.type === "persist").length, 0);
});

When(
  "{int} teammates each claim a task {int} ms apart with snapshots at most every {int} ms",
  function (count: number, gapMs: number, intervalMs: number) {
    const s = scene(this);
    const p = persistence(this);
    const scheduler = new SnapshotScheduler({ minIntervalMs: intervalMs, writtenRevision: s.board.revision });
    const snapshots: number[] = [];
    const flush = (now: number): void => {
      const revision = scheduler.begin(now);
      if (revision === undefined) return;
      snapshots.push(revision);
      scheduler.done(revision, true, now);
    };
    let now = s.now;
    for (let i = 0; i < count; i++, now += gapMs) {
      const r = claimTask(s.board, { holder: { name: `burst-${i}`, spawnId: `b${i}`, hasAssignment: false } }, now);
      assert.ok(r.ok, r.ok ? "" : r.message);
      for (const e of r.effects) if (e.type === "persist") scheduler.markDirty(e.revision, now);
      flush(now);
    }
    const due = scheduler.dueAt();
    if (due !== undefined) flush(Math.max(now, due));
    p.snapshots = snapshots;
    p.finalRevision = s.board.revision;
  },
);

Then("at most {int} snapshots are written", function (max: number) {
  const written = persistence(this).snapshots ?? [];
  assert.ok(written.length > 0 && written.length <= max, `${written.length} snapshots`);
});

Then("the last snapshot holds the board's final revision", function () {
  const p = persistence(this);
  assert.equal(p.snapshots?.at(-1), p.finalRevision);
});

When("board.json contains {string}", function (text: string) {
  persistence(this).parsed = parseBoardFile(text);
});

Then("loading board.json fails as {string}", function (reason: string) {
  const parsed = persistence(this).parsed;
  assert.ok(parsed && !parsed.ok, "the file was accepted");
  assert.equal(parsed.reason, reason, parsed.message);
});

Then("the failure says the file must not be overwritten", function () {
  const parsed = persistence(this).parsed;
  assert.ok(parsed && !parsed.ok && parsed.message.includes("never overwrite"));
});
