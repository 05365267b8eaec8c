import { describe, expect, it } from "vitest";
import { feedCompaction } from "../../../src/feed/feed-hooks.ts";
import { TeamFeed } from "../../../src/feed/team-feed.ts";
import { TeamError } from "../../../src/errors.ts";
import { RpcCommandError } from "../../../src/process/index.ts";
import { CompactionWorld } from "../../support/compaction-world.ts";

describe("manual compaction", () => {
  it("compacts an idle teammate and answers with the status-bar line; the feed sees running then done", async () => {
    const w = new CompactionWorld(80);
    w.idle();
    expect(await w.compactor.compact(w.mate, "user")).toBe("@ada compacted: 150K → 32K tokens");
    expect(w.commands).toEqual(["compact"]);
    expect(w.infos).toEqual([
      { at: 1000, state: "running", by: "user" },
      { at: 1000, state: "done", by: "user", tokensBefore: 150_000, tokensAfter: 32_000 },
    ]);
    expect(w.notes).toEqual(["compacted context 150K → 32K (user)"]);
    expect("life" in w.mate.state && w.mate.state.life.compacting).toBe(false);
    expect(w.leaderTurns()).toEqual([]);
  });

  it("refuses a working teammate: nothing is sent to its child", async () => {
    const w = new CompactionWorld(80);
    w.working();
    expect(await w.compactor.compact(w.mate, "user")).toBe("@ada is working; not compacted (Pi would abort its run). Try again once it is idle.");
    expect(w.commands).toEqual([]);
    expect(w.infos).toEqual([]);
  });

  it("a refusal by Pi is a failure line with Pi's reason, and the held sends are released", async () => {
    const w = new CompactionWorld(80);
    w.idle();
    w.child.compact = () => new RpcCommandError("ada (pid 1)", "compact", "r3", "Nothing to compact (session too small)");
    w.child.hold = true;
    const line = w.compactor.compact(w.mate, "user");
    w.mail("while it compacts");
    expect(w.sends()).toEqual([]);
    w.release();
    expect(await line).toBe("@ada compaction failed: Nothing to compact (session too small)");
    await w.flush();
    expect(w.infos.at(-1)).toEqual({ at: 1000, state: "failed", by: "user", error: "Nothing to compact (session too small)" });
    expect(w.sends("wake")).toHaveLength(1);
    expect(w.leaderTurns()).toEqual([]);
  });

  it("a compaction Pi does not answer in time is aborted before the sends are released", async () => {
    const w = new CompactionWorld(80, 50);
    w.idle();
    w.child.compact = () => new TeamError("timeout", "ada: no response to compact (id r3) within 50 ms.");
    expect(await w.compactor.compact(w.mate, "user")).toBe("@ada compaction failed: ada: no response to compact (id r3) within 50 ms.");
    expect(w.commands).toEqual(["compact", "abort"]);
  });
});

describe("automatic compaction at an assignment boundary", () => {
  it("after a terminal report and the settle, a context past the threshold is compacted once; the leader is not woken for it", async () => {
    const w = new CompactionWorld(80);
    w.working();
    w.child.percent = 85;
    w.report("completed");
    expect(w.commands).toEqual([]); // never mid-run
    w.settle();
    await w.flush();
    expect(w.commands).toEqual(["get_session_stats", "compact"]);
    expect(w.infos.map((i) => `${i.state}/${i.by}`)).toEqual(["running/auto", "done/auto"]);
    expect(w.leaderTurns().map((e) => e.type)).toEqual(["deliver_report"]); // the report itself, nothing more
    // The next quiet settle without a new boundary reads nothing.
    w.mail("more");
    w.accept();
    w.settle();
    await w.flush();
    expect(w.commands).toEqual(["get_session_stats", "compact"]);
  });

  it("below the threshold it only reads the stats and the board hears at once", async () => {
    const w = new CompactionWorld(80);
    w.working();
    w.child.percent = 79;
    w.report("failed");
    w.settle();
    await w.flush();
    expect(w.commands).toEqual(["get_session_stats"]);
    // The settle's offer found it holding (no notice can start a run then); the release offers again.
    expect(w.effects.filter((e) => e.type === "board_idle")).toHaveLength(2);
    expect(w.boardOffers).toBe(1);
    expect("life" in w.mate.state && w.mate.state.life.compacting).toBe(false);
  });

  it("an intermediate report is no boundary; 0 turns it off", async () => {
    const w = new CompactionWorld(80);
    w.working();
    w.child.percent = 99;
    w.report("in_progress");
    w.settle();
    await w.flush();
    const off = new CompactionWorld(0);
    off.working();
    off.child.percent = 99;
    off.report("completed");
    off.settle();
    await off.flush();
    expect([w.commands, off.commands]).toEqual([[], []]);
  });

  it("a failing compaction is not retried until the next boundary", async () => {
    const w = new CompactionWorld(80);
    w.working();
    w.child.percent = 95;
    w.child.compact = () => new Error("Summarization failed: 500");
    w.report("completed");
    w.settle();
    await w.flush();
    w.mail("again");
    w.accept();
    w.settle();
    await w.flush();
    expect(w.commands).toEqual(["get_session_stats", "compact"]);
    expect(w.infos.at(-1)).toMatchObject({ state: "failed", by: "auto", error: "Summarization failed: 500" });
  });

  it("mail arriving while it compacts wakes it once the compaction ended, with nothing lost", async () => {
    const w = new CompactionWorld(80);
    w.working();
    w.child.percent = 90;
    w.child.hold = true;
    w.report("completed");
    w.settle();
    await w.flush();
    w.mail("first");
    w.mail("second");
    expect(w.sends("wake")).toEqual([]);
    w.release();
    await w.flush();
    const [wake] = w.sends("wake");
    expect(wake?.mail.map((r) => r.body)).toEqual(["first", "second"]);
  });
});

describe("the feed", () => {
  it("keeps the last compaction and adds one Mail note when it ends", () => {
    const feed = new TeamFeed(() => 5);
    const m = { name: "ada", spawnId: "s1", status: "idle" as const };
    feedCompaction(feed, m, { at: 1, state: "running", by: "auto" });
    expect(feed.mailRows()).toEqual([]);
    feedCompaction(feed, m, { at: 2, state: "done", by: "auto", tokensBefore: 150_000, tokensAfter: 32_000 });
    expect(feed.mate(m).compaction).toMatchObject({ state: "done", tokensAfter: 32_000 });
    expect(feed.mailRows()).toEqual([
      { id: "feed:1", at: 2, kind: "note", from: "ada", to: "leader", title: "compacted context 150K → 32K (auto)", body: "compacted context 150K → 32K (auto)", receipt: "not sent to the leader's model" },
    ]);
  });
});
