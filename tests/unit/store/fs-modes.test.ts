import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TeamError } from "../../../src/errors.ts";
import { ensurePrivateDir } from "../../../src/store/index.ts";
import { modeOf, useTempDirs } from "./tmp.ts";

const tempDir = useTempDirs();

describe("ensurePrivateDir", () => {
  it("creates missing dirs, parents included, with mode 0700", async () => {
    const root = await tempDir();
    const dir = join(root, "a", "b");
    await ensurePrivateDir(dir);
    expect(await modeOf(dir)).toBe(0o700);
    expect(await modeOf(join(root, "a"))).toBe(0o700);
  });

  it("tightens an existing dir to 0700 and is idempotent", async () => {
    const dir = join(await tempDir(), "open");
    await mkdir(dir);
    await chmod(dir, 0o755);
    await ensurePrivateDir(dir);
    await ensurePrivateDir(dir);
    expect(await modeOf(dir)).toBe(0o700);
  });

  it("throws io_error naming the path when a file is in the way", async () => {
    const file = join(await tempDir(), "file");
    await writeFile(file, "x");
    const error = await ensurePrivateDir(join(file, "sub")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TeamError);
    expect((error as TeamError).code).toBe("io_error");
    expect((error as TeamError).message).toContain(join(file, "sub"));
  });
});
