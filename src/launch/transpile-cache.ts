/**
 * A bwrap teammate's `TMPDIR` is its own and starts empty, so jiti (which loads extensions and
 * keeps its transpile cache in `<TMPDIR>/jiti`) would transpile this package's worker side anew
 * at every start: most of a bwrap spawn's extra second (docs/benchmarks.md, "Launchers"). The
 * host's cache cannot be shared (a box could then change the code its peers load), so the entries
 * of this package's own entry modules and worker bundle are copied into the box before it starts.
 * The box reads its copies and can change only those. An optimisation only: jiti checks each
 * entry against its source's hash, and a name that does not match (another jiti) costs a transpile.
 */
import { createHash } from "node:crypto";
import { copyFile, mkdir, readdir } from "node:fs/promises";
import { basename, dirname, extname, join } from "node:path";

/** The modules a teammate loads through jiti before its worker bundle (index.ts → src/extension.ts). */
export const ENTRY_MODULES = ["index.ts", "src/extension.ts", "src/mail/identity.ts"];

/** jiti 2's cache file name for an ESM import of `file`: `<dir>-<name>.<md5(file), 8 hex>.mjs`. Pure. */
export function jitiCacheName(file: string): string {
  return `${basename(dirname(file))}-${basename(file, extname(file))}.${createHash("md5").update(file).digest("hex").slice(0, 8)}.mjs`;
}

/**
 * Copies the host cache entries (in `hostCache`) of this package's entry modules and of every
 * worker bundle in `<packageDir>/dist/` into `boxCache` (created). Never throws: a copy that
 * fails only leaves that module to be transpiled in the box.
 */
export async function seedTranspileCache(hostCache: string, boxCache: string, packageDir: string): Promise<void> {
  try {
    const bundles = (await readdir(join(packageDir, "dist")).catch(() => [] as string[])).filter((n) => /^worker-[0-9a-f]+\.ts$/.test(n));
    const names = [...ENTRY_MODULES.map((m) => join(packageDir, m)), ...bundles.map((b) => join(packageDir, "dist", b))].map(jitiCacheName);
    await mkdir(boxCache, { recursive: true, mode: 0o700 });
    await Promise.all(names.map((n) => copyFile(join(hostCache, n), join(boxCache, n)).catch(() => undefined)));
  } catch {
    // the box transpiles what it has no copy of
  }
}
