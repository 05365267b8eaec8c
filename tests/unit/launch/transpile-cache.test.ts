import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { ENTRY_MODULES, jitiCacheName, seedTranspileCache } from "../../../src/launch/transpile-cache.ts";

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

describe("a bwrap box's transpile cache seed", () => {
  it("names an entry as jiti 2 does: <dir>-<name>.<md5 of the path, 8 hex>.mjs", () => {
    // md5("/work/main/src/extension.ts") starts a6319bcd: the name jiti gave that module on this machine
    expect(jitiCacheName("/work/main/src/extension.ts")).toBe("src-extension.a6319bcd.mjs");
  });

  it("names entry modules that exist in this package (a moved module would lose its seed silently)", () => {
    const pkg = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
    expect(ENTRY_MODULES.filter((m) => !existsSync(join(pkg, m)))).toEqual([]);
  });

  it("copies the entries of the package's entry modules and worker bundles, and nothing else", async () => {
    const root = await mkdtemp(join(tmpdir(), "seed-test-"));
    dirs.push(root);
    const pkg = join(root, "pkg");
    const host = join(root, "host");
    await mkdir(join(pkg, "dist"), { recursive: true });
    await mkdir(host);
    await writeFile(join(pkg, "dist", "worker-abc123.ts"), "");
    const wanted = [join(pkg, "index.ts"), join(pkg, "src/extension.ts"), join(pkg, "dist/worker-abc123.ts")].map(jitiCacheName);
    for (const n of [...wanted, jitiCacheName("/elsewhere/src/extension.ts"), "other.mjs"]) await writeFile(join(host, n), n);
    await seedTranspileCache(host, join(root, "box", "jiti"), pkg);
    expect((await readdir(join(root, "box", "jiti"))).sort()).toEqual([...wanted].sort());
  });

  it("never throws, whatever is missing", async () => {
    const root = await mkdtemp(join(tmpdir(), "seed-test-"));
    dirs.push(root);
    await writeFile(join(root, "a-file"), "");
    await expect(seedTranspileCache("/no/such/cache", join(root, "a-file", "jiti"), "/no/such/pkg")).resolves.toBeUndefined();
  });
});
