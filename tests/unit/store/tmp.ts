import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";

/** Per-test temp dirs, removed after each test. Call at module level of a test file. */
export function useTempDirs(): () => Promise<string> {
  const made: string[] = [];
  afterEach(async () => {
    await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });
  return async () => {
    const dir = await mkdtemp(join(tmpdir(), "prt-store-"));
    made.push(dir);
    return dir;
  };
}

/** Permission bits of a path (e.g. 0o600). */
export async function modeOf(path: string): Promise<number> {
  return (await stat(path)).mode & 0o777;
}
