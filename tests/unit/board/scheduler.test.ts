import { describe, expect, it } from "vitest";
import { SnapshotScheduler } from "../../../src/board/index.ts";

describe("SnapshotScheduler (R58, L24)", () => {
  it("is clean until a change, then writes a lone change at once (leading edge)", () => {
    const s = new SnapshotScheduler({ minIntervalMs: 100 });
    expect(s.dueAt()).toBeUndefined();
    expect(s.begin(0)).toBeUndefined();
    s.markDirty(1, 1000);
    expect(s.begin(1000)).toBe(1);
    s.done(1, true, 1001);
    expect(s.dirty).toBe(false);
    expect(s.writtenRevision).toBe(1);
  });

  it("coalesces a burst into one write per interval and always writes the last revision", () => {
    const s = new SnapshotScheduler({ minIntervalMs: 100 });
    const writes: number[] = [];
    for (let now = 0, rev = 1; now < 1000; now += 1, rev += 1) {
      s.markDirty(rev, now);
      const r = s.begin(now);
      if (r !== undefined) {
        writes.push(r);
        s.done(r, true, now);
      }
    }
    expect(writes.length).toBe(10);
    expect(s.dirty).toBe(true);
    const due = s.dueAt() as number;
    expect(s.begin(due - 1)).toBeUndefined();
    expect(s.begin(due)).toBe(1000);
    s.done(1000, true, due);
    expect(s.dirty).toBe(false);
  });

  it("keeps one write in flight and retries a failed write", () => {
    const s = new SnapshotScheduler({ minIntervalMs: 0 });
    s.markDirty(1, 0);
    expect(s.begin(0)).toBe(1);
    s.markDirty(2, 1);
    expect(s.begin(1)).toBeUndefined();
    s.done(1, false, 2);
    expect(s.dirty).toBe(true);
    expect(s.begin(2)).toBe(2);
    s.done(2, true, 3);
    expect(s.writtenRevision).toBe(2);
  });

  it("starts clean at a loaded board's revision and ignores older revisions", () => {
    const s = new SnapshotScheduler({ writtenRevision: 7 });
    s.markDirty(5, 0);
    expect(s.dirty).toBe(false);
    s.markDirty(8, 0);
    expect(s.dirty).toBe(true);
  });
});
