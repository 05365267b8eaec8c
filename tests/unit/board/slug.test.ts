import { describe, expect, it } from "vitest";
import { MAX_ID_LENGTH, allocateTaskId, slugify, uniqueTaskId } from "../../../src/board/index.ts";
import { add, newBoard } from "./fixture.ts";

describe("slugify", () => {
  it.each([
    ["Fix auth middleware findings", "fix-auth-middleware-findings"],
    ["  Über café: résumé!  ", "uber-cafe-resume"],
    ["API v2 -- rate/limit (p99)", "api-v2-rate-limit-p99"],
    ["日本語だけ", "task"],
    ["!!!", "task"],
    ["", "task"],
  ])("%j → %j", (subject, slug) => {
    expect(slugify(subject)).toBe(slug);
  });

  it("cuts long subjects to 48 chars at a word boundary", () => {
    const slug = slugify("Refactor the authentication middleware so that every handler validates tokens");
    expect(slug.length).toBeLessThanOrEqual(MAX_ID_LENGTH);
    expect(slug).toBe("refactor-the-authentication-middleware-so-that");
    expect(slug.endsWith("-")).toBe(false);
  });

  it("cuts mid-word when the only boundary is too early", () => {
    const slug = slugify(`a ${"x".repeat(80)}`);
    expect(slug).toBe(`a-${"x".repeat(46)}`);
  });
});

describe("task id clashes", () => {
  it("appends -2, -3 on clashes", () => {
    const board = newBoard();
    expect(add(board, "Fix auth").id).toBe("fix-auth");
    expect(add(board, "Fix auth").id).toBe("fix-auth-2");
    expect(add(board, "fix  AUTH!").id).toBe("fix-auth-3");
  });

  it("skips a suffix already used as another subject's slug", () => {
    const board = newBoard();
    add(board, "Foo 2");
    add(board, "Foo");
    expect(add(board, "Foo").id).toBe("foo-3");
  });

  it("keeps suffixed ids within 48 chars", () => {
    const board = newBoard();
    const subject = "y".repeat(60);
    const ids = [add(board, subject).id, add(board, subject).id, ...Array.from({ length: 9 }, () => add(board, subject).id)];
    for (const id of ids) expect(id.length).toBeLessThanOrEqual(MAX_ID_LENGTH);
    expect(ids[1]).toBe(`${"y".repeat(46)}-2`);
    expect(ids[10]).toBe(`${"y".repeat(45)}-11`);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("does not burn a suffix on a rejected create", () => {
    const board = newBoard();
    add(board, "Fix auth");
    const rejected = (board: ReturnType<typeof newBoard>) => add(board, { subject: "Fix auth", dependsOn: ["missing"] });
    expect(() => rejected(board)).toThrow(/unknown_ref/);
    expect(add(board, "Fix auth").id).toBe("fix-auth-2");
  });

  it("allocateTaskId starts at the hinted suffix", () => {
    const taken = new Set(["a", "a-2", "a-3"]);
    expect(allocateTaskId("A", (id) => taken.has(id))).toEqual({ id: "a-4", base: "a", next: 5 });
    expect(allocateTaskId("A", (id) => taken.has(id), new Map([["a", 7]])).id).toBe("a-7");
    expect(uniqueTaskId("B", (id) => taken.has(id))).toBe("b");
  });
});
