/**
 * Resolves a tool's `path` argument the way Pi's edit, write and read tools do, so a guard
 * checks the file the tool will touch. Pure string math (plus the given home dir).
 *
 * Pi does not export this (its `resolveToCwd` lives in dist/core/tools/path-utils.js and
 * `resolvePath` in dist/utils/paths.js, neither reachable through the package's exports), so
 * this is a minimal replica of Pi 1.6.0's `resolveToCwd(filePath, cwd)`: Unicode spaces become
 * plain spaces, one leading "@" is stripped, "~" and "~/..." expand to the home dir, `file://`
 * URLs become paths, and the result is `path.resolve`d against `cwd` (which itself gets "~"
 * expanded). Not replicated: the Git Bash / MSYS drive-path rewriting Pi applies on Windows, and
 * the macOS filename variants (NFD, curly quotes, narrow no-break space) only Pi's read tries
 * when the exact path is missing; for such a read the guard records no version, so a later
 * write is blocked ("read it first"), never wrongly allowed.
 */
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const UNICODE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;

function expandHome(input: string, home: string): string {
  if (input === "~") return home;
  if (input.startsWith("~/") || (process.platform === "win32" && input.startsWith("~\\"))) return join(home, input.slice(2));
  return input;
}

function normalize(input: string, home: string): string {
  let p = input.replace(UNICODE_SPACES, " ");
  if (p.startsWith("@")) p = p.slice(1);
  p = expandHome(p, home);
  if (/^file:\/\//.test(p)) {
    try {
      return fileURLToPath(p);
    } catch {
      return p; // Pi would throw here and its tool fail; the guard just checks the literal path.
    }
  }
  return p;
}

/**
 * The absolute path a Pi file tool resolves `filePath` to, relative to `cwd`. `..` segments are
 * resolved lexically; symlinks are not followed (the caller does that). Never throws.
 */
export function resolveToolPath(filePath: string, cwd: string, home: string = homedir()): string {
  const p = normalize(filePath, home);
  return isAbsolute(p) ? resolve(p) : resolve(expandHome(cwd, home), p);
}
