import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { TeamError } from "../../../src/errors.ts";
import {
  captureCommitArgs,
  isDirOfName,
  splitDirName,
  worktreeBranch,
  worktreeDirName,
} from "../../../src/isolation/worktree-naming.ts";
import { spawnIdOf } from "./git-fixture.ts";

const run = promisify(execFile);
const SPAWN = spawnIdOf("3f2a9c1e");

/** Asks git itself whether `branch` is a valid branch name; resolves to git's normalised name. */
async function checkRefFormat(branch: string): Promise<string> {
  return (await run("git", ["check-ref-format", "--branch", branch], { encoding: "utf8" })).stdout.trim();
}

/** Deterministic pseudo-random teammate names from the whole allowed alphabet, dot runs included. */
function sampleNames(count: number): string[] {
  const first = "abcXYZ";
  const rest = "aZ09._-...";
  let seed = 12345;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  return Array.from({ length: count }, () => {
    const length = 1 + next(64);
    let name = first[next(first.length)] ?? "a";
    while (name.length < length) name += rest[next(rest.length)] ?? "a";
    return name;
  });
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof TeamError ? error.code : `not a TeamError: ${String(error)}`;
  }
  return undefined;
}

describe("worktreeBranch", () => {
  it("is pi-team/<name lowercased>-<first 8 chars of the spawn id>", () => {
    expect(worktreeBranch("Alice", SPAWN)).toBe("pi-team/alice-3f2a9c1e");
    expect(worktreeDirName("Alice", SPAWN)).toBe("alice-3f2a9c1e");
  });

  it("collapses dot runs in the branch but keeps the dir name as the name", () => {
    expect(worktreeBranch("a..b", SPAWN)).toBe("pi-team/a.b-3f2a9c1e");
    expect(worktreeDirName("a..b", SPAWN)).toBe("a..b-3f2a9c1e");
  });

  it("gives names git accepts for edge-case teammate names", async () => {
    const names = ["a", "x.lock", "A.lock.lock", "a...", "b.", "c-", "d_", "e..lock", "f.-.g", "Q".repeat(64)];
    for (const name of names) {
      const branch = worktreeBranch(name, SPAWN);
      await expect(checkRefFormat(branch), name).resolves.toBe(branch);
    }
  });

  it("gives names git accepts for 60 sampled teammate names", async () => {
    const branches = sampleNames(60).map((name) => worktreeBranch(name, SPAWN));
    const checked = await Promise.all(branches.map((branch) => checkRefFormat(branch).catch((e: unknown) => `rejected: ${String(e)}`)));
    expect(checked).toEqual(branches);
  });

  it("refuses a name that is not a teammate name, and a spawn id with too few letters or digits", () => {
    for (const bad of ["", "1abc", "a b", "a/b", "a~b", "x".repeat(65)]) {
      expect(() => worktreeBranch(bad, SPAWN), bad).toThrow(TeamError);
    }
    expect(() => worktreeDirName("alice", "ab-cd")).toThrow(/fewer than 8 letters or digits/);
    expect(codeOf(() => worktreeBranch("a/b", SPAWN))).toBe("invalid_input");
  });
});

describe("dir names of a teammate", () => {
  it("matches every spawn of the same name, in any case, and nothing of a longer name", () => {
    expect(isDirOfName("alice-3f2a9c1e", "Alice")).toBe(true);
    expect(isDirOfName("alice-00000000", "alice")).toBe(true);
    expect(isDirOfName("a-b-3f2a9c1e", "a")).toBe(false);
    expect(isDirOfName("a-bcdefghi-3f2a9c1e", "a")).toBe(false);
    expect(isDirOfName("alice-3f2a9c1e.json", "alice")).toBe(false);
    expect(isDirOfName("alice-3f2a9c1", "alice")).toBe(false);
  });

  it("splits back into the lowercased name and the spawn suffix", () => {
    expect(splitDirName("a-b.c-3f2a9c1e")).toEqual({ name: "a-b.c", suffix: "3f2a9c1e" });
    expect(splitDirName("not a dir")).toBeUndefined();
  });
});

describe("capture commit arguments", () => {
  it("carry the fixed identity, no signing and no hooks", () => {
    const args = captureCommitArgs("msg");
    expect(args.join(" ")).toBe(
      "-c user.name=pi-resident-teams -c user.email=teammates@pi-resident-teams.invalid -c commit.gpgsign=false " +
        "commit --no-verify -m msg",
    );
  });
});
