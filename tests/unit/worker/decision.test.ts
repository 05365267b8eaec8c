/**
 * requestDecision, a file teammate's claim or submission: the whole intent is validated before
 * it is published (an intent the leader would set aside is refused at once with the field, the
 * value and the limit); a published intent is sealed with the spawn's key; the leader's decision
 * comes back on the teammate's own pipe (its stdin, /pi-teams-stream), routed by the intent id,
 * with no file and no watcher.
 */
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TeamError } from "../../../src/errors.ts";
import { intentSealHolds, newSpawnKey, SpawnKeys, type BoardIntent } from "../../../src/mail/index.ts";
import type { BoardDecision } from "../../../src/mail/stream-wire.ts";
import { boardLayoutAt, type BoardLayout } from "../../../src/store/index.ts";
import { requestDecision } from "../../../src/worker/decision.ts";
import { StreamLink } from "../../../src/worker/stream-link.ts";
import { fakePipePi } from "../../support/fake-pipe.ts";
import { useTempDirs } from "../store/tmp.ts";

const tempDir = useTempDirs();
const who = { from: "alice", spawnId: "alice-1" } as const;

async function channel(key: Buffer = newSpawnKey()) {
  const layout: BoardLayout = boardLayoutAt(join(await tempDir(), "board"));
  await mkdir(layout.claimsDir, { recursive: true });
  await mkdir(layout.submissionsDir, { recursive: true });
  const fake = fakePipePi();
  const notes: string[] = [];
  return { layout, key, link: new StreamLink(fake.pi, (l) => notes.push(l)), leader: fake.leader, sent: fake.sent, notes };
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

/** The intents published in `dir`, once there are `count`. */
async function published(dir: string, count = 1): Promise<BoardIntent[]> {
  for (let i = 0; i < 200; i++) {
    const names = (await readdir(dir)).filter((n) => n.endsWith(".json") && !n.startsWith("."));
    if (names.length >= count) return Promise.all(names.map(async (n) => JSON.parse(await readFile(join(dir, n), "utf8")) as BoardIntent));
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`no ${count} intents in ${dir}`);
}

const accepted = (message: string): BoardDecision => ({ ok: true, message });

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

  it("publishes an intent file sealed with the spawn's key and returns the leader's decision from the pipe", async () => {
    const keys = new SpawnKeys();
    const c = await channel(keys.issue("alice", "alice-1"));
    const call = requestDecision(c, { ...who, action: "claim", taskId: "t1" }, 5000);
    const [intent] = await published(c.layout.claimsDir);
    expect(intent).toMatchObject({ v: 2, from: "alice", spawnId: "alice-1", action: "claim", taskId: "t1" });
    expect(intentSealHolds(keys, intent as unknown as Record<string, unknown>)).toBe(true);
    const decision = { ok: false, reason: "blocked", message: "Task t1 is blocked.", taskId: "t1" } satisfies BoardDecision;
    await c.leader({ kind: "answer", id: intent!.id, ok: false, text: decision.message, decision });
    expect(await call).toEqual(decision);
    expect(c.sent).toEqual([]); // a file teammate's intent does not travel on the pipe, only its answer
  });

  it("an answer to another id does not settle the call; the answer to its own does", async () => {
    const c = await channel();
    let settled: BoardDecision | undefined;
    const call = requestDecision(c, { ...who, action: "claim", taskId: "t1" }, 5000).then((d) => (settled = d));
    const [{ id }] = (await published(c.layout.claimsDir)) as [BoardIntent];
    await c.leader({ kind: "answer", id: "an-old-id", ok: true, text: "REPLAYED", decision: accepted("REPLAYED another call's answer") });
    await new Promise((r) => setTimeout(r, 50));
    expect(settled).toBeUndefined();
    await c.leader({ kind: "answer", id, ok: true, text: "the real one", decision: accepted("the real one") });
    await call;
    expect(settled?.message).toBe("the real one");
  });

  it("serves many calls at once, routing each answer by its intent id", async () => {
    const c = await channel();
    const calls = ["a", "b", "c"].map((taskId) => requestDecision(c, { ...who, action: "claim", taskId }, 5000));
    const ids = await published(c.layout.claimsDir, 3);
    for (const i of [...ids].reverse()) await c.leader({ kind: "answer", id: i.id, ok: true, text: "x", decision: accepted(`answer for ${i.taskId}`) });
    expect((await Promise.all(calls)).map((d) => d.message)).toEqual(["answer for a", "answer for b", "answer for c"]);
  });

  it("reads an answer without a decision (a leader of another build) as an invalid_input rejection with its text", async () => {
    const c = await channel();
    const call = requestDecision(c, { ...who, action: "submit", taskId: "t1", status: "failed", result: "r" }, 5000);
    const [{ id }] = (await published(c.layout.submissionsDir)) as [BoardIntent];
    await c.leader({ kind: "answer", id, ok: false, text: "no such thing" });
    expect(await call).toEqual({ ok: false, reason: "invalid_input", message: "no such thing" });
  });

  it("fails with timeout when no answer comes, and with io_error when the intent cannot be published", async () => {
    const c = await channel();
    await expect(requestDecision(c, { ...who, action: "claim" }, 50)).rejects.toMatchObject({ code: "timeout" });
    // A board dir whose claims/ is a file: the intent cannot be published, and nothing waits 5 s.
    const blocked = { ...c, layout: boardLayoutAt(join(c.layout.root, "odd")) };
    await mkdir(blocked.layout.root, { recursive: true });
    await writeFile(blocked.layout.claimsDir, "a file, not a dir");
    await expect(requestDecision(blocked, { ...who, action: "claim" }, 5000)).rejects.toMatchObject({ code: "io_error" });
  });
});
