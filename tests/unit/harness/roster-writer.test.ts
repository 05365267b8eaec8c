import { mkdtemp, readFile, rm, truncate } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RosterWriter } from "../../../src/harness/roster-writer.ts";
import type { Member } from "../../../src/team/member.ts";

/** Only the fields the roster shows are read. */
function member(name: string, status: string): Member {
  return { name, agent: { name: "worker" }, spawnId: `${name}-spawn`, status, living: true, tools: ["read"], modelLabel: "m" } as unknown as Member;
}

describe("RosterWriter: writes only what changed (L24)", () => {
  let dir = "";
  let path = "";
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "roster-writer-"));
    path = join(dir, "roster.json");
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("leaves the file alone when the teammates look the same, even if something else damaged it", async () => {
    const writer = new RosterWriter(path, () => 1);
    await writer.write([member("ada", "idle")]);
    await truncate(path, 10);
    await writer.write([member("ada", "idle")]);
    expect((await readFile(path, "utf8")).length).toBe(10);
  });

  it("writes again on a change, with the time of the change", async () => {
    let now = 1;
    const writer = new RosterWriter(path, () => now);
    await writer.write([member("ada", "idle")]);
    now = 2;
    await writer.write([member("ada", "idle")]);
    expect(JSON.parse(await readFile(path, "utf8"))).toMatchObject({ updatedAt: 1 });
    await truncate(path, 10);
    now = 3;
    await writer.write([member("ada", "working")]);
    expect(JSON.parse(await readFile(path, "utf8"))).toMatchObject({ updatedAt: 3, teammates: [{ name: "ada", status: "working" }] });
  });


  it("hands each changed roster to `changed` before writing it, and an unchanged one to no one", async () => {
    const writer = new RosterWriter(path, () => 1);
    const seen: string[][] = [];
    const changed = (r: { teammates: Array<{ status: string }> }) => void seen.push(r.teammates.map((t) => t.status));
    await writer.write([member("ada", "idle")], undefined, changed);
    await writer.write([member("ada", "idle")], undefined, changed);
    await writer.write([member("ada", "working")], undefined, changed);
    expect(seen).toEqual([["idle"], ["working"]]);
  });

  it("lists the pairs the peer-pair cap cut, rewrites when they change, and omits the field when none (W19)", async () => {
    let now = 1;
    const writer = new RosterWriter(path, () => now);
    const read = async () => JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
    await writer.write([member("ada", "idle"), member("bo", "idle")]);
    expect(await read()).not.toHaveProperty("peerCuts");
    now = 2;
    await writer.write([member("ada", "idle"), member("bo", "idle")], undefined, undefined, [{ between: ["ada", "bo"], count: 40 }]);
    expect(await read()).toMatchObject({ updatedAt: 2, peerCuts: [{ between: ["ada", "bo"], count: 40 }] });
    now = 3;
    await writer.write([member("ada", "idle"), member("bo", "idle")]);
    expect(await read()).toMatchObject({ updatedAt: 3 });
    expect(await read()).not.toHaveProperty("peerCuts");
  });
});
