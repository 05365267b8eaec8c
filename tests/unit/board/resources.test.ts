import { describe, expect, it } from "vitest";
import { normalizeResource, resourcesOverlap } from "../../../src/board/index.ts";
import {
  createHeldResources,
  findHeldConflict,
  holdResources,
  overlapsHeld,
  releaseResources,
} from "../../../src/board/resources.ts";

describe("resourcesOverlap (R50)", () => {
  it.each([
    ["a/b", "a/b", true],
    ["a/b", "a/b/c", true],
    ["a/b/c", "a/b", true],
    ["a", "a/b/c/d", true],
    ["a/b", "a/bc", false],
    ["a/bc", "a/b", false],
    ["ab", "a", false],
    ["a/b", "b", false],
    ["a/b/c", "a/b/d", false],
    ["packages/api", "packages/api-client", false],
    ["packages/api", "packages/api/auth", true],
  ])("%s vs %s → %s", (a, b, expected) => {
    expect(resourcesOverlap(a, b)).toBe(expected);
  });
});

describe("normalizeResource", () => {
  it.each([
    ["./packages/api/", "packages/api"],
    ["packages//api///auth", "packages/api/auth"],
    ["packages\\api", "packages/api"],
    ["  src  ", "src"],
  ])("%j → %j", (raw, tag) => {
    expect(normalizeResource(raw)).toEqual({ ok: true, tag });
  });

  it.each(["", "   ", "/etc/passwd", "C:/x", "~/x", "../up", "a/../b", "a/./b", "src/*.ts", "a/{b,c}", "a?"])("rejects %j naming it", (raw) => {
    const r = normalizeResource(raw);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain(JSON.stringify(raw));
  });
});

describe("held resource index", () => {
  it("answers ancestor, equal and descendant overlaps, never siblings", () => {
    const index = createHeldResources();
    holdResources(index, ["a/b"], { name: "alice", taskId: "t1" });
    expect(overlapsHeld(index, ["a/b"])).toBe(true);
    expect(overlapsHeld(index, ["a/b/c"])).toBe(true);
    expect(overlapsHeld(index, ["a"])).toBe(true);
    expect(overlapsHeld(index, ["a/bc"])).toBe(false);
    expect(overlapsHeld(index, ["b"])).toBe(false);
    expect(findHeldConflict(index, ["x", "a"])).toEqual({ tag: "a", heldTag: "a/b", owners: [{ name: "alice", taskId: "t1" }] });
  });

  it("counts shared tags per owner and releases exactly one owner", () => {
    const index = createHeldResources();
    holdResources(index, ["a/b/c"], { name: "alice", taskId: "t1" });
    holdResources(index, ["a/b/c"], { name: "bob", taskId: "t2" });
    releaseResources(index, ["a/b/c"], { name: "alice", taskId: "t1" });
    expect(overlapsHeld(index, ["a"])).toBe(true);
    expect(findHeldConflict(index, ["a/b/c"])?.owners).toEqual([{ name: "bob", taskId: "t2" }]);
    releaseResources(index, ["a/b/c"], { name: "bob", taskId: "t2" });
    expect(overlapsHeld(index, ["a"])).toBe(false);
    expect(index.exact.size + index.below.size).toBe(0);
  });

  it("ignores the release of something not held", () => {
    const index = createHeldResources();
    holdResources(index, ["a/b"], { name: "alice", taskId: "t1" });
    releaseResources(index, ["a/b"], { name: "bob", taskId: "t1" });
    releaseResources(index, ["zzz/q"], { name: "alice", taskId: "t1" });
    expect(overlapsHeld(index, ["a/b/c"])).toBe(true);
  });
});
