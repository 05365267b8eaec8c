import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  BUNDLE_DIR,
  buildWorkerBundle,
  ensureWorkerBundle,
  freshWorkerBundle,
  MANIFEST_FILE,
  WORKER_ENTRY,
  type BundleManifest,
} from "../../../src/process/worker-bundle.ts";
import { PACKAGE_DIR } from "../../support/leader.ts";

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** A package dir whose worker entry imports one local module and one external. */
async function fakePackage(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "pi-teams-bundle-"));
  dirs.push(root);
  await mkdir(join(root, "src", "worker"), { recursive: true });
  await writeFile(join(root, WORKER_ENTRY), 'import { Type } from "typebox";\nimport { greet } from "./greet.ts";\nexport const registerWorker = (): string => greet(String(Type.String().type));\n');
  await writeFile(join(root, "src", "worker", "greet.ts"), "export const greet = (s: string): string => `hello ${s}`;\n");
  return root;
}

const manifestOf = async (root: string): Promise<BundleManifest> =>
  JSON.parse(await readFile(join(root, BUNDLE_DIR, MANIFEST_FILE), "utf8")) as BundleManifest;

describe("worker bundle", () => {
  it("is fresh after a build, and lists every bundled source with its hash", async () => {
    const root = await fakePackage();
    const path = await buildWorkerBundle(root);
    expect(await freshWorkerBundle(root)).toBe(path);
    const manifest = await manifestOf(root);
    expect(Object.keys(manifest.inputs)).toEqual(["src/worker/greet.ts", WORKER_ENTRY]);
    const code = await readFile(path, "utf8");
    expect(code).toContain("hello");
    expect(code).toMatch(/from "typebox"/); // externals stay imports, for jiti to resolve to pi's copy
  });

  it("is stale once any input changes or the bundle is gone, and ensure rebuilds it", async () => {
    const root = await fakePackage();
    const first = await buildWorkerBundle(root);
    await writeFile(join(root, "src", "worker", "greet.ts"), "export const greet = (s: string): string => `hi ${s}`;\n");
    expect(await freshWorkerBundle(root)).toBeUndefined();
    const second = await ensureWorkerBundle(root);
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    expect(await readFile(second!, "utf8")).toContain("hi ");
    // The old bundle is removed; only the new one and the manifest remain.
    expect((await readdir(join(root, BUNDLE_DIR))).sort()).toEqual([MANIFEST_FILE, second!.split("/").pop()].sort());
    await rm(second!);
    expect(await freshWorkerBundle(root)).toBeUndefined();
  });

  it("is stale when an input was deleted or the manifest is broken", async () => {
    const root = await fakePackage();
    await buildWorkerBundle(root);
    await rm(join(root, "src", "worker", "greet.ts"));
    expect(await freshWorkerBundle(root)).toBeUndefined();
    await writeFile(join(root, BUNDLE_DIR, MANIFEST_FILE), "{ not json");
    expect(await freshWorkerBundle(root)).toBeUndefined();
  });

  it("without a buildable entry, ensure notes why and teammates load the sources", async () => {
    const root = await mkdtemp(join(tmpdir(), "pi-teams-bundle-"));
    dirs.push(root);
    const notes: string[] = [];
    expect(await ensureWorkerBundle(root, (t) => notes.push(t))).toBeUndefined();
    expect(notes.join("\n")).toMatch(/load the worker side from src\//);
  });

  it("of this package holds only the worker side: no leader code, no chokidar (a teammate watches nothing), no static write-file-atomic, execa or simple-git", async () => {
    const path = await ensureWorkerBundle(PACKAGE_DIR);
    expect(path).toBeDefined();
    const inputs = Object.keys((await manifestOf(PACKAGE_DIR)).inputs);
    expect(inputs).toContain(WORKER_ENTRY);
    expect(inputs.filter((p) => /^src\/(leader|ui|agents|isolation|process)\//.test(p))).toEqual([]);
    const code = await readFile(path!, "utf8");
    const staticImports = [...code.matchAll(/^import [^;]*? from "([^"]+)";$/gm)].map((m) => m[1]);
    expect(staticImports.filter((s) => /^(chokidar|write-file-atomic|execa|simple-git|gray-matter)$/.test(s!))).toEqual([]);
    expect(code).not.toContain("chokidar"); // the leader's answers come on the pipe: nothing to watch
  });
});
