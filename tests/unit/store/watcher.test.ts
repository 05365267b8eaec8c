import { appendFile, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { appendRecord, watchDirs, type DirWatch } from "../../../src/store/index.ts";
import { modeOf, useTempDirs } from "./tmp.ts";

const tempDir = useTempDirs();

/** Collects onChange paths and lets a test await the first one matching a predicate. */
function recorder() {
  const seen: string[] = [];
  const waiters: Array<{ match: (p: string) => boolean; resolve: () => void }> = [];
  const onChange = (path: string) => {
    seen.push(path);
    for (const w of [...waiters]) if (w.match(path)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  };
  const next = (match: (p: string) => boolean) =>
    seen.some(match) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ match, resolve }));
  return { seen, onChange, next };
}

async function withWatch<T>(watch: DirWatch, body: () => Promise<T>): Promise<T> {
  try {
    await watch.ready;
    return await body();
  } finally {
    await watch.close();
  }
}

describe("watchDirs", () => {
  it("reports existing files at start, then fires on an append", async () => {
    const dir = join(await tempDir(), "outbox");
    await mkdir(dir);
    await writeFile(join(dir, "pre.jsonl"), "");
    const rec = recorder();
    await withWatch(watchDirs([dir], rec.onChange, { safetyPollMs: 0 }), async () => {
      expect(rec.seen).toContain(join(dir, "pre.jsonl"));
      const fired = rec.next((p) => p === join(dir, "alice.jsonl"));
      await appendRecord(join(dir, "alice.jsonl"), { hello: 1 });
      await fired;
      const again = rec.next((p) => p === join(dir, "alice.jsonl") && rec.seen.filter((s) => s === p).length >= 2);
      await appendRecord(join(dir, "alice.jsonl"), { hello: 2 });
      await again;
    });
  });

  it("reports every append, even one within chokidar's 50 ms change throttle (regression: it waited for the safety poll)", async () => {
    const dir = await tempDir();
    const file = join(dir, "alice.jsonl");
    const rec = recorder();
    const count = () => rec.seen.filter((p) => p === file).length;
    await withWatch(watchDirs([dir], rec.onChange, { safetyPollMs: 0 }), async () => {
      for (let i = 1; i <= 4; i++) {
        const before = count();
        const fired = rec.next((p) => p === file && count() > before);
        await appendRecord(file, { i }); // back to back: appends 2-4 land well inside 50 ms
        await fired;
      }
    });
  }, 2000);

  it("ignores dot-prefixed temp files and files in subdirs", async () => {
    const dir = await tempDir();
    await mkdir(join(dir, "done"));
    const rec = recorder();
    await withWatch(watchDirs([dir], rec.onChange, { safetyPollMs: 0 }), async () => {
      await writeFile(join(dir, ".tmp-x"), "{");
      await writeFile(join(dir, "done", "old.json"), "{}");
      const marker = rec.next((p) => p.endsWith("real.json"));
      await writeFile(join(dir, "real.json"), "{}");
      await marker;
    });
    // One write may be seen as an add and a change (chokidar reports both when the file is created
    // and written in two steps): what counts is that nothing else was reported.
    expect([...new Set(rec.seen)]).toEqual([join(dir, "real.json")]);
  });

  it("creates missing dirs with mode 0700 and watches them", async () => {
    const dir = join(await tempDir(), "inbox");
    const rec = recorder();
    await withWatch(watchDirs([dir], rec.onChange, { safetyPollMs: 0 }), async () => {
      expect(await modeOf(dir)).toBe(0o700);
      const fired = rec.next((p) => p.endsWith("bob.jsonl"));
      await appendFile(join(dir, "bob.jsonl"), "{}\n");
      await fired;
    });
  });

  it("runs a slow safety poll that reports each dir, and stops it on close", async () => {
    const a = await tempDir();
    const b = await tempDir();
    const rec = recorder();
    const watch = watchDirs([a, b], rec.onChange, { safetyPollMs: 20 });
    await withWatch(watch, async () => {
      await Promise.all([rec.next((p) => p === a), rec.next((p) => p === b)]);
    });
    const count = rec.seen.length;
    await delay(80); // a negative check needs a window: four poll periods
    expect(rec.seen.length).toBe(count);
    await watch.close(); // idempotent
  });

  it("routes an exception thrown by onChange to onError", async () => {
    const dir = await tempDir();
    let reportError: (error: unknown) => void = () => undefined;
    const gotError = new Promise<unknown>((resolve) => (reportError = resolve));
    const fail = () => {
      throw new Error("boom");
    };
    await withWatch(watchDirs([dir], fail, { safetyPollMs: 0, onError: (error) => reportError(error) }), async () => {
      await writeFile(join(dir, "x.json"), "{}");
      expect(((await gotError) as Error).message).toBe("boom");
    });
  });

  it("close() before ready settles without hanging", async () => {
    const dir = await tempDir();
    const watch = watchDirs([dir], () => undefined);
    await watch.close();
    await watch.ready;
  });

  it("rejects a bad safetyPollMs with a TypeError naming it", () => {
    expect(() => watchDirs([], () => undefined, { safetyPollMs: -1 })).toThrow(/safetyPollMs/);
  });
});
