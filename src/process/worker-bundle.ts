/**
 * The teammate side of this package as one prebuilt module (issue 9, item 5).
 *
 * Pi loads an extension through jiti, which costs a few ms per module it loads; the worker side is
 * some 55 modules, which made a teammate start about 1.3 × a bare pi. Bundled into one file by
 * esbuild it loads as one module. Pi's own packages and typebox stay external, so jiti still
 * resolves them to the running pi's copies exactly as for the sources.
 *
 * Freshness: the bundle lives in `dist/` (gitignored) next to `worker-bundle.json`, which names it
 * and lists every source file that went into it with its sha256. A bundle is used only when each
 * of those files still has that hash: the bundle is a function of its inputs (a new import enters
 * only through an edited input), so a stale bundle is never loaded. `npm install` builds it
 * (`prepare`: scripts/build-worker.mjs); the leader checks it once per session and rebuilds it when
 * stale and esbuild can be loaded (a development checkout); otherwise teammates load the sources.
 *
 * The file is named `.ts` on purpose: jiti imports a `.js`/`.mjs` file of an ESM package with
 * Node's own loader, which would resolve pi's packages from node_modules (a second pi, or none)
 * instead of the running pi's. Plain JavaScript is valid TypeScript; jiti caches its transform.
 */
import { createHash, randomUUID } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { errorText } from "../error-text.ts";

/** The worker side's entry, relative to the package dir. */
export const WORKER_ENTRY = "src/worker/worker.ts";
/** Where the bundle and its manifest live, relative to the package dir. */
export const BUNDLE_DIR = "dist";
/** The manifest's file name in BUNDLE_DIR. */
export const MANIFEST_FILE = "worker-bundle.json";
/** Bumped whenever the build options below change, so an older bundle counts as stale. */
const BUILD_FORMAT = 1;
/** Imports left to jiti at load time: pi's packages and typebox (the running pi's copies), and our npm dependencies. */
const EXTERNAL = /^(@earendil-works\/|@mariozechner\/|typebox($|\/)|chokidar$|write-file-atomic$|execa$|simple-git$|gray-matter$)/;

/** `worker-bundle.json`. */
export interface BundleManifest {
  format: number;
  /** The bundle's file name in BUNDLE_DIR. */
  bundle: string;
  /** Every source file in the bundle (package-relative, "/"-separated) with its sha256. */
  inputs: Record<string, string>;
}

const sha256 = (data: Buffer | string): string => createHash("sha256").update(data).digest("hex");
const posix = (path: string): string => path.split(sep).join("/");

/**
 * Path of the bundle in `packageDir` if it is fresh: the manifest names a bundle of this build
 * format that exists, and every input listed still has its hash. Otherwise undefined. Never throws.
 */
export async function freshWorkerBundle(packageDir: string): Promise<string | undefined> {
  try {
    const dir = join(packageDir, BUNDLE_DIR);
    const manifest = JSON.parse(await readFile(join(dir, MANIFEST_FILE), "utf8")) as BundleManifest;
    if (manifest.format !== BUILD_FORMAT || typeof manifest.bundle !== "string" || manifest.bundle.includes("/")) return undefined;
    const inputs = Object.entries(manifest.inputs ?? {});
    if (!inputs.some(([path]) => path === WORKER_ENTRY)) return undefined;
    const hashes = await Promise.all(inputs.map(async ([path]) => sha256(await readFile(join(packageDir, path)))));
    if (inputs.some(([, hash], i) => hashes[i] !== hash)) return undefined;
    const bundle = join(dir, manifest.bundle);
    await readFile(bundle); // it exists and can be read
    return bundle;
  } catch {
    return undefined;
  }
}

/** The part of esbuild's API the build uses (esbuild is a development dependency, loaded only here). */
interface Esbuild {
  build(options: Record<string, unknown>): Promise<{ outputFiles?: { text: string }[] }>;
  stop?(): void;
}

/** The part of an esbuild plugin's `build` the build uses. */
interface PluginBuild {
  onResolve(options: { filter: RegExp }, callback: (args: { path: string }) => unknown): void;
  onLoad(options: { filter: RegExp }, callback: (args: { path: string }) => Promise<unknown>): void;
}

/**
 * Bundles the worker side of `packageDir` with esbuild into BUNDLE_DIR and writes the manifest
 * (each file written whole and renamed into place, so a concurrent reader sees the old pair or
 * the new one). Removes older bundles. Returns the bundle's path.
 * @throws Error when esbuild cannot be loaded or the build fails.
 */
export async function buildWorkerBundle(packageDir: string): Promise<string> {
  const esbuild = (await import("esbuild")) as unknown as Esbuild;
  const inputs: Record<string, string> = {};
  try {
    const result = await esbuild.build({
      absWorkingDir: packageDir,
      entryPoints: [WORKER_ENTRY],
      bundle: true,
      write: false,
      outfile: join(packageDir, BUNDLE_DIR, "worker.ts"),
      format: "esm",
      platform: "node",
      target: "node22",
      logLevel: "silent",
      legalComments: "none",
      plugins: [{ name: "worker-bundle", setup: (b: PluginBuild) => {
        // Unused imports of externals are dropped (sideEffects: false): the worker never loads write-file-atomic.
        b.onResolve({ filter: EXTERNAL }, (a) => ({ path: a.path, external: true, sideEffects: false }));
        // Each source is read once, here, so the hash in the manifest is of the very text bundled.
        b.onLoad({ filter: /\.ts$/ }, async (a) => {
          const contents = await readFile(a.path);
          inputs[posix(relative(packageDir, a.path))] = sha256(contents);
          return { contents, loader: "ts" };
        });
      } }],
    });
    const text = result.outputFiles?.[0]?.text;
    if (text === undefined) throw new Error("esbuild returned no output");
    const code = `// Generated by src/process/worker-bundle.ts from ${WORKER_ENTRY}; do not edit (see ${MANIFEST_FILE}).\n${text}`;
    const name = `worker-${sha256(code).slice(0, 16)}.ts`;
    const dir = join(packageDir, BUNDLE_DIR);
    await mkdir(dir, { recursive: true });
    await writeWhole(join(dir, name), code);
    const sorted = Object.fromEntries(Object.entries(inputs).sort(([a], [b]) => a.localeCompare(b)));
    const manifest: BundleManifest = { format: BUILD_FORMAT, bundle: name, inputs: sorted };
    await writeWhole(join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
    for (const old of await readdir(dir)) {
      if (/^worker-[0-9a-f]{16}\.ts$/.test(old) && old !== name) await rm(join(dir, old), { force: true }).catch(() => undefined);
    }
    return join(dir, name);
  } finally {
    esbuild.stop?.(); // its service process must not outlive the build
  }
}

async function writeWhole(path: string, text: string): Promise<void> {
  const temp = `${path}.${randomUUID()}.tmp`;
  try {
    await writeFile(temp, text);
    await rename(temp, path);
  } finally {
    await rm(temp, { force: true });
  }
}

/**
 * The bundle teammates should load: the fresh one, else one built now (when esbuild can be
 * loaded), else undefined (teammates load the sources). `note` hears why a rebuild failed.
 * Never throws.
 */
export async function ensureWorkerBundle(packageDir: string, note: (text: string) => void = () => undefined): Promise<string | undefined> {
  const fresh = await freshWorkerBundle(packageDir);
  if (fresh) return fresh;
  try {
    return await buildWorkerBundle(packageDir);
  } catch (error) {
    note(`teammates load the worker side from src/ (no fresh bundle, and it could not be built: ${errorText(error)})`);
    return undefined;
  }
}
