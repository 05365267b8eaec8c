import { describe, expect, it } from "vitest";
import { checkHardLinks, checkResourceGuard, chooseHoldings, LAST_KNOWN_NOTE, othersHoldings, pathUnderTag, projectRelative, type Holding } from "../../../src/guard/index.ts";
import type { RosterFile } from "../../../src/mail/index.ts";

const roster: RosterFile = {
  v: 1,
  updatedAt: 1,
  teammates: [
    { name: "alice", agent: "w", spawnId: "s-1", status: "working", tools: [], holds: [{ tag: "mine", taskId: "t-0" }] },
    { name: "bob", agent: "w", spawnId: "s-2", status: "working", tools: [], holds: [{ tag: "src/api/", taskId: "t-3" }, { tag: "./docs" }] },
    { name: "carol", agent: "w", spawnId: "s-3", status: "stopped", tools: [], holds: [{ tag: "src", taskId: "t-9" }] },
    { name: "dave", agent: "w", spawnId: "s-4", status: "idle", tools: [], holds: [{ tag: "../escape" }, { tag: "lib" }] },
    { name: "erin", agent: "w", spawnId: "s-5", status: "starting", tools: [] },
  ],
};

describe("othersHoldings", () => {
  it("lists the normalised tags of other living teammates, in roster order, with their task ids", () => {
    expect(othersHoldings(roster, "alice")).toEqual([
      { holder: "bob", tag: "src/api", taskId: "t-3" },
      { holder: "bob", tag: "docs" },
      { holder: "dave", tag: "lib" },
    ]);
  });

  it("leaves out the teammate itself, compared case-insensitively, and stopped teammates", () => {
    const holders = othersHoldings(roster, "BOB").map((h) => h.holder);
    expect(holders).toEqual(["alice", "dave"]);
  });

  it("skips a tag that does not normalise instead of throwing", () => {
    expect(othersHoldings(roster, "alice").some((h) => h.tag.includes(".."))).toBe(false);
  });
});

describe("pathUnderTag", () => {
  it.each([
    ["a/b", "a/b", true],
    ["a/b/c", "a/b", true],
    ["a/b/c/d.ts", "a/b", true],
    ["a/bc", "a/b", false],
    ["a/bc/d", "a/b", false],
    ["a", "a/b", false],
    ["b/a/b", "a/b", false],
  ])("%s under %s is %s", (path, tag, expected) => {
    expect(pathUnderTag(path, tag)).toBe(expected);
  });
});

describe("projectRelative", () => {
  it("gives a /-separated path inside the root and undefined for the root itself or outside it", () => {
    expect(projectRelative("/p", "/p/src/a.ts")).toBe("src/a.ts");
    expect(projectRelative("/p", "/p/..x/a")).toBe("..x/a");
    expect(projectRelative("/p", "/p")).toBeUndefined();
    expect(projectRelative("/p", "/q/a")).toBeUndefined();
    expect(projectRelative("/p", "/pq/a")).toBeUndefined();
  });
});

describe("checkResourceGuard", () => {
  const holdings: Holding[] = [
    { holder: "bob", tag: "src/api", taskId: "t-3" },
    { holder: "dave", tag: "docs" },
  ];

  it("blocks a path under a held tag and names file, tag, holder, task and how to coordinate", () => {
    const v = checkResourceGuard({ tool: "edit", display: "src/api/auth.ts", paths: ["src/api/auth.ts"], holdings });
    expect(v).toEqual({
      ok: false,
      holding: holdings[0],
      message:
        'edit blocked: src/api/auth.ts is inside resource "src/api", which teammate "bob" holds for task t-3. ' +
        'Coordinate first: send_message to "bob" (ask it to make the change, or to tell you when it is done), ' +
        'or wait until "bob" releases "src/api". Do not work around this with bash or another tool.',
    });
  });

  it("names a direct assignment as such", () => {
    const v = checkResourceGuard({ tool: "write", display: "docs/x.md", paths: ["docs/x.md"], holdings });
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.message).toContain('write blocked: docs/x.md is inside resource "docs", which teammate "dave" holds for its direct assignment.');
  });

  it("blocks when any form of the target is guarded (e.g. only the symlink-resolved one)", () => {
    expect(checkResourceGuard({ tool: "edit", display: "link/a.ts", paths: ["link/a.ts", "src/api/a.ts"], holdings }).ok).toBe(false);
  });

  it("passes a sibling with a common prefix, an unguarded path, and a target outside the project", () => {
    expect(checkResourceGuard({ tool: "edit", display: "src/apix/a.ts", paths: ["src/apix/a.ts"], holdings }).ok).toBe(true);
    expect(checkResourceGuard({ tool: "edit", display: "src/a.ts", paths: ["src/a.ts"], holdings }).ok).toBe(true);
    expect(checkResourceGuard({ tool: "write", display: "/tmp/x", paths: [], holdings }).ok).toBe(true);
  });

  it("says so when the holdings are the last valid ones", () => {
    const v = checkResourceGuard({ tool: "edit", display: "docs/a.md", paths: ["docs/a.md"], holdings, fromLastKnown: true });
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.message.endsWith(` ${LAST_KNOWN_NOTE}`)).toBe(true);
    expect(LAST_KNOWN_NOTE).toBe("(roster.json cannot be read right now, so this uses the holdings it last showed; if the holder is done, tell the leader.)");
  });

  it("passes everything when nobody else holds anything", () => {
    expect(checkResourceGuard({ tool: "write", display: "src/api/a.ts", paths: ["src/api/a.ts"], holdings: [] })).toEqual({ ok: true });
  });
});

describe("chooseHoldings", () => {
  const bad = { ok: false as const, message: "roster /r/roster.json is not valid JSON" };

  it("uses and remembers a valid roster's holdings", () => {
    const c = chooseHoldings({ ok: true, roster }, "alice", undefined);
    expect(c).toEqual({ holdings: othersHoldings(roster, "alice"), last: othersHoldings(roster, "alice"), fromLastKnown: false });
  });

  it("fails open with a note before any valid roster was seen", () => {
    expect(chooseHoldings(bad, "alice", undefined)).toEqual({
      holdings: [],
      last: undefined,
      fromLastKnown: false,
      note: "[edit-guards] resource holdings not checked (fail open, the board still enforces claims): roster /r/roster.json is not valid JSON",
    });
  });

  it("keeps the last valid holdings once one was seen (fails closed), with a note", () => {
    const last: Holding[] = [{ holder: "bob", tag: "src/api", taskId: "t-3" }];
    expect(chooseHoldings(bad, "alice", last)).toEqual({
      holdings: last,
      last,
      fromLastKnown: true,
      note: "[edit-guards] roster.json cannot be read, using the holdings it last showed: roster /r/roster.json is not valid JSON",
    });
  });

  it("lets a valid roster replace the remembered holdings, also with none", () => {
    const empty = { ...roster, teammates: roster.teammates.map((t) => ({ ...t, holds: [] })) };
    expect(chooseHoldings({ ok: true, roster: empty }, "alice", [{ holder: "bob", tag: "x" }])).toEqual({ holdings: [], last: [], fromLastKnown: false });
  });
});

describe("checkHardLinks", () => {
  it("passes a missing target, a non-file and a file with one link", () => {
    for (const links of [undefined, 0, 1]) expect(checkHardLinks({ tool: "write", display: "a.ts", links })).toEqual({ ok: true });
  });

  it("refuses a file with more than one link, naming the path, the count and why", () => {
    const v = checkHardLinks({ tool: "edit", display: "src/free/copy.ts", links: 2 });
    expect(v.ok).toBe(false);
    expect(!v.ok && v.message).toBe(
      "edit blocked: src/free/copy.ts has 2 hard links, so the same file also exists under another name (a resource another teammate holds, the team's state, another tree), " +
        "and a change here would change it there without the edit guards seeing it. Nothing was changed. " +
        "Write your change to a new file, or tell the leader (send_message) which file needs it. Do not work around this with bash or another tool.",
    );
  });
});
