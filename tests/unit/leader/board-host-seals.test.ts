/**
 * BoardHost and sealed intents (issue 9, item 1): an intent not sealed by the spawn it names is
 * never applied, never answered, set aside in invalid/ and noted as "refused: not signed by
 * <name>'s spawn"; a genuine intent copied back after it was consumed is not applied twice;
 * every decision is sealed with the key of the intent's spawn; decisions nobody will read are
 * removed (the spawn went away, the board started or closed).
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BoardHost, type BoardMate } from "../../../src/leader/board-host.ts";
import { decisionSealHolds, INTENT_FORMAT_VERSION, sealOf, SpawnKeys, type BoardDecision } from "../../../src/mail/index.ts";
import { boardLayoutAt, type BoardLayout } from "../../../src/store/index.ts";
import { waitForDecision, waitFor as waitForIn } from "../../support/board-host.ts";
import { plantIntent, sealedIntent, type IntentFields } from "../../support/sealed-intents.ts";

const mate = (name: string): BoardMate => ({ name, spawnId: `${name}-1`, idle: true, hasAssignment: false, assignmentResources: undefined, roleVerify: undefined });

let dir: string;
let layout: BoardLayout;
let host: BoardHost | undefined;
let notes: string[];
let keys: SpawnKeys;
let aliceKey: Buffer;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "board-host-seals-"));
  layout = boardLayoutAt(join(dir, "board"));
  notes = [];
  keys = new SpawnKeys();
  aliceKey = keys.issue("alice", "alice-1");
  keys.issue("mallory", "mallory-1");
});
afterEach(async () => {
  await host?.close();
  host = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function startHost(): Promise<BoardHost> {
  host = new BoardHost({
    layout, keys, cwd: dir, piCli: "pi-not-used", env: {}, mates: () => [mate("alice"), mate("mallory")],
    tell: () => undefined, escalate: () => undefined, teamModel: () => undefined, note: (text) => notes.push(text), paceMs: 0, intentGraceMs: 50,
  });
  await host.start();
  host.create({ subject: "Only task" }, "test board");
  return host;
}

const alice = (id: string, extra: Partial<IntentFields> = {}): IntentFields => ({ id, from: "alice", spawnId: "alice-1", action: "claim", taskId: "only-task", ...extra });
const submit = (id: string, status: "completed" | "failed"): Partial<IntentFields> => ({ id, action: "submit", status, result: "r" });

const waitFor = <T>(what: string, fn: () => Promise<T | undefined>) => waitForIn(what, fn, notes);
const decision = (id: string) => waitForDecision<BoardDecision>(layout, id, notes);
const setAside = (dirPath: string, name: string) =>
  waitFor(`${name} set aside`, async () => ((await readdir(join(dirPath, "invalid"))).some((n) => n.startsWith(`${name}.`)) ? true : undefined));
const status = () => host?.board.tasks.get("only-task")?.state.status;

describe("BoardHost: intents must be sealed by the spawn they name", () => {
  it("never applies or answers an unsealed, badly sealed or peer-sealed intent in alice's name; each is noted as refused", async () => {
    await startHost();
    const unsealed = { v: INTENT_FORMAT_VERSION, at: Date.now(), ...alice("f-none") };
    const garbage = { ...unsealed, id: "f-bad", sig: "A".repeat(43) };
    const byPeer = { ...sealedIntent(keys, { ...alice("f-peer"), from: "mallory", spawnId: "mallory-1" }), from: "alice", spawnId: "alice-1" };
    const wrongSpawn = { ...sealedIntent(keys, { ...alice("f-spawn"), from: "mallory", spawnId: "mallory-1" }), from: "alice" };
    const tampered = { ...sealedIntent(keys, alice("f-edit", { taskId: "nope" })), taskId: "only-task" };
    for (const [name, record] of Object.entries({ "f-none": unsealed, "f-bad": garbage, "f-peer": byPeer, "f-spawn": wrongSpawn, "f-edit": tampered })) {
      await plantIntent(layout.claimsDir, name, record);
    }
    for (const name of ["f-none", "f-bad", "f-peer", "f-spawn", "f-edit"]) await setAside(layout.claimsDir, name);
    expect(status()).toBe("pending");
    expect(await readdir(layout.decisionsDir)).toEqual([]);
    expect(notes.filter((n) => n.startsWith("refused: not signed by alice's spawn: intent"))).toHaveLength(5);
    expect(notes.filter((n) => n.startsWith("refused: not signed by mallory's spawn"))).toHaveLength(0);
    // Mallory's own seal under alice's name says whose spawn the intent claims to be: alice's.
    expect(notes.some((n) => n.includes("f-peer") && n.startsWith("refused: not signed by alice's spawn"))).toBe(true);

    // A real claim of alice's still goes through, and is answered with a decision sealed for her.
    await plantIntent(layout.claimsDir, "real", sealedIntent(keys, alice("real")));
    const d = await decision("real");
    expect(d).toMatchObject({ v: 2, ok: true, taskId: "only-task" });
    expect(decisionSealHolds(aliceKey, d)).toBe(true);
    expect(decisionSealHolds(keys.keyOf("mallory", "mallory-1")!, d)).toBe(false);
  });

  it("gives an unsealed invalid intent with a usable id no decision: a forger cannot answer a waiting call", async () => {
    await startHost();
    await plantIntent(layout.submissionsDir, "victim-id", { v: INTENT_FORMAT_VERSION, at: Date.now(), ...alice("victim-id", { taskId: "t".repeat(65) }) });
    await setAside(layout.submissionsDir, "victim-id");
    expect(await readdir(layout.decisionsDir)).toEqual([]);
    expect(notes.some((n) => n.startsWith("refused: not signed by alice's spawn") && n.includes("victim-id"))).toBe(true);
  });

  it("sets aside a genuine intent copied back after it was consumed (a replay), without applying it again", async () => {
    await startHost();
    const claim = sealedIntent(keys, alice("c1"));
    await plantIntent(layout.claimsDir, "c1", claim);
    expect(await decision("c1")).toMatchObject({ ok: true });
    await rm(join(layout.decisionsDir, "c1.json")); // alice's worker read it
    await plantIntent(layout.submissionsDir, "s1", sealedIntent(keys, alice("s1", submit("s1", "failed"))));
    expect(await decision("s1")).toMatchObject({ ok: true });
    expect(status()).toBe("pending");

    await plantIntent(layout.claimsDir, "c1", claim); // the consumed claim, put back under its name
    await setAside(layout.claimsDir, "c1");
    expect(status()).toBe("pending");
    expect((await readdir(layout.decisionsDir)).filter((n) => n.startsWith("c1"))).toEqual([]);
    expect(notes.some((n) => n.startsWith("refused: intent c1 of alice was already answered"))).toBe(true);
  });

  it("seals a stale spawn's rejection with that spawn's key", async () => {
    const oldKey = keys.issue("alice", "alice-0");
    await startHost();
    await plantIntent(layout.claimsDir, "old", sealedIntent(keys, { ...alice("old"), spawnId: "alice-0" }));
    const d = await decision("old");
    expect(d).toMatchObject({ ok: false, reason: "stale_spawn" });
    expect(decisionSealHolds(oldKey, d)).toBe(true);
    expect(decisionSealHolds(aliceKey, d)).toBe(false);
  });
});

describe("BoardHost: unread decisions are cleaned", () => {
  it("removes a spawn's unread decisions when it goes away, and every decision at start and close", async () => {
    await mkdir(layout.decisionsDir, { recursive: true });
    await writeFile(join(layout.decisionsDir, "leftover.json"), "{}"); // from an earlier leader of this board
    const b = await startHost();
    expect(await readdir(layout.decisionsDir)).toEqual([]);

    await plantIntent(layout.claimsDir, "c1", sealedIntent(keys, alice("c1")));
    await plantIntent(layout.claimsDir, "m1", sealedIntent(keys, { id: "m1", from: "mallory", spawnId: "mallory-1", action: "claim" }));
    await decision("c1");
    await decision("m1");
    b.holderGone({ name: "alice", spawnId: "alice-1" }, "crash");
    await waitFor("alice's decision removed", async () => ((await readdir(layout.decisionsDir)).includes("c1.json") ? undefined : true));
    expect(await readdir(layout.decisionsDir)).toEqual(["m1.json"]);

    await b.close();
    expect(await readdir(layout.decisionsDir)).toEqual([]);
  });

  it("a decision file a peer planted does not count as sealed", () => {
    const forged: BoardDecision = { v: 2, id: "x", at: 1, ok: true, message: "Claimed task only-task.", sig: sealOf(keys.keyOf("mallory", "mallory-1")!, "decision", [2, "x", 1, true, null, "Claimed task only-task.", null]) };
    expect(decisionSealHolds(aliceKey, forged)).toBe(false);
  });
});
