/**
 * references/contract.md keeps up with the repo: every R/L/W tag cited in the code, tests,
 * features and docs has an entry there, so a reader of the repo alone can look each one up.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CONTRACT = "references/contract.md";
/** This file: its tags are examples of the pattern, not citations. */
const SELF = "tests/unit/contract.test.ts";
/** Where tags are cited, relative to the repo root. */
const SCANNED = ["index.ts", "README.md", "CONTRIBUTING.md", "src", "tests", "features", "references", "docs", "bench", "demo", "scripts"];
const TEXT_FILES = new Set([".ts", ".mts", ".mjs", ".js", ".md", ".feature"]);
const SKIPPED_DIRS = new Set(["node_modules", ".git", ".tmp"]);

/** One tag: R, L or W and 1 to 99, not part of a longer word ("W3C", "R2D2", "XL7" are no tags). */
const TAG = /(?<![A-Za-z0-9_])([RLW])([1-9][0-9]?)(?![A-Za-z0-9_])/g;
/** A range, "R13–R20", "R10-R12" or "L25–26" (no spaces): it cites every number in it. */
const RANGE = /(?<![A-Za-z0-9_])([RLW])([1-9][0-9]?)[–-]\1?([1-9][0-9]?)(?![A-Za-z0-9_])/g;
/** An entry of the contract: a list item starting with its bold tag, `- **R24** ...`. */
const ENTRY = /^- \*\*([RLW][1-9][0-9]?)\*\*/gm;

/** The tags one line cites: the single tags in order, then the numbers inside its ranges. */
function citedTags(line: string): string[] {
  const tags = new Set<string>();
  for (const m of line.matchAll(TAG)) tags.add(`${m[1]}${m[2]}`);
  for (const m of line.matchAll(RANGE)) {
    const from = Number(m[2]);
    const to = Number(m[3]);
    for (let n = from + 1; n <= to; n++) tags.add(`${m[1]}${n}`);
  }
  return [...tags];
}

/** The text files at `path` (a file or a dir, relative to the root), recursively. */
function textFiles(path: string): string[] {
  const abs = join(ROOT, path);
  if (!existsSync(abs)) return [];
  if (!statSync(abs).isDirectory()) return TEXT_FILES.has(extname(path)) ? [path] : [];
  return readdirSync(abs, { withFileTypes: true }).flatMap((e) => {
    if (e.isDirectory()) return SKIPPED_DIRS.has(e.name) ? [] : textFiles(join(path, e.name));
    return e.isFile() && TEXT_FILES.has(extname(e.name)) ? [join(path, e.name)] : [];
  });
}

/** Every citation in the scanned files except the contract and this file: `file:line` and the tag. */
function citations(): { where: string; tag: string }[] {
  const files = SCANNED.flatMap(textFiles).filter((f) => f !== CONTRACT && f !== SELF);
  return files.flatMap((file) =>
    readFileSync(join(ROOT, file), "utf8")
      .split("\n")
      .flatMap((line, i) => citedTags(line).map((tag) => ({ where: `${file}:${i + 1}`, tag }))),
  );
}

function entries(): string[] {
  return [...readFileSync(join(ROOT, CONTRACT), "utf8").matchAll(ENTRY)].map((m) => m[1] ?? "");
}

describe("citedTags", () => {
  it("finds tags at word boundaries only", () => {
    expect(citedTags("(R24, L7, W13) and L3: the R2 guidance")).toEqual(["R24", "L7", "W13", "L3", "R2"]);
    expect(citedTags("W3C, R2D2, XL7, R0, R100, r24, L07, 2R5, R5_x")).toEqual([]);
  });
  it("expands ranges with an en dash or a hyphen", () => {
    expect(citedTags("Starts a teammate (R13–R16, R22)")).toEqual(["R13", "R16", "R22", "R14", "R15"]);
    expect(citedTags("R10-R12, L25–26")).toEqual(["R10", "R12", "L25", "R11", "L26"]);
    expect(citedTags("R2 - 3 items")).toEqual(["R2"]); // spaced: not a range
    expect(citedTags("R5–L7")).toEqual(["R5", "L7"]); // different letters: no range
  });
});

describe("references/contract.md", () => {
  it("has an entry for every tag cited in the repo", () => {
    const known = new Set(entries());
    const found = citations();
    // The scan itself works: it sees a citation we know is there.
    expect(found).toContainEqual({ where: expect.stringMatching(/^src\/team\/routing\.ts:\d+$/), tag: "R24" });
    const missing = found.filter((c) => !known.has(c.tag)).map((c) => `${c.where}: ${c.tag}`);
    expect(missing, `tags cited without an entry in ${CONTRACT}`).toEqual([]);
  });

  it("lists each number once", () => {
    const all = entries();
    expect(all.length).toBeGreaterThan(0);
    expect(all.filter((tag, i) => all.indexOf(tag) !== i)).toEqual([]);
  });
});
