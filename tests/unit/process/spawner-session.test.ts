/**
 * A child of `spawnPiChild` is kept away from the leader's terminal (issue 18): it runs in its
 * own session (setsid) with no controlling terminal, and with `dropSysAdmin` a root leader's
 * child has no CAP_SYS_ADMIN. Since a detached child is no longer in execa's exit cleanup, the
 * spawner's own exit hook must still end it when the leader process exits. Linux (/proc).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CAP_SYS_ADMIN, capMask, capsDrop, hasCap, readHostCaps, spawnPiChild, type PiChild } from "../../../src/process/index.ts";
import { isAlive } from "../../support/process.ts";

const FIXTURES = fileURLToPath(new URL("../../fixtures/", import.meta.url));
const HAS_PROC = existsSync("/proc/self/stat");
const WILL_DROP = capsDrop(await readHostCaps()).prefix.length > 0;

let dir: string;
const spawned: PiChild[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "prt-session-"));
});
afterEach(async () => {
  await Promise.all(spawned.splice(0).map((c) => c.stop({ graceMs: 50, termGraceMs: 50, abortFirst: false })));
  rmSync(dir, { recursive: true, force: true });
});

async function fakePi(dropSysAdmin: boolean): Promise<PiChild> {
  const pc = await spawnPiChild({ piCli: join(FIXTURES, "fake-pi.mjs"), args: [], cwd: dir, stderrLog: join(dir, "child.log"), dropSysAdmin });
  spawned.push(pc);
  await pc.waitReady(10_000); // pi itself answers: any setpriv in front has exec'ed it
  return pc;
}

/** Session id and controlling tty (`tty_nr`, 0 for none) from /proc/<pid>/stat. */
function sessionOf(pid: number): { session: number; tty: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /s, "").split(" ");
  return { session: Number(fields[3]), tty: Number(fields[4]) };
}

const sysAdmin = (pid: number, field: string) => hasCap(capMask(readFileSync(`/proc/${pid}/status`, "utf8"), field), CAP_SYS_ADMIN);

describe.skipIf(!HAS_PROC)("spawnPiChild keeps the child off the leader's terminal", () => {
  it("the child leads its own session and has no controlling terminal", async () => {
    const pc = await fakePi(false);
    expect(sessionOf(pc.pid)).toEqual({ session: pc.pid, tty: 0 });
    expect(sessionOf(pc.pid).session).not.toBe(sessionOf(process.pid).session);
  });

  it.skipIf(!WILL_DROP)("as root with setpriv, dropSysAdmin: the same pid runs pi without CAP_SYS_ADMIN; without it, the child keeps it", async () => {
    const dropped = await fakePi(true);
    expect(readFileSync(`/proc/${dropped.pid}/cmdline`, "utf8")).toContain("fake-pi.mjs"); // setpriv exec'ed, the pid is pi's
    for (const field of ["CapEff", "CapPrm", "CapBnd", "CapInh"]) expect(sysAdmin(dropped.pid, field), field).toBe(false);
    await expect(dropped.child.send({ type: "get_session_stats" })).resolves.toMatchObject({ cwd: dir }); // still a working child

    const kept = await fakePi(false); // the control: the capability is there to drop
    expect(sysAdmin(kept.pid, "CapEff")).toBe(true);
  });

  it.each(["exit", "sigterm"])("a leader that ends by %s still ends its child (the spawner's exit hook)", async (how) => {
    const leader = await execa(process.execPath, [join(FIXTURES, "spawn-then-exit.ts"), how, dir], { reject: false });
    const pid = Number(leader.stdout.trim());
    expect(pid).toBeGreaterThan(0);
    expect(leader.exitCode ?? leader.signal).toBe(how === "exit" ? 0 : "SIGTERM");
    for (let i = 0; i < 100 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 50));
    const alive = isAlive(pid);
    if (alive) process.kill(pid, "SIGKILL");
    expect(alive).toBe(false);
  });
});
