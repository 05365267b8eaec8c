import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { livingNames, parseRoster, readRosterFile, ROSTER_FORMAT_VERSION, type RosterFile } from "../../../src/mail/index.ts";
import { SnapshotWriter } from "../../../src/store/index.ts";
import { useTempDirs } from "../store/tmp.ts";

const tempDir = useTempDirs();

const roster: RosterFile = {
  v: 1,
  updatedAt: 1_700_000_000_000,
  teammates: [
    { name: "alice", agent: "reviewer", spawnId: "s-1", status: "working", pid: 4242, tools: ["read", "bash"] },
    { name: "bob", agent: "worker", spawnId: "s-2", status: "stopped", tools: [] },
    { name: "carol", agent: "worker", spawnId: "s-3", status: "starting", tools: ["read"] },
    { name: "dave", agent: "worker", spawnId: "s-4", status: "idle", tools: [] },
  ],
};

describe("roster file", () => {
  it("is version 1 and parses a valid roster", () => {
    expect(ROSTER_FORMAT_VERSION).toBe(1);
    expect(parseRoster(roster)).toEqual({ ok: true, value: roster });
  });

  it("explains an invalid entry", () => {
    const bad = { ...roster, teammates: [{ ...roster.teammates[0], status: "dead" }] };
    expect(parseRoster(bad)).toEqual({
      ok: false,
      message: '/teammates/0/status is "dead"; expected one of "starting" | "working" | "idle" | "stopped"',
    });
  });

  it("accepts the optional holds (tag, optional task id) and explains a bad one", () => {
    const holding = { ...roster, teammates: [{ ...roster.teammates[0]!, holds: [{ tag: "src/api", taskId: "t-3" }, { tag: "docs" }] }] };
    expect(parseRoster(holding)).toEqual({ ok: true, value: holding });
    const bad = { ...roster, teammates: [{ ...roster.teammates[0]!, holds: [{ taskId: "t-3" }] }] };
    const checked = parseRoster(bad);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.message).toContain("/teammates/0/holds/0/tag");
  });

  it("lists living names (not stopped) in order, each once", () => {
    expect(livingNames(roster)).toEqual(["alice", "carol", "dave"]);
  });

  it("round-trips through the leader's snapshot writer and a worker's read", async () => {
    const path = join(await tempDir(), "roster.json");
    expect(await readRosterFile(path)).toMatchObject({ ok: false, reason: "missing" });
    await new SnapshotWriter().write(path, roster);
    expect(await readRosterFile(path)).toEqual({ ok: true, value: roster });
    await writeFile(path, "{");
    const broken = await readRosterFile(path);
    expect(broken).toMatchObject({ ok: false, reason: "unreadable" });
    if (!broken.ok) expect(broken.message).toContain(`roster ${path}`);
  });
});
