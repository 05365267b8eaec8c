import { open, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { TeamError } from "../../../src/errors.ts";
import { consumeIntent, listIntents, publishIntent, readIntent } from "../../../src/store/index.ts";
import { modeOf, useTempDirs } from "./tmp.ts";

const tempDir = useTempDirs();

const Claim = Type.Object({ v: Type.Literal(1), taskId: Type.String(), spawnId: Type.String() });

describe("publishIntent", () => {
  it("publishes a complete marker 0600 in a dir it creates 0700, leaving no temp file", async () => {
    const dir = join(await tempDir(), "claims");
    const result = await publishIntent(dir, "t-1", { v: 1, taskId: "t-1", spawnId: "s1" });
    expect(result).toEqual({ ok: true, path: join(dir, "t-1.json") });
    expect(JSON.parse(await readFile(join(dir, "t-1.json"), "utf8"))).toEqual({ v: 1, taskId: "t-1", spawnId: "s1" });
    expect(await readdir(dir)).toEqual(["t-1.json"]);
    expect(await modeOf(join(dir, "t-1.json"))).toBe(0o600);
    expect(await modeOf(dir)).toBe(0o700);
  });

  it("reports `exists` (link EEXIST) and never replaces the first marker", async () => {
    const dir = await tempDir();
    await publishIntent(dir, "t-1", { v: 1, taskId: "t-1", spawnId: "first" });
    const second = await publishIntent(dir, "t-1", { v: 1, taskId: "t-1", spawnId: "second" });
    expect(second).toMatchObject({ ok: false, reason: "exists", path: join(dir, "t-1.json") });
    expect(JSON.parse(await readFile(join(dir, "t-1.json"), "utf8")).spawnId).toBe("first");
    expect(await readdir(dir)).toEqual(["t-1.json"]);
  });

  it("gives exactly one winner among racing publishers", async () => {
    const dir = await tempDir();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => publishIntent(dir, "t-9", { v: 1, taskId: "t-9", spawnId: `s${i}` })),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(await readdir(dir)).toEqual(["t-9.json"]);
  });

  it("rejects a path-unsafe name with invalid_input", async () => {
    const dir = await tempDir();
    for (const name of ["../x", ".hidden", "", "a/b"]) {
      const error = await publishIntent(dir, name, {}).catch((e: unknown) => e);
      expect((error as TeamError).code).toBe("invalid_input");
    }
  });
});

describe("readIntent", () => {
  it("returns the validated record", async () => {
    const dir = await tempDir();
    const { path } = await publishIntent(dir, "c", { v: 1, taskId: "t", spawnId: "s" });
    expect(await readIntent(path, Claim, { graceMs: 1000 })).toEqual({ ok: true, value: { v: 1, taskId: "t", spawnId: "s" } });
  });

  it("L6: a marker created but whose contents are delayed is not consumed within the grace", async () => {
    const dir = await tempDir();
    const path = join(dir, "late.json");
    // A `wx` writer (the pre-fix protocol) has created the marker but not written it yet.
    const handle = await open(path, "wx", 0o600);
    const early = await readIntent(path, Claim, { graceMs: 2000 });
    expect(early).toMatchObject({ ok: false, reason: "young-unparseable" });
    if (!early.ok) expect(early.message).toContain("not valid JSON");
    expect(await listIntents(dir)).toEqual([path]);
    await handle.write('{"v":1,"taskId":"t","spawnId":"s"}');
    await handle.close();
    expect(await readIntent(path, Claim, { graceMs: 2000 })).toEqual({ ok: true, value: { v: 1, taskId: "t", spawnId: "s" } });
  });

  it("reports an old unparseable or invalid marker as invalid, naming the field", async () => {
    const dir = await tempDir();
    const garbled = join(dir, "garbled.json");
    await writeFile(garbled, '{"v":1,');
    const later = () => Date.now() + 60_000;
    expect(await readIntent(garbled, Claim, { graceMs: 5000, now: later })).toMatchObject({ ok: false, reason: "invalid" });
    const wrong = join(dir, "wrong.json");
    await writeFile(wrong, '{"v":1,"taskId":7,"spawnId":"s"}');
    const result = await readIntent(wrong, Claim, { graceMs: 5000, now: later });
    expect(result).toMatchObject({ ok: false, reason: "invalid" });
    if (!result.ok) expect(result.message).toBe(`Intent ${wrong}: /taskId is 7; expected a value that must be string`);
  });

  it("reports a vanished marker as missing", async () => {
    const path = join(await tempDir(), "gone.json");
    expect(await readIntent(path, Claim, { graceMs: 0 })).toMatchObject({ ok: false, reason: "missing" });
  });
});

describe("listIntents and consumeIntent", () => {
  it("lists only markers, skipping temp files and subdirs; [] for a missing dir", async () => {
    const dir = await tempDir();
    expect(await listIntents(join(dir, "none"))).toEqual([]);
    await publishIntent(dir, "b", {});
    await publishIntent(dir, "a", {});
    await writeFile(join(dir, ".tmp-c-1-ab"), "{");
    await consumeIntent(join(dir, "b.json"));
    expect(await listIntents(dir)).toEqual([join(dir, "a.json")]);
  });

  it("moves a consumed marker into done/ (or invalid/) and frees its name", async () => {
    const dir = await tempDir();
    const { path } = await publishIntent(dir, "t-1", { n: 1 });
    expect(await consumeIntent(path, "done", () => 42)).toBe(true);
    expect(await consumeIntent(path)).toBe(false);
    expect(await readdir(join(dir, "done"))).toEqual(["t-1.42.json"]);
    expect(await modeOf(join(dir, "done"))).toBe(0o700);
    expect((await publishIntent(dir, "t-1", { n: 2 })).ok).toBe(true);
    expect(await consumeIntent(path, "invalid", () => 43)).toBe(true);
    expect(await readdir(join(dir, "invalid"))).toEqual(["t-1.43.json"]);
  });
});
