/**
 * A FIFO, socket or directory put where the team keeps a file is refused at once instead of
 * blocking the reader (issue 18): the mailbox cursor, the stderr tail, snapshots, intents and
 * board.json all open through src/store/regular-file.ts.
 */
import { execFile } from "node:child_process";
import { closeSync, constants, openSync, writeSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { openStderrLog, readTail } from "../../../src/process/stderr-log.ts";
import { NoteLog } from "../../../src/feed/notes.ts";
import { appendRecord, JsonlCursor, NotRegularFileError, openAppendSync, openRegularSync, readRegularFile, readValidated } from "../../../src/store/index.ts";
import { useTempDirs } from "./tmp.ts";

const tempDir = useTempDirs();
const run = promisify(execFile);

async function fifo(dir: string, name: string): Promise<string> {
  const path = join(dir, name);
  await run("mkfifo", [path]);
  return path;
}

describe("openRegularSync and readRegularFile", () => {
  it("read a regular file and refuse a FIFO or a directory at once, naming it", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "ok.json"), "{}");
    expect(await readRegularFile(join(dir, "ok.json"))).toBe("{}");
    const pipe = await fifo(dir, "inbox.jsonl");
    expect(() => openRegularSync(pipe)).toThrow(NotRegularFileError);
    expect(() => openRegularSync(pipe)).toThrow(`${pipe} is a FIFO, not a regular file; it was not read`);
    await expect(readRegularFile(pipe)).rejects.toMatchObject({ code: "ENOTREG" });
    await mkdir(join(dir, "sub"));
    expect(() => openRegularSync(join(dir, "sub"))).toThrow(/is a directory/);
    expect(() => openRegularSync(join(dir, "missing"))).toThrow(/ENOENT/);
  });

  it("a mailbox cursor, a stderr tail and a snapshot read on a FIFO return with a diagnostic instead of blocking", async () => {
    const dir = await tempDir();
    const inbox = await fifo(dir, "bob.jsonl");
    const cursor = new JsonlCursor(inbox, Type.Object({ n: Type.Integer() }));
    const batch = await cursor.readNew();
    expect(batch.records).toEqual([]);
    expect(batch.diagnostics.join("\n")).toContain("is a FIFO, not a regular file");
    expect(readTail(await fifo(dir, "bob.log"), 0, 1000)).toMatch(/unreadable: .*is a FIFO/);
    const roster = await readValidated(await fifo(dir, "roster.json"), Type.Object({}), "roster");
    expect(roster).toMatchObject({ ok: false, reason: "unreadable" });
  });

  it("writers refuse a FIFO at once, with or without a reader: the stderr log, the harness notes, a mailbox append", async () => {
    const dir = await tempDir();
    const pipe = await fifo(dir, "bob.log");
    expect(() => openAppendSync(pipe, 0o600)).toThrow(/ENXIO/); // no reader: a blocking open waited for ever
    const reader = openSync(pipe, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      expect(() => openAppendSync(pipe, 0o600)).toThrow(`${pipe} is a FIFO, not a regular file; it was not written`);
      expect(() => openStderrLog(pipe, "header")).toThrow(/is a FIFO/);
      new NoteLog({ file: pipe }).add("a note"); // dropped, no throw, no block
      await expect(appendRecord(pipe, { v: 1 })).rejects.toThrow(/is a FIFO, not a regular file/);
    } finally {
      closeSync(reader);
    }
    const file = join(dir, "ok.log");
    const fd = openAppendSync(file, 0o600);
    writeSync(fd, "line\n");
    closeSync(fd);
    expect(await readRegularFile(file)).toBe("line\n");
  });
});
