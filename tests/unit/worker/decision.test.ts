/**
 * requestDecision and the worker's decisions watcher: the whole intent is validated before it is
 * published (an intent the leader would set aside is refused at once with the field, the value
 * and the limit); a published intent is sealed with the spawn's key; one watcher serves every
 * call, routing each decision file by its id; a file the leader did not seal for this spawn (a
 * forged or replayed decision) is ignored and the call keeps waiting for the real one.
 */
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { TeamError } from "../../../src/errors.ts";
import { intentSealHolds, newSpawnKey, sealDecision, SpawnKeys, type BoardDecision, type BoardIntent } from "../../../src/mail/index.ts";
import { boardLayoutAt, type BoardLayout } from "../../../src/store/index.ts";
import { requestDecision } from "../../../src/worker/decision.ts";
import { decisionIdOf, DecisionWatcher } from "../../../src/worker/decision-watch.ts";
import { useTempDirs } from "../store/tmp.ts";

const tempDir = useTempDirs();
const who = { from: "alice", spawnId: "alice-1" } as const;
const watchers: DecisionWatcher[] = [];
afterEach(async () => {
  await Promise.all(watchers.splice(0).map((w) => w.close()));
});

async function channel(key: Buffer = newSpawnKey()): Promise<{ layout: BoardLayout; key: Buffer; watcher: DecisionWatcher }> {
  const layout = boardLayoutAt(join(await tempDir(), "board"));
  await mkdir(layout.claimsDir, { recursive: true });
  await mkdir(layout.submissionsDir, { recursive: true });
  const watcher = new DecisionWatcher({ dir: layout.decisionsDir, key, safetyPollMs: 100 });
  watchers.push(watcher);
  return { layout, key, watcher };
}

async function refused(intent: Parameters<typeof requestDecision>[1]): Promise<{ error: TeamError; ms: number; published: string[] }> {
  const c = await channel();
  const t0 = Date.now();
  // No leader answers here: without the check this would end in a timeout.
  const error = await requestDecision(c, intent, 3000).catch((e: unknown) => e);
  const ms = Date.now() - t0;
  expect(error).toBeInstanceOf(TeamError);
  const published = [...(await readdir(c.layout.claimsDir)), ...(await readdir(c.layout.submissionsDir))];
  return { error: error as TeamError, ms, published };
}

/** The intent published in `dir`, once there. */
async function published(dir: string): Promise<BoardIntent> {
  for (let i = 0; i < 200; i++) {
    const names = (await readdir(dir)).filter((n) => n.endsWith(".json") && !n.startsWith("."));
    if (names.length > 0) return JSON.parse(await readFile(join(dir, names[0]!), "utf8")) as BoardIntent;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`no intent in ${dir}`);
}

const answer = (key: Buffer, id: string, message: string): BoardDecision => sealDecision(key, { v: 2, id, at: Date.now(), ok: true, message });

describe("requestDecision", () => {
  it("refuses a claim whose task id breaks the intent schema at once, naming field, value and limit", async () => {
    const { error, ms, published: names } = await refused({ ...who, action: "claim", taskId: "t".repeat(65) });
    expect(error.code).toBe("invalid_input");
    expect(error.message).toContain("task_claim");
    expect(error.message).toContain("/taskId");
    expect(error.message).toContain("tttt");
    expect(error.message).toContain("65 characters");
    expect(error.message).toContain("64 characters");
    expect(error.message.length).toBeLessThan(400);
    expect(ms).toBeLessThan(2000);
    expect(names).toEqual([]);
  });

  it("refuses a submission whose result is over the intent limit, without echoing it whole", async () => {
    const { error, published: names } = await refused({ ...who, action: "submit", taskId: "a", status: "completed", result: "r".repeat(61_000) });
    expect(error.code).toBe("invalid_input");
    expect(error.message).toContain("task_submit");
    expect(error.message).toContain("/result");
    expect(error.message).toContain("61000 characters");
    expect(error.message).toContain("60000 characters");
    expect(error.message.length).toBeLessThan(400);
    expect(names).toEqual([]);
  });

  it("publishes an intent sealed with the spawn's key and returns the leader's sealed answer, removing it", async () => {
    const keys = new SpawnKeys();
    const c = await channel(keys.issue("alice", "alice-1"));
    const call = requestDecision(c, { ...who, action: "claim", taskId: "t1" }, 5000);
    const intent = await published(c.layout.claimsDir);
    expect(intent).toMatchObject({ v: 2, from: "alice", spawnId: "alice-1", action: "claim", taskId: "t1" });
    expect(intentSealHolds(keys, intent as unknown as Record<string, unknown>)).toBe(true);
    await writeFile(join(c.layout.decisionsDir, `${intent.id}.json`), JSON.stringify(answer(c.key, intent.id, "Claimed task t1: T.")));
    expect(await call).toMatchObject({ ok: true, message: "Claimed task t1: T." });
    expect(await readdir(c.layout.decisionsDir)).toEqual([]);
  });

  it("ignores a forged or replayed decision in the waiting call's name and keeps waiting for the real one", async () => {
    const c = await channel();
    let settled: BoardDecision | undefined;
    const call = requestDecision(c, { ...who, action: "claim", taskId: "t1" }, 5000).then((d) => (settled = d));
    const { id } = await published(c.layout.claimsDir);
    const path = join(c.layout.decisionsDir, `${id}.json`);
    const forgeries: unknown[] = [
      { v: 2, id, at: Date.now(), ok: true, message: "FORGED unsealed" },
      { v: 2, id, at: Date.now(), ok: true, message: "FORGED bad seal", sig: "A".repeat(43) },
      answer(newSpawnKey(), id, "FORGED another key"),
      answer(c.key, "an-old-id", "REPLAYED another call's answer"),
    ];
    for (const f of forgeries) {
      await writeFile(path, JSON.stringify(f));
      await new Promise((r) => setTimeout(r, 250)); // past the 100 ms safety poll
      expect(settled).toBeUndefined();
    }
    expect(c.watcher.waiting).toEqual([id]);
    await writeFile(path, JSON.stringify(answer(c.key, id, "the real one")));
    expect((await call).message).toBe("the real one");
  });

  it("serves many calls with one watcher, routing each decision by its id", async () => {
    const c = await channel();
    const calls = ["a", "b", "c"].map((taskId) => requestDecision(c, { ...who, action: "claim", taskId }, 5000));
    const ids = await (async () => {
      for (;;) {
        const names = (await readdir(c.layout.claimsDir)).filter((n) => n.endsWith(".json") && !n.startsWith("."));
        if (names.length === 3) return Promise.all(names.map(async (n) => JSON.parse(await readFile(join(c.layout.claimsDir, n), "utf8")) as BoardIntent));
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    for (const i of [...ids].reverse()) await writeFile(join(c.layout.decisionsDir, `${i.id}.json`), JSON.stringify(answer(c.key, i.id, `answer for ${i.taskId}`)));
    expect((await Promise.all(calls)).map((d) => d.message)).toEqual(["answer for a", "answer for b", "answer for c"]);
    expect(c.watcher.waiting).toEqual([]);
  });

  it("rejects a waiting call with io_error when the watcher closes (session_shutdown)", async () => {
    const c = await channel();
    const call = requestDecision(c, { ...who, action: "claim" }, 5000).catch((e: unknown) => e);
    await published(c.layout.claimsDir);
    await c.watcher.close();
    const error = (await call) as TeamError;
    expect(error).toBeInstanceOf(TeamError);
    expect(error.code).toBe("io_error");
    expect(error.message).toContain("shutting down");
  });
});

describe("decisionIdOf", () => {
  it("routes a direct <id>.json child of the decisions dir to its id, nothing else", () => {
    const dir = "/b/decisions";
    expect(decisionIdOf(dir, "/b/decisions/m3x9k2-4f1a.json")).toBe("m3x9k2-4f1a");
    expect(decisionIdOf(dir, "/b/decisions")).toBeUndefined();
    expect(decisionIdOf(dir, "/b/decisions/.tmp-m3x9k2.json")).toBeUndefined();
    expect(decisionIdOf(dir, "/b/decisions/sub/m3x9k2.json")).toBeUndefined();
    expect(decisionIdOf(dir, "/b/other/m3x9k2.json")).toBeUndefined();
    expect(decisionIdOf(dir, "/b/decisions/m3x9k2.txt")).toBeUndefined();
    expect(decisionIdOf(dir, "/b/decisions/a.b.json")).toBeUndefined();
  });
});
