import { describe, expect, it } from "vitest";
import { TeamFeed, titleOf, MAIL_ROWS, RECENT } from "../../../src/feed/team-feed.ts";
import type { Member } from "../../../src/team/member.ts";
import type { TeammateOutput } from "../../../src/team/teammate-output.ts";

const ada = { spawnId: "ada-1", status: "working" } as unknown as Member;
const tool = (name: string, args: unknown): TeammateOutput => ({ kind: "tool_started", tool: name, callId: "t", args });
const delta = (text: string): TeammateOutput => ({ kind: "model_delta", text });

describe("TeamFeed", () => {
  it("shows the running tool, then the streamed text's last line, and keeps recent lines bounded", () => {
    const feed = new TeamFeed(() => 5);
    feed.observe(ada, tool("bash", { command: "npm test" }));
    expect(feed.mate(ada).activity).toBe("bash npm test");
    feed.observe(ada, delta("Looking at the "));
    feed.observe(ada, delta("tests\nAll green"));
    expect(feed.mate(ada).activity).toBe("All green");
    for (let i = 0; i < RECENT + 10; i++) feed.observe(ada, tool("read", { path: `f${i}` }));
    expect(feed.mate(ada).recent.length).toBe(RECENT);
    expect(feed.mate(ada).recent.at(-1)).toBe(`read f${RECENT + 9}`);
  });

  it("a new run (a wake) clears the last run's line: the widget must not show it as what it does now", () => {
    const feed = new TeamFeed(() => 5);
    feed.observe(ada, delta("Half-way through the "));
    feed.observe(ada, { kind: "assistant_message", text: "Done: all green.", tokens: 0, cost: 0, produced: true });
    expect(feed.mate(ada).activity).toBe("Done: all green.");
    feed.observe(ada, { kind: "run_started" });
    expect(feed.mate(ada).activity).toBe("");
    expect(feed.mate(ada).recent).toContain("Done: all green."); // history stays in the detail
    feed.observe(ada, delta("Reading"));
    expect(feed.mate(ada).activity).toBe("Reading"); // no leftover of the earlier stream
  });

  it("starts time in state at a phase change and tells listeners", () => {
    let now = 1000;
    const feed = new TeamFeed(() => now);
    const m = { spawnId: "bo-1", status: "idle", state: { phase: "idle", life: { activity: { tokens: 42, cost: 0.5 } } } } as unknown as Member;
    let heard = 0;
    feed.subscribe(() => heard++);
    feed.phases([m]);
    expect(feed.mate(m).since).toBe(1000);
    expect(feed.mate(m).tokens).toBe(42);
    now = 9000;
    (m as { status: string }).status = "working";
    feed.phases([m]);
    expect(feed.mate(m).since).toBe(9000);
    expect(heard).toBe(1);
  });

  it("titles mail by its first non-empty line (R32) and keeps the newest rows", () => {
    expect(titleOf("\n\n  Done: 3 files\nmore")).toBe("Done: 3 files");
    expect(titleOf("   ")).toBe("(no content)");
    expect(titleOf("x".repeat(300)).length).toBe(120);
    const feed = new TeamFeed(() => 1);
    for (let i = 0; i < MAIL_ROWS + 5; i++) feed.mail({ kind: "peer", from: "a", to: "b", body: `m${i}`, receipt: "queued" });
    expect(feed.mailRows().length).toBe(MAIL_ROWS);
    expect(feed.mailRows()[0]!.body).toBe("m5");
  });

  it("titles cut whole characters, end a line at a carriage return, and skip lines of escape codes only", () => {
    const cut = titleOf(`${"a".repeat(118)}🚀🚀 tail`);
    expect(cut).toBe(`${"a".repeat(118)}🚀…`);
    expect(cut).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/); // no lone high surrogate
    expect(titleOf("Red done\rOVERWRITTEN\nmore")).toBe("Red done");
    expect(titleOf("\u001b[1m\u001b[0m\n  \u0007 \nReal title")).toBe("Real title");
  });

  it("keeps a gauge from stats answers and ignores answers without one", () => {
    const feed = new TeamFeed();
    feed.stats(ada, { contextUsage: { tokens: 10, contextWindow: 100, percent: 10 } });
    feed.stats(ada, { nothing: true });
    expect(feed.mate(ada).context).toEqual({ tokens: 10, window: 100, percent: 10 });
  });
});
