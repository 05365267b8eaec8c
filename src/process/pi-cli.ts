/**
 * Locate the pi CLI script that teammates are started with (L20).
 */
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { TeamError } from "../errors.ts";

/** npm name of the Pi coding agent package. */
export const PI_PACKAGE_NAME = "@earendil-works/pi-coding-agent";

/** Where to look; both default to this process. Injected by tests. */
export interface ResolvePiCliOptions {
  /** The running script, normally `process.argv[1]`. */
  argv1?: string | undefined;
  /** Module URL or path to resolve the package from. Default: this module. */
  resolveFrom?: string;
}

/**
 * Absolute path of the pi CLI script to run with `process.execPath`.
 *
 * 1. `process.argv[1]`, but only if the nearest `package.json` above it is named
 *    `@earendil-works/pi-coding-agent` (L20: under a test runner argv[1] is the runner; spawning
 *    that as "pi" hangs). Symlinks are resolved first.
 * 2. Otherwise the `bin.pi` of that package as Node would resolve it from here (walking the
 *    `node_modules` lookup paths; the package's `exports` hide its package.json from require).
 * @throws TeamError `not_found` naming both places looked at, with a hint.
 */
export function resolvePiCli(options: ResolvePiCliOptions = {}): string {
  const argv1 = "argv1" in options ? options.argv1 : process.argv[1];
  if (argv1) {
    const script = safeRealpath(resolve(argv1));
    const owner = nearestPackageJson(dirname(script));
    if (owner && readPackage(owner)?.name === PI_PACKAGE_NAME) return script;
  }
  const from = options.resolveFrom ?? import.meta.url;
  const lookup = createRequire(from).resolve.paths(PI_PACKAGE_NAME) ?? [];
  for (const dir of lookup) {
    const root = join(dir, PI_PACKAGE_NAME);
    const pkg = readPackage(join(root, "package.json"));
    if (pkg?.name !== PI_PACKAGE_NAME) continue;
    const bin = typeof pkg.bin === "string" ? pkg.bin : pkg.bin?.["pi"];
    if (bin && existsSync(join(root, bin))) return safeRealpath(join(root, bin));
  }
  throw new TeamError(
    "not_found",
    `Cannot locate the pi CLI: process.argv[1] (${argv1 ?? "unset"}) is not inside ${PI_PACKAGE_NAME}, ` +
      `and ${PI_PACKAGE_NAME} with a bin "pi" is not resolvable from ${from}. ` +
      "Run the leader from pi itself, or install the package next to this extension.",
  );
}

interface PackageJson {
  name?: string;
  bin?: string | Record<string, string>;
}

function nearestPackageJson(startDir: string): string | undefined {
  for (let dir = startDir; ; dir = dirname(dir)) {
    const candidate = join(dir, "package.json");
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

function readPackage(path: string): PackageJson | undefined {
  try {
    const value: unknown = JSON.parse(readFileSync(path, "utf8"));
    if (typeof value !== "object" || value === null) return undefined;
    const { name, bin } = value as { name?: unknown; bin?: unknown };
    const pkg: PackageJson = typeof name === "string" ? { name } : {};
    if (typeof bin === "string") pkg.bin = bin;
    else if (typeof bin === "object" && bin !== null) {
      pkg.bin = Object.fromEntries(Object.entries(bin).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
    }
    return pkg;
  } catch {
    return undefined; // missing or unreadable: not the package we look for
  }
}

function safeRealpath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
