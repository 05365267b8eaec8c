import { execFile } from "node:child_process";
import { appendFile, mkdir, open, readdir, readFile, rename, rm, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { TeamError } from "../../../src/errors.ts";
import { appendRecord, JsonlCursor, MAX_RECORD_BYTES } from "../../../src/store/index.ts";
import { modeOf, useTempDirs } from "./tmp.ts";

const tempDir = useTempDirs();
const run = promisify(execFile);

const Rec = Type.Object({ w: Type.Integer(), n: Type.Integer(), pad: Type.Optional(Type.String()) });

const lines = (...records: unknown[]): string => records.map((r) => `${JSON.stringify(r)}\n`).join("");

describe("appendRecord", () => {
  it("appends one JSON line, creating the file 0600 and its dir 0700", async () => {
    const dir = join(await tempDir(), "outbox");
    const path = join(dir, "alice.jsonl");
    const bytes = await appendRecord(path, { w: 1, n: 1 });
    await appendRecord(path, { w: 1, n: 2, pad: "line\nbreak \u2028 é" });
    const text = await readFile(path, "utf8");
    expect(bytes).toBe('{"w":1,"n":1}\n'.length);
    expect(text.split("\n")).toHaveLength(3);
    expect(await modeOf(path)).toBe(0o600);
    expect(await modeOf(dir)).toBe(0o700);
  });

  it("rejects a record over 64 KiB with invalid_input and writes nothing", async () => {
    const path = join(await tempDir(), "big.jsonl");
    const error = await appendRecord(path, { pad: "x".repeat(MAX_RECORD_BYTES) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TeamError);
    expect((error as TeamError).code).toBe("invalid_input");
    expect((error as TeamError).message).toMatch(/is \d+ bytes; the limit is 65536 bytes/);
    await expect(readFile(path)).rejects.toThrow(/ENOENT/);
  });

  it("starts a new line after a partial line left without LF, so the record is not glued to it", async () => {
    const path = join(await tempDir(), "outbox", "alice.jsonl");
    await appendRecord(path, { w: 1, n: 1 });
    await appendFile(path, "garbage-without-newline");
    const bytes = await appendRecord(path, { w: 1, n: 2 });
    expect(bytes).toBe('\n{"w":1,"n":2}\n'.length);
    await appendRecord(path, { w: 1, n: 3 });
    const batch = await new JsonlCursor(path, Rec, { rotateAtBytes: Infinity }).readNew();
    expect(batch.records).toEqual([{ w: 1, n: 1 }, { w: 1, n: 2 }, { w: 1, n: 3 }]);
    expect(batch.skipped).toBe(1);
    expect(batch.diagnostics).toHaveLength(1);
    expect(batch.diagnostics[0]).toContain("line 2");
    expect(batch.diagnostics[0]).toContain("garbage-without-newline");
  });

  it("adds no blank line when the file already ends with LF or is empty", async () => {
    const path = join(await tempDir(), "bob.jsonl");
    await writeFile(path, "");
    await appendRecord(path, { w: 2, n: 1 });
    await appendRecord(path, { w: 2, n: 2 });
    expect(await readFile(path, "utf8")).toBe(lines({ w: 2, n: 1 }, { w: 2, n: 2 }));
  });

  it("concurrent appenders in separate processes lose no line and interleave none", async () => {
    const path = join(await tempDir(), "inbox", "shared.jsonl");
    const moduleUrl = pathToFileURL(join(import.meta.dirname, "../../../src/store/jsonl-file.ts")).href;
    const writers = 6;
    const perWriter = 150;
    // Sizes from tiny to ~40 KiB, so some writes are far above PIPE_BUF.
    const script = `
      import { appendRecord } from ${JSON.stringify(moduleUrl)};
      const w = Number(process.argv[1]);
      await Promise.all(Array.from({ length: ${perWriter} }, (_, n) =>
        appendRecord(${JSON.stringify(path)}, { w, n, pad: "é".repeat((n * 977 + w * 131) % 20000) })));
    `;
    await Promise.all(
      Array.from({ length: writers }, (_, w) => run(process.execPath, ["--input-type=module", "-e", script, String(w)])),
    );
    const batch = await new JsonlCursor(path, Rec, { rotateAtBytes: Infinity }).readNew();
    expect(batch.diagnostics).toEqual([]);
    expect(batch.skipped).toBe(0);
    expect(batch.records).toHaveLength(writers * perWriter);
    for (let w = 0; w < writers; w++) {
      const ns = batch.records.filter((r) => r.w === w).map((r) => r.n);
      expect(new Set(ns).size).toBe(perWriter);
    }
    for (const r of batch.records) expect(r.pad?.length).toBe((r.n * 977 + r.w * 131) % 20000);
  }, 30_000);
});

describe("JsonlCursor", () => {
  it("returns nothing for a missing file, then reads it once it appears", async () => {
    const path = join(await tempDir(), "a.jsonl");
    const cursor = new JsonlCursor(path, Rec);
    expect(await cursor.readNew()).toEqual({ records: [], diagnostics: [], skipped: 0 });
    await appendRecord(path, { w: 0, n: 1 });
    expect((await cursor.readNew()).records).toEqual([{ w: 0, n: 1 }]);
    expect((await cursor.readNew()).records).toEqual([]);
  });

  it("leaves a partial trailing line for the next read", async () => {
    const path = join(await tempDir(), "a.jsonl");
    await writeFile(path, `${lines({ w: 0, n: 1 })}{"w":0,"n":`);
    const cursor = new JsonlCursor(path, Rec);
    const first = await cursor.readNew();
    expect(first.records).toEqual([{ w: 0, n: 1 }]);
    expect(first.skipped).toBe(0);
    expect(cursor.offset).toBe(lines({ w: 0, n: 1 }).length);
    await appendFile(path, "2}\n");
    expect((await cursor.readNew()).records).toEqual([{ w: 0, n: 2 }]);
  });

  it("keeps a multi-byte character split across two appends intact", async () => {
    const path = join(await tempDir(), "a.jsonl");
    const full = Buffer.from(lines({ w: 0, n: 1, pad: "€ \u2028 ok" }));
    const cut = full.indexOf(Buffer.from("€")) + 1;
    await writeFile(path, full.subarray(0, cut));
    const cursor = new JsonlCursor(path, Rec);
    expect((await cursor.readNew()).records).toEqual([]);
    await appendFile(path, full.subarray(cut));
    expect((await cursor.readNew()).records).toEqual([{ w: 0, n: 1, pad: "€ \u2028 ok" }]);
  });

  it("skips and counts malformed and invalid lines, naming file, line, offset and field", async () => {
    const path = join(await tempDir(), "a.jsonl");
    const good = lines({ w: 0, n: 1 });
    await writeFile(path, `${good}not json\n\n{"w":0,"n":"two"}\r\n${lines({ w: 0, n: 3 })}`);
    const cursor = new JsonlCursor(path, Rec);
    const batch = await cursor.readNew();
    expect(batch.records).toEqual([{ w: 0, n: 1 }, { w: 0, n: 3 }]);
    expect(batch.skipped).toBe(2);
    expect(cursor.skippedTotal).toBe(2);
    expect(batch.diagnostics[0]).toMatch(new RegExp(`^${path} line 2 \\(byte offset ${good.length}\\): not valid JSON .*"not json"; skipped$`));
    expect(batch.diagnostics[1]).toBe(`${path} line 4 (byte offset ${good.length + 10}): /n is "two"; expected a value that must be integer; skipped`);
  });

  it("applies the refine check after the schema", async () => {
    const path = join(await tempDir(), "a.jsonl");
    await writeFile(path, lines({ w: 0, n: 1 }, { w: 0, n: -1 }));
    const cursor = new JsonlCursor(path, Rec, { refine: (r) => (r.n < 0 ? "/n is negative" : undefined) });
    const batch = await cursor.readNew();
    expect(batch.records).toEqual([{ w: 0, n: 1 }]);
    expect(batch.diagnostics).toEqual([`${path} line 2 (byte offset 14): /n is negative; skipped`]);
  });

  it("restarts from byte 0 with a note when the file was truncated", async () => {
    const path = join(await tempDir(), "a.jsonl");
    await writeFile(path, lines({ w: 0, n: 1 }, { w: 0, n: 2 }));
    const cursor = new JsonlCursor(path, Rec);
    await cursor.readNew();
    await truncate(path, 0);
    await appendRecord(path, { w: 0, n: 3 });
    const batch = await cursor.readNew();
    expect(batch.records).toEqual([{ w: 0, n: 3 }]);
    expect(batch.diagnostics).toEqual([`${path} shrank from 28 to 14 bytes (truncated?); reading from the start`]);
  });

  it("restarts from byte 0 when the file was replaced by a bigger one (new inode)", async () => {
    const dir = await tempDir();
    const path = join(dir, "a.jsonl");
    await writeFile(path, lines({ w: 0, n: 1 }));
    const cursor = new JsonlCursor(path, Rec);
    await cursor.readNew();
    await writeFile(join(dir, "next"), lines({ w: 1, n: 1 }, { w: 1, n: 2 }));
    await rename(join(dir, "next"), path);
    const batch = await cursor.readNew();
    expect(batch.records).toEqual([{ w: 1, n: 1 }, { w: 1, n: 2 }]);
    expect(batch.diagnostics[0]).toContain("was replaced (new inode)");
  });

  it("skips a line longer than maxReadBytes and reads on after it", async () => {
    const path = join(await tempDir(), "a.jsonl");
    await writeFile(path, `${"z".repeat(300)}\n${lines({ w: 0, n: 1 })}`);
    const cursor = new JsonlCursor(path, Rec, { maxReadBytes: 64 });
    const batch = await cursor.readNew();
    expect(batch.records).toEqual([{ w: 0, n: 1 }]);
    expect(batch.skipped).toBe(1);
    expect(batch.diagnostics).toEqual([`${path} line 1 (byte offset 0): longer than 64 bytes; skipped`]);
  });

  it("never returns a line twice when reads overlap", async () => {
    const path = join(await tempDir(), "a.jsonl");
    await writeFile(path, lines(...Array.from({ length: 50 }, (_, n) => ({ w: 0, n }))));
    const cursor = new JsonlCursor(path, Rec);
    const batches = await Promise.all([cursor.readNew(), cursor.readNew(), cursor.readNew()]);
    expect(batches.flatMap((b) => b.records)).toHaveLength(50);
  });

  it("rotates instead of truncating: an append racing the rotation is not lost (L7)", async () => {
    const dir = await tempDir();
    const path = join(dir, "bob.jsonl");
    let now = 1_000;
    const cursor = new JsonlCursor(path, Rec, { rotateAtBytes: 20, retiredGraceMs: 500, now: () => now });
    await appendRecord(path, { w: 0, n: 1 });
    await appendRecord(path, { w: 0, n: 2 });
    // A writer that opened the file before the rotation and writes after it.
    const lateWriter = await open(path, "a");
    const first = await cursor.readNew();
    expect(first.records.map((r) => r.n)).toEqual([1, 2]);
    expect(await readdir(dir)).toEqual(["rotated"]);
    await lateWriter.write(lines({ w: 9, n: 3 }));
    await lateWriter.close();
    await appendRecord(path, { w: 0, n: 4 });
    const second = await cursor.readNew();
    expect(second.records.map((r) => r.n)).toEqual([3, 4]);
    expect(await readdir(join(dir, "rotated"))).toHaveLength(1);
    now += 500;
    const third = await cursor.readNew();
    expect(third).toEqual({ records: [], diagnostics: [], skipped: 0 });
    expect(await readdir(join(dir, "rotated"))).toEqual([]);
  });

  it("rotate() on demand returns false when there is nothing to rotate", async () => {
    const path = join(await tempDir(), "a.jsonl");
    const cursor = new JsonlCursor(path, Rec);
    expect(await cursor.rotate()).toBe(false);
    await appendRecord(path, { w: 0, n: 1 });
    expect(await cursor.rotate()).toBe(true);
    await appendRecord(path, { w: 0, n: 2 });
    expect((await cursor.readNew()).records.map((r) => r.n)).toEqual([1, 2]);
  });

  it("reports a read error (the path is a directory) as a diagnostic, once, and never throws", async () => {
    const dir = await tempDir();
    const path = join(dir, "carol.jsonl");
    await mkdir(path);
    const cursor = new JsonlCursor(path, Rec);
    const first = await cursor.readNew();
    expect(first.records).toEqual([]);
    expect(first.diagnostics).toHaveLength(1);
    expect(first.diagnostics[0]).toContain(path);
    expect(first.diagnostics[0]).toContain("is a directory, not a regular file");
    // The same error again is not repeated on every poll.
    expect(await cursor.readNew()).toEqual({ records: [], diagnostics: [], skipped: 0 });
    // Once the path is a file again, it is read normally.
    await rm(path, { recursive: true });
    await appendRecord(path, { w: 3, n: 1 });
    const third = await cursor.readNew();
    expect(third.records).toEqual([{ w: 3, n: 1 }]);
  });

  it("reports a failed rotation as a diagnostic from readNew and keeps reading", async () => {
    const dir = await tempDir();
    const path = join(dir, "dave.jsonl");
    await writeFile(join(dir, "rotated"), "not a dir");
    const cursor = new JsonlCursor(path, Rec, { rotateAtBytes: 10 });
    await appendRecord(path, { w: 4, n: 1 });
    const first = await cursor.readNew();
    expect(first.records).toEqual([{ w: 4, n: 1 }]);
    expect(first.diagnostics).toHaveLength(1);
    expect(first.diagnostics[0]).toContain(`Cannot rotate ${path}`);
    await appendRecord(path, { w: 4, n: 2 });
    const second = await cursor.readNew();
    expect(second.records).toEqual([{ w: 4, n: 2 }]);
    expect(second.diagnostics).toEqual([]);
  });

  it("rejects a non-positive option with a TypeError naming it", () => {
    expect(() => new JsonlCursor("/x", Rec, { maxReadBytes: 0 })).toThrow(/maxReadBytes/);
  });
});
