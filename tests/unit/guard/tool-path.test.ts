import { homedir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// Pi's own resolver is internal (not in the package's exports), so it is imported by file path.
import { resolveToCwd } from "../../../node_modules/@earendil-works/pi-coding-agent/dist/core/tools/path-utils.js";
import { resolveToolPath } from "../../../src/guard/index.ts";

describe("resolveToolPath (replica of Pi 1.6.0 resolveToCwd)", () => {
  it("resolves relative to cwd and normalises .. lexically", () => {
    expect(resolveToolPath("src/a.ts", "/p", "/home/u")).toBe("/p/src/a.ts");
    expect(resolveToolPath("docs/../src/a.ts", "/p", "/home/u")).toBe("/p/src/a.ts");
    expect(resolveToolPath("../q/a.ts", "/p", "/home/u")).toBe("/q/a.ts");
  });

  it("keeps absolute paths, strips one leading @, expands ~ and file:// URLs", () => {
    expect(resolveToolPath("/abs//x/./y", "/p", "/home/u")).toBe("/abs/x/y");
    expect(resolveToolPath("@src/a.ts", "/p", "/home/u")).toBe("/p/src/a.ts");
    expect(resolveToolPath("@@a", "/p", "/home/u")).toBe("/p/@a");
    expect(resolveToolPath("~", "/p", "/home/u")).toBe("/home/u");
    expect(resolveToolPath("~/n.md", "/p", "/home/u")).toBe(join("/home/u", "n.md"));
    expect(resolveToolPath("~x", "/p", "/home/u")).toBe("/p/~x");
    expect(resolveToolPath("file:///etc/hosts", "/p", "/home/u")).toBe("/etc/hosts");
  });

  it("turns Unicode spaces into plain spaces, as Pi does", () => {
    expect(resolveToolPath("a\u00A0b.txt", "/p", "/home/u")).toBe("/p/a b.txt");
  });
});

describe("resolveToolPath against Pi's own resolveToCwd", () => {
  it("agrees on every form above, so a Pi upgrade that changes path rules fails here", () => {
    const home = homedir();
    for (const input of ["src/a.ts", "docs/../src/a.ts", "../q/a.ts", "/abs//x/./y", "@src/a.ts", "@@a", "~", "~/n.md", "~x", "file:///etc/hosts", "a\u00A0b.txt", "a\u2003b"]) {
      expect(resolveToolPath(input, "/p", home), input).toBe(resolveToCwd(input, "/p"));
    }
  });
});
