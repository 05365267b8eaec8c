/**
 * The leader's decision files: sealed for the intent's spawn, and removed when nobody will read
 * them (older than the worker's wait, the spawn gone, or all of them at start and close).
 */
import { mkdir, readdir, readFile, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BoardDecisions } from "../../../src/leader/board-decisions.ts";
import { decisionSealHolds, newSpawnKey, type BoardDecision } from "../../../src/mail/index.ts";
import { useTempDirs } from "../store/tmp.ts";

const tempDir = useTempDirs();

async function setup(maxAgeMs = 120_000) {
  const dir = join(await tempDir(), "decisions");
  await mkdir(dir, { recursive: true });
  const notes: string[] = [];
  return { dir, notes, decisions: new BoardDecisions({ dir, now: Date.now, note: (t) => notes.push(t), maxAgeMs }) };
}
const ls = async (dir: string) => (await readdir(dir)).sort();

describe("BoardDecisions", () => {
  it("writes a decision sealed with the given spawn's key, mode 0600", async () => {
    const { dir, decisions } = await setup();
    const key = newSpawnKey();
    await decisions.write({ v: 2, id: "d1", at: 5, ok: false, reason: "blocked", message: "m", taskId: "t" }, { key, spawnId: "s1" });
    const d = JSON.parse(await readFile(join(dir, "d1.json"), "utf8")) as BoardDecision;
    expect(d).toMatchObject({ v: 2, id: "d1", ok: false, reason: "blocked", message: "m", taskId: "t" });
    expect(decisionSealHolds(key, d)).toBe(true);
    expect(decisionSealHolds(newSpawnKey(), d)).toBe(false);
  });

  it("removes a gone spawn's unread decisions only", async () => {
    const { dir, decisions } = await setup();
    const key = newSpawnKey();
    for (const [id, spawnId] of [["a1", "alice-1"], ["a2", "alice-1"], ["b1", "bob-1"]] as const) {
      await decisions.write({ v: 2, id, at: 1, ok: true, message: "m" }, { key, spawnId });
    }
    await decisions.spawnGone("alice-1");
    expect(await ls(dir)).toEqual(["b1.json"]);
  });

  it("sweeps decisions older than the worker's wait (planted ones too), keeps younger ones, temp files and dirs", async () => {
    const { dir, decisions } = await setup(60_000);
    await decisions.write({ v: 2, id: "old", at: 1, ok: true, message: "m" }, { key: newSpawnKey(), spawnId: "s" });
    await writeFile(join(dir, "planted.json"), "{}");
    await writeFile(join(dir, "young.json"), "{}");
    await writeFile(join(dir, ".tmp-x.json"), "{}");
    await mkdir(join(dir, "adir.json"));
    const past = new Date(Date.now() - 61_000);
    for (const n of ["old.json", "planted.json", ".tmp-x.json"]) await utimes(join(dir, n), past, past);
    await decisions.sweep();
    expect(await ls(dir)).toEqual([".tmp-x.json", "adir.json", "young.json"]);
    await decisions.clear();
    expect(await ls(dir)).toEqual([".tmp-x.json", "adir.json"]);
  });
});
