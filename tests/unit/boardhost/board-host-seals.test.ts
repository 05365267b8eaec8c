/**
 * BoardHost and sealed intents (issue 9, item 1): an intent not sealed by the spawn it names is
 * never applied, never answered, set aside in invalid/ and noted as "refused: not signed by
 * <name>'s spawn"; a genuine intent copied back after it was consumed is not applied twice;
 * every decision goes to the pipe of the spawn that sealed the intent, and to no file.
 */
import { TeamBus } from "../../../src/team/bus.ts";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BoardHost } from "../../../src/boardhost/board-host.ts";
import type { BoardMate } from "../../../src/boardhost/board-host-types.ts";
import { INTENT_FORMAT_VERSION, SpawnKeys } from "../../../src/mail/index.ts";
import { boardLayoutAt, type BoardLayout } from "../../../src/store/index.ts";
import { pipeAnswers, waitFor as waitForIn } from "../../support/board-host.ts";
import { plantIntent, sealedIntent, type IntentFields } from "../../support/sealed-intents.ts";

const mate = (name: string): BoardMate => ({ name, spawnId: `${name}-1`, idle: true, hasAssignment: false, assignmentResources: undefined, roleVerify: undefined });

let dir: string;
let layout: BoardLayout;
let host: BoardHost | undefined;
let notes: string[];
let keys: SpawnKeys;
let pipes: ReturnType<typeof pipeAnswers>;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "board-host-seals-"));
  layout = boardLayoutAt(join(dir, "board"));
  notes = [];
  pipes = pipeAnswers(notes);
  keys = new SpawnKeys();
  keys.issue("alice", "alice-1");
  keys.issue("mallory", "mallory-1");
});
afterEach(async () => {
  await host?.close();
  host = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function startHost(): Promise<BoardHost> {
  host = new BoardHost({
    layout, keys, answer: pipes.answer, cwd: dir, piCli: "pi-not-used", env: {}, mates: () => [mate("alice"), mate("mallory")],
    bus: new TeamBus(), teamModel: () => undefined, note: (text) => notes.push(text), paceMs: 0, intentGraceMs: 50,
  });
  await host.start();
  host.create({ subject: "Only task" }, "test board");
  return host;
}

const alice = (id: string, extra: Partial<IntentFields> = {}): IntentFields => ({ id, from: "alice", spawnId: "alice-1", action: "claim", taskId: "only-task", ...extra });
const submit = (id: string, status: "completed" | "failed"): Partial<IntentFields> => ({ id, action: "submit", status, result: "r" });

const waitFor = <T>(what: string, fn: () => Promise<T | undefined>) => waitForIn(what, fn, notes);
const decision = (id: string) => pipes.decision(id);
/** Who each decision so far went to, with its intent id. */
const answered = () => pipes.sent.map((a) => [a.id, a.to.name, a.to.spawnId]);
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
    expect(pipes.sent).toEqual([]);
    expect(notes.filter((n) => n.startsWith("refused: not signed by alice's spawn: intent"))).toHaveLength(5);
    expect(notes.filter((n) => n.startsWith("refused: not signed by mallory's spawn"))).toHaveLength(0);
    // Mallory's own seal under alice's name says whose spawn the intent claims to be: alice's.
    expect(notes.some((n) => n.includes("f-peer") && n.startsWith("refused: not signed by alice's spawn"))).toBe(true);

    // A real claim of alice's still goes through, and is answered on her spawn's pipe alone.
    await plantIntent(layout.claimsDir, "real", sealedIntent(keys, alice("real")));
    expect(await decision("real")).toMatchObject({ ok: true, taskId: "only-task" });
    expect(answered()).toEqual([["real", "alice", "alice-1"]]);
  });

  it("gives an unsealed invalid intent with a usable id no decision: a forger cannot answer a waiting call", async () => {
    await startHost();
    await plantIntent(layout.submissionsDir, "victim-id", { v: INTENT_FORMAT_VERSION, at: Date.now(), ...alice("victim-id", { taskId: "t".repeat(65) }) });
    await setAside(layout.submissionsDir, "victim-id");
    expect(pipes.sent).toEqual([]);
    expect(notes.some((n) => n.startsWith("refused: not signed by alice's spawn") && n.includes("victim-id"))).toBe(true);
  });

  it("sets aside a genuine intent copied back after it was consumed (a replay), without applying it again", async () => {
    await startHost();
    const claim = sealedIntent(keys, alice("c1"));
    await plantIntent(layout.claimsDir, "c1", claim);
    expect(await decision("c1")).toMatchObject({ ok: true });
    await plantIntent(layout.submissionsDir, "s1", sealedIntent(keys, alice("s1", submit("s1", "failed"))));
    expect(await decision("s1")).toMatchObject({ ok: true });
    expect(status()).toBe("pending");

    await plantIntent(layout.claimsDir, "c1", claim); // the consumed claim, put back under its name
    await setAside(layout.claimsDir, "c1");
    expect(status()).toBe("pending");
    expect(answered().filter(([id]) => id === "c1")).toHaveLength(1);
    expect(notes.some((n) => n.startsWith("refused: intent c1 of alice was already answered"))).toBe(true);
  });

  it("answers a stale spawn's intent on that spawn's pipe, not on the living incarnation's", async () => {
    keys.issue("alice", "alice-0");
    await startHost();
    await plantIntent(layout.claimsDir, "old", sealedIntent(keys, { ...alice("old"), spawnId: "alice-0" }));
    expect(await decision("old")).toMatchObject({ ok: false, reason: "stale_spawn" });
    expect(answered()).toEqual([["old", "alice", "alice-0"]]);
  });

  it("answers each teammate's intent on its own pipe, and writes no decision file", async () => {
    await startHost();
    await plantIntent(layout.claimsDir, "c1", sealedIntent(keys, alice("c1")));
    await plantIntent(layout.claimsDir, "m1", sealedIntent(keys, { id: "m1", from: "mallory", spawnId: "mallory-1", action: "claim" }));
    await decision("c1");
    await decision("m1");
    expect(answered().sort()).toEqual([["c1", "alice", "alice-1"], ["m1", "mallory", "mallory-1"]]);
    expect(await readdir(layout.root)).not.toContain("decisions");
  });
});
