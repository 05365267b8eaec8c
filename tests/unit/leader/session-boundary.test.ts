import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { describe, expect, it } from "vitest";
import {
  announceStopNotice,
  endStopText,
  leaveStopNotice,
  startSweep,
  stopNoticeLeaderText,
  stopNoticePath,
  stopNoticeUserText,
  takeStopNotice,
  type StopNotice,
} from "../../../src/leader/session-boundary.ts";
import { modeOf, useTempDirs } from "../store/tmp.ts";

const tempDir = useTempDirs();

const notice = (reason: StopNotice["reason"], teammates = ["alice", "bob"]): StopNotice => ({ v: 1, pid: process.pid, reason, at: 1, teammates });

describe("stop notice handoff", () => {
  it("the old instance leaves who it stopped; the next one in the process takes it once", async () => {
    const agent = await tempDir();
    expect(await leaveStopNotice({ agentDir: agent, reason: "reload", teammates: ["alice", "bob"], now: () => 7 })).toBeUndefined();
    const path = stopNoticePath(agent);
    expect(path).toBe(`${agent}/teammate/.stopped-${process.pid}.json`);
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual({ v: 1, pid: process.pid, reason: "reload", at: 7, teammates: ["alice", "bob"] });
    expect(await modeOf(path)).toBe(0o600);
    expect(await takeStopNotice(agent, "reload")).toEqual({ notice: { v: 1, pid: process.pid, reason: "reload", at: 7, teammates: ["alice", "bob"] } });
    expect(existsSync(path)).toBe(false);
    expect(await takeStopNotice(agent, "reload")).toEqual({});
  });

  it("leaves nothing on quit or when nobody was stopped", async () => {
    const agent = await tempDir();
    await leaveStopNotice({ agentDir: agent, reason: "quit", teammates: ["alice"] });
    await leaveStopNotice({ agentDir: agent, reason: "new", teammates: [] });
    expect(existsSync(stopNoticePath(agent))).toBe(false);
  });

  it("a notice found at startup, or for another boundary, is stale: removed, not announced", async () => {
    const agent = await tempDir();
    await leaveStopNotice({ agentDir: agent, reason: "reload", teammates: ["alice"] });
    expect(await takeStopNotice(agent, "startup")).toEqual({});
    expect(existsSync(stopNoticePath(agent))).toBe(false);
    await leaveStopNotice({ agentDir: agent, reason: "new", teammates: ["alice"] });
    expect(await takeStopNotice(agent, "reload")).toEqual({});
    expect(existsSync(stopNoticePath(agent))).toBe(false);
  });

  it("an unreadable notice is removed and reported as a problem (never silently dropped)", async () => {
    const agent = await tempDir();
    await mkdir(`${agent}/teammate`, { recursive: true });
    await writeFile(stopNoticePath(agent), '{"v": 1, "teammates": []}');
    const taken = await takeStopNotice(agent, "reload");
    expect(taken.notice).toBeUndefined();
    expect(taken.problem).toMatch(/^stop notice .*\.stopped-\d+\.json: /);
    expect(existsSync(stopNoticePath(agent))).toBe(false);
  });

  it("says what could not be written instead of failing the shutdown", async () => {
    const agent = await tempDir();
    await writeFile(`${agent}/teammate`, "a file where the dir should be");
    const unsaid = await leaveStopNotice({ agentDir: agent, reason: "reload", teammates: ["alice"] });
    expect(unsaid).toMatch(/^pi-resident-teams: \/reload stopped 1 teammate: @alice \(the note for the next session could not be written: /);
  });
});

describe("stop notice texts", () => {
  it("after a reload both the user and the leader's model are told, naming the teammates", () => {
    expect(stopNoticeUserText(notice("reload"))).toBe(
      "pi-resident-teams: /reload stopped 2 teammates: @alice, @bob. A running teammate cannot be handed over to the reloaded extension, so it was shut down; tasks it held are pending again. Ask for them again (teammate_spawn) if still needed.",
    );
    const leader = stopNoticeLeaderText(notice("reload"))!;
    expect(leader).toMatch(/^<harness-event type="teammates_stopped" teammate="alice,bob">/);
    expect(leader).toContain("shut down every teammate: @alice, @bob");
    expect(leader).toContain("spawn them again with teammate_spawn");
  });

  it("after /new, /resume or /fork only the user is told (nothing of the old session reaches the new model, L29)", () => {
    for (const reason of ["new", "resume", "fork"] as const) {
      expect(stopNoticeUserText(notice(reason, ["alice"]))).toBe(
        `pi-resident-teams: /${reason} stopped 1 teammate: @alice of the previous session. Teammates belong to the session that spawned them.`,
      );
      expect(stopNoticeLeaderText(notice(reason))).toBeUndefined();
    }
  });
});

describe("endStopText", () => {
  it("at the session's end names whom it stopped, in one line; nothing when nobody was", () => {
    expect(endStopText(["ada", "bo"])).toBe("pi-resident-teams: the session ended and stopped 2 teammates: @ada, @bo");
    expect(endStopText(["ada"])).toBe("pi-resident-teams: the session ended and stopped 1 teammate: @ada");
    expect(endStopText([])).toBeUndefined();
  });
});

describe("announceStopNotice", () => {
  const fakes = () => {
    const notified: [string, string | undefined][] = [];
    const sent: { message: Record<string, unknown>; options: unknown }[] = [];
    const ctx = { ui: { notify: (m: string, t?: string) => notified.push([m, t]) } } as unknown as ExtensionContext;
    const pi = { sendMessage: (message: Record<string, unknown>, options: unknown) => sent.push({ message, options }) } as unknown as ExtensionAPI;
    return { notified, sent, ctx, pi };
  };

  it("a reload: a warning to the user and a next-turn message to the leader", () => {
    const f = fakes();
    announceStopNotice(f.pi, f.ctx, { notice: notice("reload") }, "harness-event");
    expect(f.notified).toEqual([[stopNoticeUserText(notice("reload")), "warning"]]);
    expect(f.sent).toEqual([{
      message: { customType: "harness-event", content: stopNoticeLeaderText(notice("reload")), display: true, details: { type: "teammates_stopped", teammates: ["alice", "bob"], reason: "reload" } },
      options: { deliverAs: "nextTurn" },
    }]);
  });

  it("a /new: the user only; nothing at all without a notice; a problem is shown", () => {
    const f = fakes();
    announceStopNotice(f.pi, f.ctx, { notice: notice("new") }, "harness-event");
    announceStopNotice(f.pi, f.ctx, {}, "harness-event");
    announceStopNotice(f.pi, f.ctx, { problem: "stop notice x: bad" }, "harness-event");
    expect(f.notified).toEqual([[stopNoticeUserText(notice("new")), "warning"], ["pi-resident-teams: stop notice x: bad", "warning"]]);
    expect(f.sent).toEqual([]);
  });

  it("never throws, even when the stale ctx does", () => {
    const ctx = { ui: { notify: () => { throw new Error("stale ctx"); } } } as unknown as ExtensionContext;
    expect(() => announceStopNotice({} as ExtensionAPI, ctx, { notice: notice("reload") }, "harness-event")).not.toThrow();
  });
});

describe("startSweep", () => {
  it("writes what it swept to the note sink only", async () => {
    const agent = await tempDir();
    await mkdir(`${agent}/teammate/aaaaaaaaaaaaaaaa`, { recursive: true });
    const dead = spawnSync(process.execPath, ["-e", ""]).pid; // exited: surely not alive
    await writeFile(`${agent}/teammate/aaaaaaaaaaaaaaaa/leader.lock`, String(dead));
    const notes: string[] = [];
    await startSweep({ agentDir: agent, ownKey: "0000000000000000", note: (t) => notes.push(t) });
    expect(notes).toEqual([`swept teammate/aaaaaaaaaaaaaaaa: its leader (pid ${dead}) is gone`]);
  });
});
