import { readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { TeamError } from "../../../src/errors.ts";
import { readValidated, SnapshotWriter } from "../../../src/store/index.ts";
import { modeOf, useTempDirs } from "./tmp.ts";

const tempDir = useTempDirs();

const Schema = Type.Object({ v: Type.Literal(1), names: Type.Array(Type.String()) });

describe("SnapshotWriter", () => {
  it("writes pretty JSON with mode 0600 into a dir it creates with 0700", async () => {
    const dir = join(await tempDir(), "runtime");
    const path = join(dir, "roster.json");
    expect(await new SnapshotWriter().write(path, { v: 1, names: ["a"] })).toBe(true);
    expect(await readFile(path, "utf8")).toBe('{\n  "v": 1,\n  "names": [\n    "a"\n  ]\n}\n');
    expect(await modeOf(path)).toBe(0o600);
    expect(await modeOf(dir)).toBe(0o700);
  });

  it("skips the write when the content is unchanged: same inode, same mtime", async () => {
    const path = join(await tempDir(), "state.json");
    const writer = new SnapshotWriter();
    await writer.write(path, { v: 1, names: ["a"] });
    const before = await stat(path);
    expect(await writer.write(path, { v: 1, names: ["a"] })).toBe(false);
    const after = await stat(path);
    expect(after.ino).toBe(before.ino);
    expect(after.mtimeMs).toBe(before.mtimeMs);
  });

  it("writes a changed value atomically (a new inode replaces the old file)", async () => {
    const path = join(await tempDir(), "state.json");
    const writer = new SnapshotWriter();
    await writer.write(path, { v: 1, names: ["a"] });
    const before = await stat(path);
    expect(await writer.write(path, { v: 1, names: ["a", "b"] })).toBe(true);
    expect((await stat(path)).ino).not.toBe(before.ino);
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual({ v: 1, names: ["a", "b"] });
  });

  it("keeps no memory across instances and rewrites after forget()", async () => {
    const path = join(await tempDir(), "state.json");
    const writer = new SnapshotWriter();
    await writer.write(path, { v: 1, names: [] });
    expect(await new SnapshotWriter().write(path, { v: 1, names: [] })).toBe(true);
    writer.forget(path);
    expect(await writer.write(path, { v: 1, names: [] })).toBe(true);
  });

  it("applies overlapping writes in call order and leaves no temp files", async () => {
    const dir = await tempDir();
    const path = join(dir, "board.json");
    const writer = new SnapshotWriter();
    const results = await Promise.all([1, 2, 3, 3, 4].map((n) => writer.write(path, { v: 1, names: [String(n)] })));
    expect(results).toEqual([true, true, true, false, true]);
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual({ v: 1, names: ["4"] });
    expect(await readdir(dir)).toEqual(["board.json"]);
  });

  it("rejects a value JSON cannot encode with invalid_input", async () => {
    const path = join(await tempDir(), "x.json");
    const error = await new SnapshotWriter().write(path, { n: 1n }).catch((e: unknown) => e);
    expect((error as TeamError).code).toBe("invalid_input");
  });

  it("reports io_error and retries next time when the write fails", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "blocker"), "file, not dir");
    const path = join(dir, "blocker", "x.json");
    const writer = new SnapshotWriter();
    const error = await writer.write(path, { v: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TeamError);
    expect((error as TeamError).code).toBe("io_error");
    await rm(join(dir, "blocker"));
    expect(await writer.write(path, { v: 1 })).toBe(true);
  });
});

describe("readValidated", () => {
  it("returns the value of a valid file", async () => {
    const path = join(await tempDir(), "r.json");
    await writeFile(path, '{"v":1,"names":["a"]}');
    expect(await readValidated(path, Schema, "roster")).toEqual({ ok: true, value: { v: 1, names: ["a"] } });
  });

  it("distinguishes missing, unreadable and invalid, naming file, field, value and expectation", async () => {
    const dir = await tempDir();
    const missing = await readValidated(join(dir, "none.json"), Schema, "roster");
    expect(missing).toMatchObject({ ok: false, reason: "missing" });

    const broken = join(dir, "broken.json");
    await writeFile(broken, '{"v":1,');
    const unreadable = await readValidated(broken, Schema, "roster");
    expect(unreadable).toMatchObject({ ok: false, reason: "unreadable" });
    if (!unreadable.ok) expect(unreadable.message).toContain(`roster ${broken}: not valid JSON`);

    const wrong = join(dir, "wrong.json");
    await writeFile(wrong, '{"v":1,"names":["a",7]}');
    const invalid = await readValidated(wrong, Schema, "roster");
    expect(invalid).toEqual({ ok: false, reason: "invalid", message: `roster ${wrong}: /names/1 is 7; expected a value that must be string` });
  });

  it("leaves a corrupt file untouched (L8)", async () => {
    const path = join(await tempDir(), "board.json");
    await writeFile(path, "garbage");
    await readValidated(path, Schema, "board");
    expect(await readFile(path, "utf8")).toBe("garbage");
  });
});
