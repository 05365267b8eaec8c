import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolvePiCli } from "../../../src/process/index.ts";

const INSTALLED_CLI = realpathSync("node_modules/@earendil-works/pi-coding-agent/dist/bundle/cli.js");

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "prt-picli-")));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("resolvePiCli (L20)", () => {
  it("does not take a test runner's argv[1] for pi; falls back to the installed package's bin.pi", () => {
    expect(process.argv[1]).toBeDefined();
    expect(resolvePiCli()).toBe(INSTALLED_CLI);
  });

  it("takes argv[1] when it lies inside @earendil-works/pi-coding-agent, resolving symlinks", () => {
    const link = join(dir, "pi");
    symlinkSync(INSTALLED_CLI, link);
    expect(resolvePiCli({ argv1: link, resolveFrom: pathToFileURL(join(dir, "x.js")).href })).toBe(INSTALLED_CLI);
  });

  it("rejects a script whose nearest package.json has another name", () => {
    mkdirSync(join(dir, "impostor", "dist"), { recursive: true });
    writeFileSync(join(dir, "impostor", "package.json"), JSON.stringify({ name: "vitest", bin: { pi: "dist/cli.js" } }));
    writeFileSync(join(dir, "impostor", "dist", "cli.js"), "");
    expect(resolvePiCli({ argv1: join(dir, "impostor", "dist", "cli.js") })).toBe(INSTALLED_CLI);
  });

  it("throws not_found naming both places when neither works", () => {
    const from = pathToFileURL(join(dir, "lonely.js")).href;
    expect(() => resolvePiCli({ argv1: undefined, resolveFrom: from })).toThrow(
      expect.objectContaining({ code: "not_found", message: expect.stringContaining("process.argv[1] (unset)") }),
    );
  });
});
