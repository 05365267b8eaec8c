import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { acquireSessionLock } from "../../../src/harness/session-lock.ts";

describe("acquireSessionLock", () => {
  it("living leaders starting together on a fresh session: exactly one gets the lock, every time", async () => {
    const dir = await mkdtemp(join(tmpdir(), "lock-race-"));
    try {
      for (let i = 0; i < 100; i++) {
        const path = join(dir, `leader-${i}.lock`);
        // Three living pids: this process, its parent and init.
        const results = await Promise.allSettled([process.pid, process.ppid, 1].map((pid) => acquireSessionLock(path, dir, pid)));
        expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
        for (const r of results) if (r.status === "rejected") expect(r.reason).toMatchObject({ code: "locked" });
      }
      expect((await readdir(dir)).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
