import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { WorktreeLocks } from "../../../src/isolation/index.ts";

/** A task that records its start and end and settles only when `release` is called. */
function gate(log: string[], label: string) {
  let release!: (fail?: boolean) => void;
  const task = () =>
    new Promise<string>((resolve, reject) => {
      log.push(`start ${label}`);
      release = (fail) => {
        log.push(`end ${label}`);
        if (fail) reject(new Error(label));
        else resolve(label);
      };
    });
  return { task, release: (fail?: boolean) => release(fail) };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("WorktreeLocks", () => {
  it("runs tasks of one dir one at a time, in order, across spellings of the path", async () => {
    const locks = new WorktreeLocks();
    const log: string[] = [];
    const a = gate(log, "a");
    const b = gate(log, "b");
    const first = locks.run("/w/alice-12345678", a.task);
    const second = locks.run(join("/w", "x", "..", "alice-12345678"), b.task);
    await tick();
    expect(log).toEqual(["start a"]);
    expect(locks.busy()).toEqual(["/w/alice-12345678"]);
    a.release(true);
    await expect(first).rejects.toThrow("a"); // a failing task does not block the next
    await tick();
    expect(log).toEqual(["start a", "end a", "start b"]);
    b.release();
    expect(await second).toBe("b");
    await tick();
    expect(locks.busy()).toEqual([]);
  });

  it("does not hold back tasks of other dirs", async () => {
    const locks = new WorktreeLocks();
    const log: string[] = [];
    const a = gate(log, "a");
    const b = gate(log, "b");
    const first = locks.run("/w/a-11111111", a.task);
    const second = locks.run("/w/b-22222222", b.task);
    await tick();
    expect(log).toEqual(["start a", "start b"]);
    b.release();
    a.release();
    expect(await Promise.all([first, second])).toEqual(["a", "b"]);
  });
});
