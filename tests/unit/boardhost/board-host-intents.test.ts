/**
 * BoardHost's intent scan against hostile or broken intent files: an intent id is used as a
 * file name, so it must never lead outside the intent folders, and one bad intent must never
 * block the intents after it. Every intent here is sealed with alice's spawn key, as her worker
 * seals it (board-host-seals.test.ts covers the unsealed and forged ones).
 */
import { TeamBus } from "../../../src/team/bus.ts";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BoardHost } from "../../../src/boardhost/board-host.ts";
import type { BoardMate } from "../../../src/boardhost/board-host-types.ts";
import { SpawnKeys } from "../../../src/mail/index.ts";
import { boardLayoutAt, type BoardLayout } from "../../../src/store/index.ts";
import { pipeAnswers, waitFor as waitForIn } from "../../support/board-host.ts";
import { sealedIntent, type IntentFields } from "../../support/sealed-intents.ts";

const ALICE: BoardMate = { name: "alice", spawnId: "alice-1", idle: true, hasAssignment: false, assignmentResources: undefined, roleVerify: undefined };

let dir: string;
let layout: BoardLayout;
let host: BoardHost | undefined;
let notes: string[];
let keys: SpawnKeys;
let pipes: ReturnType<typeof pipeAnswers>;

beforeEach(async () => {
  keys = new SpawnKeys();
  keys.issue("alice", "alice-1");
  dir = await mkdtemp(join(tmpdir(), "board-host-intents-"));
  // claims/ sits three levels below `dir`, so "../../../X" would land in `dir`.
  layout = boardLayoutAt(join(dir, "agent", "tasks", "key"));
  notes = [];
  pipes = pipeAnswers(notes);
});
afterEach(async () => {
  await host?.close();
  host = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function startHost(onSubmitted?: (holder: { name: string; spawnId: string }) => void, answer = pipes.answer): Promise<BoardHost> {
  const bus = new TeamBus();
  if (onSubmitted) bus.on("submitted", ({ holder }) => onSubmitted(holder));
  host = new BoardHost({
    bus,
    layout,
    keys,
    answer,
    cwd: dir,
    piCli: "pi-not-used",
    env: {},
    mates: () => [ALICE],
    teamModel: () => undefined,
    note: (text) => notes.push(text),
    paceMs: 0,
    intentGraceMs: 50,
  });
  await host.start();
  host.create({ subject: "Only task" }, "test board");
  return host;
}

const claim = (id: string, extra: Partial<IntentFields> = {}): IntentFields => ({ id, from: "alice", spawnId: "alice-1", action: "claim", ...extra });

/** Plants a marker sealed by alice's spawn, the way a (possibly broken or hostile) worker of hers could. */
async function plant(name: string, fields: IntentFields): Promise<void> {
  await mkdir(layout.claimsDir, { recursive: true });
  await writeFile(join(layout.claimsDir, `${name}.json`), JSON.stringify(sealedIntent(keys, fields)));
}

const waitFor = <T>(what: string, fn: () => Promise<T | undefined>) => waitForIn(what, fn, notes);
const decision = (id: string) => pipes.decision(id);

async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(root, join(e.parentPath, e.name))).sort();
}

async function pending(): Promise<string[]> {
  return (await readdir(layout.claimsDir, { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name);
}

describe("BoardHost intent scan", () => {
  it("never writes a file outside the intent folders for an id with ../, and one bad id never blocks later claims", async () => {
    // Sorted first, so before the fix they were handled before the good claim.
    await plant("aaa-escape", claim("../../../ESCAPED", { taskId: "nope" }));
    await plant("aab-poison", claim("nodir/poison", { taskId: "nope" }));
    await startHost();
    await plant("zzz-good", claim("zzz-good", { taskId: "only-task" }));

    const d = await decision("zzz-good");
    expect(d).toMatchObject({ ok: true, taskId: "only-task" });
    await waitFor("bad intents set aside", async () => ((await pending()).length === 0 ? true : undefined));
    const invalid = await readdir(join(layout.claimsDir, "invalid"));
    expect(invalid.map((n) => n.replace(/\.\d+\.json$/, "")).sort()).toEqual(["aaa-escape", "aab-poison"]);

    const all = await filesUnder(dir);
    expect(all.filter((f) => (f.includes("ESCAPED") || f.includes("poison")) && !f.includes("invalid"))).toEqual([]);
    expect(pipes.sent.map((a) => [a.to.name, a.id])).toEqual([["alice", "zzz-good"]]); // an id that is no file name is answered nowhere
    expect(notes.some((n) => n.includes("aaa-escape") && n.includes("/id"))).toBe(true);
  });

  it("answers an invalid intent with a readable, safe id by a rejection decision naming the problem", async () => {
    await startHost();
    await plant("long-claim", claim("long-claim", { taskId: "t".repeat(65) }));
    await plant("big-submit", { ...claim("big-submit", { taskId: "only-task", status: "completed", result: "r".repeat(61_000) }), action: "submit" });
    const long = await decision("long-claim");
    expect(long).toMatchObject({ ok: false, reason: "invalid_input" });
    expect(pipes.sent[0]!.to).toEqual({ name: "alice", spawnId: "alice-1" });
    expect(long.message).toContain("task_claim");
    expect(long.message).toContain("/taskId");
    expect(long.message).toContain("64 characters");
    const big = await decision("big-submit");
    expect(big).toMatchObject({ ok: false, reason: "invalid_input" });
    expect(big.message).toContain("task_submit");
    expect(big.message).toContain("/result");
    expect(String(big.message).length).toBeLessThan(600);
    await waitFor("both set aside", async () => ((await pending()).length === 0 ? true : undefined));
    expect((await readdir(join(layout.claimsDir, "invalid"))).length).toBe(2);
    expect(host?.board.tasks.get("only-task")?.state.status).toBe("pending");
  });

  it("sets aside an intent whose handling fails and goes on with the rest", async () => {
    // The answer to aaa-stuck throws (a broken pipe port): its handling fails.
    await startHost(undefined, (to, id, d) => {
      if (id === "aaa-stuck") throw new Error("the pipe broke");
      pipes.answer(to, id, d);
    });
    await plant("aaa-stuck", claim("aaa-stuck", { taskId: "nope" }));
    await plant("zzz-after", claim("zzz-after", { taskId: "only-task" }));

    expect(await decision("zzz-after")).toMatchObject({ ok: true, taskId: "only-task" });
    await waitFor("stuck intent set aside", async () => ((await pending()).length === 0 ? true : undefined));
    expect((await readdir(join(layout.claimsDir, "invalid"))).some((n) => n.startsWith("aaa-stuck."))).toBe(true);
    expect(notes.some((n) => n.includes("aaa-stuck"))).toBe(true);
  });

  it("publishes `submitted` for an accepted submission (an assignment boundary), not of a rejected one", async () => {
    const submitted: { name: string; spawnId: string }[] = [];
    await startHost((h) => submitted.push(h));
    await plant("c1", claim("c1", { taskId: "only-task" }));
    expect(await decision("c1")).toMatchObject({ ok: true });
    expect(submitted).toEqual([]);
    await plant("s0", { ...claim("s0", { taskId: "no-such-task", status: "completed" }), action: "submit" });
    expect(await decision("s0")).toMatchObject({ ok: false });
    await plant("s1", { ...claim("s1", { taskId: "only-task", status: "completed", result: "done" }), action: "submit" });
    expect(await decision("s1")).toMatchObject({ ok: true });
    expect(submitted).toEqual([{ name: "alice", spawnId: "alice-1" }]);
  });

  it("sets aside an intent whose id is not its file name, so it cannot answer for another worker", async () => {
    await startHost();
    await plant("aaa-forged", claim("zzz-victim", { taskId: "only-task" }));
    await waitFor("forged intent set aside", async () => ((await pending()).length === 0 ? true : undefined));
    expect((await readdir(join(layout.claimsDir, "invalid"))).some((n) => n.startsWith("aaa-forged."))).toBe(true);
    expect(pipes.sent).toEqual([]);
  });
});
