import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { lutimes, mkdir, readdir, symlink, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decideSweep, sweepNotes, sweepRuntimeDirs, SWEEP_GRACE_MS, type RuntimeEntry } from "../../../src/store/index.ts";
import { useTempDirs } from "./tmp.ts";

const tempDir = useTempDirs();

const OWN = "0000000000000000";
const KEY_A = "aaaaaaaaaaaaaaaa";
const KEY_B = "bbbbbbbbbbbbbbbb";
const KEY_C = "cccccccccccccccc";
const NOW = 1_000_000_000_000;
const LIVE = 4242;
const DEAD = 999_999;
const isAlive = (pid: number) => pid === LIVE || pid === process.pid;

/** A pid that surely belonged to a process and is now gone: a child that already exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ["-e", ""]);
  expect(r.pid).toBeGreaterThan(0);
  return r.pid!;
}

/** Sets the mtime of `dir` and of its direct entries (links themselves, not targets) `ms` into the past. */
async function age(dir: string, ms: number): Promise<void> {
  const t = new Date(Date.now() - ms);
  for (const child of await readdir(dir)) await lutimes(join(dir, child), t, t);
  await utimes(dir, t, t);
}

/** A runtime dir like the harness makes: lock (unless `lock` is undefined), roster, mail dirs. */
async function sessionDir(root: string, key: string, lock: string | undefined): Promise<string> {
  const dir = join(root, "teammate", key);
  for (const sub of ["outbox", "inbox", "logs"]) await mkdir(join(dir, sub), { recursive: true });
  await writeFile(join(dir, "roster.json"), "{}");
  await writeFile(join(dir, "outbox", "alice.jsonl"), "");
  if (lock !== undefined) await writeFile(join(dir, "leader.lock"), lock);
  return dir;
}

describe("decideSweep", () => {
  const session = (name: string, lock: Extract<RuntimeEntry, { kind: "session" }>["lock"], idleMs = 0): RuntimeEntry =>
    ({ name, kind: "session", lock, newestMtimeMs: NOW - idleMs });
  const decide = (entry: RuntimeEntry) => decideSweep([entry], { ownKey: OWN, now: NOW })[0];

  it("removes a dir whose lock names a dead leader, at once, however fresh", () => {
    expect(decide(session(KEY_A, { kind: "held", pid: DEAD, alive: false }))).toEqual({ name: KEY_A, action: "remove", why: "leader_gone", pid: DEAD });
  });

  it("keeps a living leader's dir, however old, and our own dir whatever its lock says", () => {
    expect(decide(session(KEY_A, { kind: "held", pid: LIVE, alive: true }, 10 * SWEEP_GRACE_MS))).toMatchObject({ action: "keep", why: "leader_alive" });
    expect(decide(session(OWN, { kind: "held", pid: DEAD, alive: false }, 10 * SWEEP_GRACE_MS))).toMatchObject({ action: "keep", why: "own" });
    expect(decide(session(OWN, { kind: "none" }, 10 * SWEEP_GRACE_MS))).toMatchObject({ action: "keep", why: "own" });
  });

  it("keeps a dir without a readable lock during the grace period and removes it after", () => {
    for (const lock of [{ kind: "none" }, { kind: "unreadable", reason: "empty" }] as const) {
      expect(decide(session(KEY_A, lock, SWEEP_GRACE_MS - 1))).toMatchObject({ action: "keep", why: "recent" });
      expect(decide(session(KEY_A, lock, SWEEP_GRACE_MS))).toEqual({ name: KEY_A, action: "remove", why: "abandoned", idleMs: SWEEP_GRACE_MS, lock: lock.kind });
    }
  });

  it("honours a given grace", () => {
    const [d] = decideSweep([session(KEY_A, { kind: "none" }, 5000)], { ownKey: OWN, now: NOW, graceMs: 1000 });
    expect(d).toMatchObject({ action: "remove", why: "abandoned" });
  });

  it("removes tombstones and stop notices of dead processes only; leaves foreign entries alone", () => {
    expect(decide({ name: "t", kind: "tombstone", sweeperPid: DEAD, sweeperAlive: false })).toMatchObject({ action: "remove", why: "stale_tombstone" });
    expect(decide({ name: "t", kind: "tombstone", sweeperPid: LIVE, sweeperAlive: true })).toMatchObject({ action: "keep", why: "sweep_in_progress" });
    expect(decide({ name: "n", kind: "stop_notice", pid: DEAD, alive: false })).toMatchObject({ action: "remove", why: "stale_stop_notice" });
    expect(decide({ name: "n", kind: "stop_notice", pid: LIVE, alive: true })).toMatchObject({ action: "keep", why: "notice_owner_alive" });
    expect(decide({ name: "x", kind: "foreign", what: "symlink" })).toMatchObject({ action: "keep", why: "foreign" });
  });
});

describe("sweepRuntimeDirs", () => {
  it("removes dead leaders' dirs and abandoned lockless dirs, keeps living, recent, own and foreign ones", async () => {
    const agent = await tempDir();
    const teammate = join(agent, "teammate");
    const gone = await sessionDir(agent, KEY_A, String(DEAD));
    const living = await sessionDir(agent, KEY_B, String(LIVE));
    await age(living, 10 * SWEEP_GRACE_MS);
    const abandoned = await sessionDir(agent, KEY_C, undefined);
    await age(abandoned, SWEEP_GRACE_MS + 60_000);
    const recent = await sessionDir(agent, "dddddddddddddddd", undefined);
    const filling = await sessionDir(agent, "eeeeeeeeeeeeeeee", ""); // a leader between creating and filling its lock
    const own = await sessionDir(agent, OWN, String(DEAD));
    await mkdir(join(teammate, "not-a-key"), { recursive: true });
    await writeFile(join(teammate, "ffffffffffffffff"), "a file named like a key");
    // The board of the swept session is outside teammate/ and stays.
    await mkdir(join(agent, "tasks", KEY_A), { recursive: true });
    await writeFile(join(agent, "tasks", KEY_A, "board.json"), "{}");

    const report = await sweepRuntimeDirs({ agentDir: agent, ownKey: OWN, isAlive });

    expect(report.failed).toEqual([]);
    expect(report.removed.map((d) => [d.name, d.why]).sort()).toEqual([[KEY_A, "leader_gone"], [KEY_C, "abandoned"]]);
    expect(existsSync(gone)).toBe(false);
    expect(existsSync(abandoned)).toBe(false);
    for (const kept of [living, recent, filling, own]) expect(existsSync(join(kept, "roster.json"))).toBe(true);
    expect((await readdir(teammate)).sort()).toEqual(["0000000000000000", KEY_B, "dddddddddddddddd", "eeeeeeeeeeeeeeee", "ffffffffffffffff", "not-a-key"].sort());
    expect(existsSync(join(agent, "tasks", KEY_A, "board.json"))).toBe(true);
    expect(sweepNotes(report).sort()).toEqual([
      `swept teammate/${KEY_A}: its leader (pid ${DEAD}) is gone`,
      `swept teammate/${KEY_C}: no leader.lock and untouched for 11 min`,
    ]);
  });

  it("judges liveness with kill -0 by default: a lock of an exited process is swept, ours is kept", async () => {
    const agent = await tempDir();
    const gone = await sessionDir(agent, KEY_A, String(deadPid()));
    const mine = await sessionDir(agent, KEY_B, String(process.pid));
    const report = await sweepRuntimeDirs({ agentDir: agent, ownKey: OWN });
    expect(report.removed.map((d) => d.name)).toEqual([KEY_A]);
    expect(existsSync(gone)).toBe(false);
    expect(existsSync(mine)).toBe(true);
  });

  it("never follows symlinks: a linked session dir, a linked lock and links inside a swept dir", async () => {
    const agent = await tempDir();
    const outside = await tempDir();
    // A dead leader's dir that lives outside teammate/, linked in under a session-key name.
    const target = await sessionDir(outside, KEY_A, String(DEAD));
    await mkdir(join(agent, "teammate"), { recursive: true });
    await symlink(target, join(agent, "teammate", KEY_A));
    // A swept dir holding a link to a file outside: the link goes, the file stays.
    const gone = await sessionDir(agent, KEY_B, String(DEAD));
    await writeFile(join(outside, "precious.txt"), "keep me");
    await symlink(join(outside, "precious.txt"), join(gone, "logs", "link.txt"));
    await symlink(outside, join(gone, "linked-dir"));
    // A lock that is a symlink to a living pid's lock is not a lock: the age rule decides.
    const linkedLock = await sessionDir(agent, KEY_C, undefined);
    await writeFile(join(outside, "live.lock"), String(LIVE));
    await symlink(join(outside, "live.lock"), join(linkedLock, "leader.lock"));

    const report = await sweepRuntimeDirs({ agentDir: agent, ownKey: OWN, isAlive });

    expect(report.removed.map((d) => d.name)).toEqual([KEY_B]);
    expect(existsSync(join(agent, "teammate", KEY_A))).toBe(true);
    expect(existsSync(join(target, "roster.json"))).toBe(true);
    expect(existsSync(gone)).toBe(false);
    expect(existsSync(join(outside, "precious.txt"))).toBe(true);
    expect(existsSync(join(outside, "live.lock"))).toBe(true);
    expect(existsSync(linkedLock)).toBe(true); // recent; once old it is swept as "unreadable lock"
    await age(linkedLock, SWEEP_GRACE_MS + 1);
    const later = await sweepRuntimeDirs({ agentDir: agent, ownKey: OWN, isAlive });
    expect(later.removed).toEqual([expect.objectContaining({ name: KEY_C, why: "abandoned", lock: "unreadable" })]);
    expect(existsSync(join(outside, "live.lock"))).toBe(true);
  });

  it("does not sweep at all when teammate/ itself is a symlink", async () => {
    const agent = await tempDir();
    const outside = await tempDir();
    const target = await sessionDir(outside, KEY_A, String(DEAD));
    await symlink(join(outside, "teammate"), join(agent, "teammate"));
    const report = await sweepRuntimeDirs({ agentDir: agent, ownKey: OWN, isAlive });
    expect(report.removed).toEqual([]);
    expect(report.skipped).toMatch(/is not a directory \(a symlink is never followed\)/);
    expect(existsSync(target)).toBe(true);
  });

  it("keeps a dir that a living leader took over between the first look and the removal", async () => {
    const agent = await tempDir();
    const dir = await sessionDir(agent, KEY_A, String(DEAD));
    let looks = 0;
    // The first look sees the dead holder; the second (just before removal) sees the new leader.
    const alive = (pid: number) => {
      if (pid === DEAD && looks++ === 0) return false;
      return true;
    };
    const report = await sweepRuntimeDirs({ agentDir: agent, ownKey: OWN, isAlive: alive });
    expect(report.removed).toEqual([]);
    expect(existsSync(join(dir, "roster.json"))).toBe(true);
  });

  it("removes tombstones and stop notices of gone processes, and does nothing without a teammate dir", async () => {
    const agent = await tempDir();
    expect(await sweepRuntimeDirs({ agentDir: agent, ownKey: OWN, isAlive })).toEqual({ removed: [], failed: [] });
    const tomb = join(agent, "teammate", `.swept-${KEY_A}-${DEAD}-0a1b2c3d`);
    await mkdir(join(tomb, "logs"), { recursive: true });
    const liveTomb = join(agent, "teammate", `.swept-${KEY_B}-${LIVE}-0a1b2c3d`);
    await mkdir(liveTomb, { recursive: true });
    await writeFile(join(agent, "teammate", `.stopped-${DEAD}.json`), "{}");
    await writeFile(join(agent, "teammate", `.stopped-${LIVE}.json`), "{}");
    const report = await sweepRuntimeDirs({ agentDir: agent, ownKey: OWN, isAlive });
    expect(report.removed.map((d) => d.why).sort()).toEqual(["stale_stop_notice", "stale_tombstone"]);
    expect((await readdir(join(agent, "teammate"))).sort()).toEqual([`.stopped-${LIVE}.json`, `.swept-${KEY_B}-${LIVE}-0a1b2c3d`]);
  });
});
