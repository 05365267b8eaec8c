import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { closeSync, constants, existsSync, mkdirSync, mkdtempSync, openSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { environHas, markerEntry, procPid, statParent } from "../../../src/reap/proc-parse.ts";
import { findMarked, reapMarked, reapMarkedSync, type Marker, type ReapOptions } from "../../../src/reap/index.ts";
import { isAlive } from "../../support/process.ts";
import { waitUntil } from "../../support/team.ts";

const env = (...entries: string[]): Buffer => Buffer.from(entries.map((e) => `${e}\0`).join(""), "latin1");
const entry = (text: string): Buffer => Buffer.from(text, "utf8");

describe("markerEntry", () => {
  it("is KEY=VALUE in UTF-8", () => {
    expect(markerEntry({ key: "PI_TEAMS_SPAWN_ID", value: "ü-1" }).toString("utf8")).toBe("PI_TEAMS_SPAWN_ID=ü-1");
  });

  it.each([
    { key: "", value: "x" },
    { key: "A=B", value: "x" },
    { key: "A\0", value: "x" },
    { key: "A", value: "" },
    { key: "A", value: "x\0y" },
  ])("refuses %j, naming it", (marker) => {
    expect(() => markerEntry(marker)).toThrow(/reaper: marker .* is not an environment entry/);
  });
});

describe("environHas", () => {
  const mark = [entry("M=abc")];

  it("finds the entry first, in the middle, last, and last without its NUL", () => {
    expect(environHas(env("M=abc", "A=1"), mark)).toBe(true);
    expect(environHas(env("A=1", "M=abc", "B=2"), mark)).toBe(true);
    expect(environHas(env("A=1", "M=abc"), mark)).toBe(true);
    expect(environHas(Buffer.from("A=1\0M=abc"), mark)).toBe(true);
  });

  it("matches whole entries only", () => {
    expect(environHas(env("M=abcd"), mark)).toBe(false);
    expect(environHas(env("XM=abc"), mark)).toBe(false);
    expect(environHas(env("A=M=abc"), mark)).toBe(false);
    expect(environHas(env("M=ab"), mark)).toBe(false);
    expect(environHas(env(), mark)).toBe(false);
  });

  it("does not take a cut last entry as complete", () => {
    expect(environHas(Buffer.from("A=1\0M=abc"), mark, true)).toBe(false);
    expect(environHas(Buffer.from("M=abc\0A=1"), mark, true)).toBe(true);
  });

  it("finds any of several entries, and a later occurrence after false starts", () => {
    expect(environHas(env("N=2"), [entry("M=1"), entry("N=2")])).toBe(true);
    expect(environHas(Buffer.from("XM=abc\0M=abcM=abc\0M=abc\0"), mark)).toBe(true);
  });

  it("takes hostile bytes: invalid UTF-8, no NULs at all, a megabyte of near matches", () => {
    expect(environHas(Buffer.from([0xff, 0xfe, 0, 0xc3, 0x28, 0]), mark)).toBe(false);
    expect(environHas(Buffer.from("M=abc".repeat(3)), mark)).toBe(false);
    const near = Buffer.from("M=ab\0".repeat(200_000));
    expect(environHas(near, mark)).toBe(false);
    expect(environHas(Buffer.concat([near, env("M=abc")]), mark)).toBe(true);
    expect(environHas(Buffer.from("M=abc\0").subarray(0, 0), mark)).toBe(false);
  });
});

describe("statParent and procPid", () => {
  it("reads the parent after the last parenthesis, whatever the command name holds", () => {
    expect(statParent("1234 (sleep) S 1 1234 1234 0 -1")).toBe(1);
    expect(statParent("77 (a) b) (c ) S 42 77 77")).toBe(42);
    expect(statParent("77 (x\ny) R 5 1")).toBe(5);
  });

  it("is undefined for text of another shape", () => {
    expect(statParent("")).toBeUndefined();
    expect(statParent("1234 sleep S 1")).toBeUndefined();
    expect(statParent("1 (x) S -3")).toBeUndefined();
    expect(statParent("1 (x) S")).toBeUndefined();
  });

  it("names pids only", () => {
    expect(procPid("4321")).toBe(4321);
    for (const name of ["self", "thread-self", "0", "012", "-1", "1e3", "99999999999", " 12", "sys"]) expect(procPid(name)).toBeUndefined();
  });
});

describe.runIf(process.platform === "linux")("reapMarked on real processes", () => {
  const started: ChildProcess[] = [];
  const pending: Marker[] = [];
  afterEach(async () => {
    if (pending.length > 0) await reapMarked(pending.splice(0));
    for (const c of started.splice(0)) if (c.pid && isAlive(c.pid)) process.kill(c.pid, "SIGKILL");
  });

  /** A detached shell carrying `marker` that leaves `sleep`s in every way a bash tool call can. */
  function startTree(marker: Marker): ChildProcess {
    pending.push(marker);
    const script = "setsid sleep 301 & nohup sleep 302 >/dev/null 2>&1 & (sleep 303 &) ; sleep 304";
    const child = spawn("sh", ["-c", script], { env: { ...process.env, [marker.key]: marker.value }, detached: true, stdio: "ignore" });
    started.push(child);
    return child;
  }

  it.each([
    { name: "reapMarked", reap: reapMarked },
    { name: "reapMarkedSync", reap: async (m: Marker[]) => reapMarkedSync(m) },
  ])("$name kills every process of a marked tree, setsid and double-forked ones included, and nothing else", async ({ reap }) => {
    const marker = { key: "PRT_TEST_MARK", value: randomUUID() };
    const other = { key: "PRT_TEST_MARK", value: randomUUID() };
    const tree = startTree(marker);
    const control = startTree(other);
    await waitUntil("both trees to start", async () => (await findMarked([marker])).pids.length === 5 && (await findMarked([other])).pids.length === 5);
    const found = await findMarked([marker]);
    expect(found).toMatchObject({ supported: true, complete: true });
    expect(found.pids).toContain(tree.pid);

    const result = await reap([marker]);
    expect(result).toMatchObject({ supported: true, complete: true, failed: [] });
    expect(result.killed.sort()).toEqual(found.pids.sort());
    await waitUntil("the marked tree to be gone", () => result.killed.every((pid) => !isAlive(pid)), 5000);
    expect((await findMarked([marker])).pids).toEqual([]);
    expect((await findMarked([other])).pids).toHaveLength(5);
    expect(isAlive(control.pid!)).toBe(true);
  });

  it.each([
    { name: "reapMarked", reap: reapMarked },
    { name: "reapMarkedSync", reap: async (m: Marker[]) => reapMarkedSync(m) },
  ])("$name lets a shell run its exit trap (SIGTERM first) and SIGKILLs one that ignores SIGTERM", async ({ reap }) => {
    // A killed shell can leave a lock behind (pyenv's shim lock hung every later shell of the user).
    // The polite shell waits with the `wait` builtin, which a trapped signal interrupts at once; it
    // writes the lock only after its trap is set, so a lock seen means the trap is in place.
    const dir = mkdtempSync(join(tmpdir(), "prt-reap-"));
    const marker = { key: "PRT_TEST_MARK", value: randomUUID() };
    pending.push(marker);
    const lock = join(dir, "lock");
    // Its trap forks (`sleep`, `rm`: no builtins) after the SIGTERM; the stubborn forker keeps the
    // SIGTERM rounds going meanwhile, and a round that signalled the trap's child would leave the lock.
    const polite = spawn("bash", ["-c", `trap 'sleep 0.2 && rm -f ${lock}; exit 143' TERM; echo held > ${lock}; sleep 300 & wait`], { env: { ...process.env, [marker.key]: marker.value }, detached: true, stdio: "ignore" });
    const stubborn = spawn("bash", ["-c", "trap '' TERM; while true; do sleep 0.05; done"], { env: { ...process.env, [marker.key]: marker.value }, detached: true, stdio: "ignore" });
    started.push(polite, stubborn);
    try {
      await waitUntil("the lock and both shells", async () => isAlive(polite.pid!) && isAlive(stubborn.pid!) && (await findMarked([marker])).pids.length >= 2 && existsSync(lock));
      const result = await reap([marker]);
      expect(result).toMatchObject({ supported: true, complete: true, failed: [] });
      expect(result.killed).toEqual(expect.arrayContaining([polite.pid, stubborn.pid]));
      await waitUntil("both shells to be gone", () => !isAlive(polite.pid!) && !isAlive(stubborn.pid!), 5000);
      expect(existsSync(lock), "the trap released the lock").toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    { name: "reapMarked", reap: reapMarked },
    { name: "reapMarkedSync", reap: async (m: Marker[], o: ReapOptions) => reapMarkedSync(m, o) },
  ])("$name still SIGKILLs a forker that ignores SIGTERM when the SIGTERM rounds run out", async ({ reap }) => {
    // Under load every SIGTERM scan can find a new `sleep` of such a loop; one round forces that here.
    const marker = { key: "PRT_TEST_MARK", value: randomUUID() };
    pending.push(marker);
    const forker = spawn("bash", ["-c", "trap '' TERM; while true; do sleep 0.01; done"], { env: { ...process.env, [marker.key]: marker.value }, detached: true, stdio: "ignore" });
    started.push(forker);
    await waitUntil("the forker", async () => isAlive(forker.pid!) && (await findMarked([marker])).pids.length >= 1);
    const result = await reap([marker], { limits: { rounds: 1, graceMs: 100 } });
    expect(result.killed).toContain(forker.pid);
    await waitUntil("the forker to be gone", () => !isAlive(forker.pid!), 5000);
  });

  it("spares the calling process and its ancestors when they carry the marker", async () => {
    const marker = { key: "PRT_TEST_MARK", value: randomUUID() };
    pending.push(marker);
    const reaper = fileURLToPath(new URL("../../../src/reap/reaper.ts", import.meta.url));
    const code = `
      const { spawn } = await import("node:child_process");
      const { reapMarked } = await import(${JSON.stringify(reaper)});
      const s = spawn("setsid", ["sleep", "305"], { stdio: "ignore" });
      await new Promise((r) => s.once("spawn", r));
      const r = await reapMarked([{ key: "PRT_TEST_MARK", value: process.env.PRT_TEST_MARK }]);
      console.log(JSON.stringify({ self: process.pid, sleep: s.pid, r }));`;
    // A shell in between: an ancestor that carries the marker too.
    const child = spawn("sh", ["-c", `"${process.execPath}" --input-type=module -e '${code}'; echo done`], { env: { ...process.env, [marker.key]: marker.value }, stdio: ["ignore", "pipe", "inherit"] });
    started.push(child);
    let out = "";
    child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
    await new Promise((r) => child.once("close", r));
    const lines = out.trim().split("\n");
    expect(lines.at(-1)).toBe("done");
    const { self, sleep, r } = JSON.parse(lines[0]!) as { self: number; sleep: number; r: { killed: number[] } };
    expect(r.killed).toEqual([sleep]);
    expect(r.killed).not.toContain(self);
    expect(r.killed).not.toContain(child.pid);
  });

  it("stops at its byte budget and at its time bound, and says so", async () => {
    const dir = mkdtempSync(join(tmpdir(), "prt-reaper-"));
    try {
      const marker = { key: "PRT_TEST_MARK", value: "x" };
      for (let pid = 100; pid < 250; pid++) {
        mkdirSync(join(dir, String(pid)));
        writeFileSync(join(dir, String(pid), "environ"), env("A=1", pid === 249 ? "PRT_TEST_MARK=x" : "B=2"));
      }
      expect(await findMarked([marker], { procDir: dir })).toEqual({ supported: true, pids: [249], complete: true });
      expect(await findMarked([marker], { procDir: dir, limits: { totalBytes: 16 } })).toMatchObject({ supported: true, complete: false });
      // No file carries this one, so nothing can be killed here whatever the order of the listing.
      expect(reapMarkedSync([{ key: "PRT_TEST_MARK", value: "none" }], { procDir: dir, limits: { totalBytes: 16 } })).toEqual({ supported: true, killed: [], failed: [], complete: false });
      expect(reapMarkedSync([{ key: "PRT_TEST_MARK", value: "none" }], { procDir: dir })).toEqual({ supported: true, killed: [], failed: [], complete: true });
      // A read that never returns (a FIFO with no writer stands in for a process stuck in the kernel).
      execFileSync("mkfifo", [join(dir, "100", "stuck")]);
      rmSync(join(dir, "100", "environ"));
      renameSync(join(dir, "100", "stuck"), join(dir, "100", "environ"));
      const late = await findMarked([marker], { procDir: dir, limits: { timeMs: 300 } });
      expect(late).toEqual({ supported: true, pids: [], complete: false });
      closeSync(openSync(join(dir, "100", "environ"), constants.O_RDWR | constants.O_NONBLOCK)); // frees the blocked open
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("does nothing without markers or without a /proc", async () => {
    expect(await reapMarked([])).toEqual({ supported: true, killed: [], failed: [], complete: true });
    expect(await reapMarked([{ key: "A", value: "b" }], { procDir: "/nonexistent-proc" })).toEqual({ supported: false, killed: [], failed: [], complete: true });
    expect(reapMarkedSync([{ key: "A", value: "b" }], { procDir: "/nonexistent-proc" })).toEqual({ supported: false, killed: [], failed: [], complete: true });
  });
});
