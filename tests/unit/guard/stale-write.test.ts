import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { checkStaleWrite, FileVersions, hashContent } from "../../../src/guard/index.ts";

const h = (s: string) => hashContent(s);
const seen = (s: string, whole = true) => ({ hash: h(s), whole });

describe("hashContent", () => {
  it("is the sha256 of the UTF-8 bytes, so a string and the file's bytes agree", () => {
    expect(h("héllo")).toBe(createHash("sha256").update(Buffer.from("héllo", "utf8")).digest("hex"));
    expect(hashContent(Buffer.from("héllo", "utf8"))).toBe(h("héllo"));
  });
});

describe("checkStaleWrite", () => {
  it("passes a new file, seen or not", () => {
    expect(checkStaleWrite({ display: "a.ts", disk: { kind: "absent" }, known: undefined })).toEqual({ ok: true });
    expect(checkStaleWrite({ display: "a.ts", disk: { kind: "absent" }, known: seen("x") })).toEqual({ ok: true });
  });

  it("passes an existing file whose content is the one last seen", () => {
    expect(checkStaleWrite({ display: "a.ts", disk: { kind: "present", hash: h("x") }, known: seen("x") })).toEqual({ ok: true });
  });

  it("blocks an existing file never read, saying to read it first", () => {
    expect(checkStaleWrite({ display: "src/a.ts", disk: { kind: "present", hash: h("x") }, known: undefined })).toEqual({
      ok: false,
      reason: "never_read",
      message:
        "write blocked: src/a.ts already exists and you have not read it. Read it first, then write it, or use edit for a targeted change. " +
        "A whole-file write over content you have not seen can erase another teammate's edits.",
    });
  });

  it("blocks a file changed since last seen, saying to re-read it", () => {
    expect(checkStaleWrite({ display: "src/a.ts", disk: { kind: "present", hash: h("theirs") }, known: seen("mine") })).toEqual({
      ok: false,
      reason: "stale",
      message:
        "write blocked: src/a.ts changed on disk since you last read or wrote it (another teammate or process edited it). " +
        "Re-read it first, then apply your change to the current content (or use edit for a targeted change).",
    });
  });

  it("blocks a file seen only in part, saying to read it whole or use edit", () => {
    expect(checkStaleWrite({ display: "notes.md", disk: { kind: "present", hash: h("x") }, known: seen("x", false) })).toEqual({
      ok: false,
      reason: "partial",
      message:
        "write blocked: you have read only part of notes.md (a read with offset/limit, or one Pi cut short at its output limit), " +
        "and a whole-file write would erase the lines you have not seen. Read the whole file first (read without offset/limit), " +
        "or use edit for a targeted change; for a file too large for one read, use edit.",
    });
  });

  it("calls a partly read file that changed since stale, not partial", () => {
    expect(checkStaleWrite({ display: "a", disk: { kind: "present", hash: h("theirs") }, known: seen("mine", false) })).toMatchObject({ ok: false, reason: "stale" });
  });

  it("fails closed when the file cannot be read to tell", () => {
    const v = checkStaleWrite({ display: "d", disk: { kind: "unreadable", message: "EISDIR: illegal operation on a directory" }, known: seen("x") });
    expect(v).toMatchObject({ ok: false, reason: "unreadable" });
    if (!v.ok) expect(v.message).toBe("write blocked: cannot read d to check that it is unchanged since you last read it (EISDIR: illegal operation on a directory). Nothing was written. Read the file first, or fix the cause.");
  });
});

describe("FileVersions", () => {
  it("records a read's hash taken before it ran, only when the read did not fail", () => {
    const v = new FileVersions();
    v.begin("r1", { tool: "read", path: "/p/a", hash: h("a"), whole: true });
    v.begin("r2", { tool: "read", path: "/p/b", hash: h("b"), whole: true });
    expect(v.settle("r2", { isError: true })).toEqual({ kind: "none" });
    expect(v.settle("r1", { isError: false })).toEqual({ kind: "recorded", path: "/p/a", hash: h("a"), whole: true });
    expect(v.known("/p/a")).toEqual(seen("a"));
    expect(v.known("/p/b")).toBeUndefined();
    expect(v.pendingCount).toBe(0);
  });

  it("keeps parallel calls apart by toolCallId, settled in any order", () => {
    const v = new FileVersions();
    v.begin("1", { tool: "read", path: "/p/a", hash: h("a1"), whole: true });
    v.begin("2", { tool: "write", path: "/p/b" });
    v.begin("3", { tool: "edit", path: "/p/c" });
    expect(v.settle("3", { isError: false })).toEqual({ kind: "read_back", path: "/p/c" });
    expect(v.settle("2", { isError: false, writtenContent: "b2" })).toEqual({ kind: "recorded", path: "/p/b", hash: h("b2"), whole: true });
    expect(v.settle("1", { isError: false })).toMatchObject({ kind: "recorded", path: "/p/a" });
    expect([v.known("/p/a"), v.known("/p/b"), v.known("/p/c")]).toEqual([seen("a1"), seen("b2"), undefined]);
  });

  it("records a successful write's content and nothing for a failed one", () => {
    const v = new FileVersions();
    v.record("/p/a", h("old"));
    v.begin("w", { tool: "write", path: "/p/a" });
    expect(v.settle("w", { isError: true, writtenContent: "new" })).toEqual({ kind: "none" });
    expect(v.known("/p/a")).toEqual(seen("old"));
  });

  it("forgets a path whose write result carries no content", () => {
    const v = new FileVersions();
    v.record("/p/a", h("old"));
    v.begin("w", { tool: "write", path: "/p/a" });
    expect(v.settle("w", { isError: false })).toEqual({ kind: "none" });
    expect(v.known("/p/a")).toBeUndefined();
  });

  it("records a read as whole only when it asked for the whole file and was not truncated", () => {
    const v = new FileVersions();
    v.begin("1", { tool: "read", path: "/p/a", hash: h("a"), whole: false });
    v.begin("2", { tool: "read", path: "/p/b", hash: h("b"), whole: true });
    v.begin("3", { tool: "read", path: "/p/c", hash: h("c"), whole: true });
    expect(v.settle("1", { isError: false })).toEqual({ kind: "recorded", path: "/p/a", hash: h("a"), whole: false });
    expect(v.settle("2", { isError: false, truncated: true })).toEqual({ kind: "recorded", path: "/p/b", hash: h("b"), whole: false });
    expect(v.settle("3", { isError: false, truncated: false })).toEqual({ kind: "recorded", path: "/p/c", hash: h("c"), whole: true });
    expect([v.known("/p/a"), v.known("/p/b"), v.known("/p/c")]).toEqual([seen("a", false), seen("b", false), seen("c")]);
  });

  it("keeps a whole version through a partial read of the same content, not of changed content", () => {
    const v = new FileVersions();
    v.record("/p/a", h("a"));
    v.begin("1", { tool: "read", path: "/p/a", hash: h("a"), whole: false });
    expect(v.settle("1", { isError: false })).toMatchObject({ whole: true });
    expect(v.known("/p/a")).toEqual(seen("a"));
    v.begin("2", { tool: "read", path: "/p/a", hash: h("a2"), whole: false });
    v.settle("2", { isError: false });
    expect(v.known("/p/a")).toEqual(seen("a2", false));
  });

  it("ignores truncated for a write", () => {
    const v = new FileVersions();
    v.begin("w", { tool: "write", path: "/p/a" });
    expect(v.settle("w", { isError: false, writtenContent: "x", truncated: true })).toEqual({ kind: "recorded", path: "/p/a", hash: h("x"), whole: true });
  });

  it("ignores unknown ids and drops discarded calls", () => {
    const v = new FileVersions();
    expect(v.settle("nope", { isError: false })).toEqual({ kind: "none" });
    v.begin("b", { tool: "read", path: "/p/a", hash: h("a"), whole: true });
    v.discard("b");
    expect(v.pendingCount).toBe(0);
    expect(v.settle("b", { isError: false })).toEqual({ kind: "none" });
    expect(v.known("/p/a")).toBeUndefined();
  });
});
