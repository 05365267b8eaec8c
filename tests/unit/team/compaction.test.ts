import { describe, expect, it } from "vitest";
import { runEvents } from "../../support/lifecycle-sim.ts";
import { makeInboxRecord } from "../../../src/mail/index.ts";
import {
  compactBlock, compactionLine, compactionNote, compactionTokens, DEFAULT_COMPACT_AT, formatTokens, refusalLine, resolveCompactAt, shouldCompact,
  type AutoCompactInput,
} from "../../../src/team/compaction.ts";
import { initialState, isQuiet, type TeammateEvent, type TeammateState, type TransitionContext } from "../../../src/team/lifecycle.ts";

const SPAWN = "11111111-1111-4111-8111-111111111111";
const ctx: TransitionContext = {
  facts: { name: "alice", agent: "worker", role: "You are a worker.", startedAt: 0, log: "/tmp/alice.log" },
  heartbeat: { stallMs: 0, silentMs: 0 },
};

const run = (state: TeammateState, ...events: TeammateEvent[]) => runEvents(ctx, state, ...events);

const ticket = (s: TeammateState): number => ("life" in s && s.life.sending ? s.life.sending.ticket : -1);
const idle = (): TeammateState => run(initialState(SPAWN, 0), { type: "ready" }).state;
const mail = (body: string) => makeInboxRecord({ from: "bob", to: "alice", body }, 5);

describe("PI_TEAMMATE_COMPACT_AT", () => {
  it("defaults to 80 when unset or blank", () => {
    expect(resolveCompactAt({})).toEqual({ at: DEFAULT_COMPACT_AT, warnings: [] });
    expect(resolveCompactAt({ PI_TEAMMATE_COMPACT_AT: "  " })).toEqual({ at: 80, warnings: [] });
  });

  it("takes a whole percentage from 0 (off) to 100", () => {
    expect(resolveCompactAt({ PI_TEAMMATE_COMPACT_AT: "0" }).at).toBe(0);
    expect(resolveCompactAt({ PI_TEAMMATE_COMPACT_AT: " 65 " }).at).toBe(65);
    expect(resolveCompactAt({ PI_TEAMMATE_COMPACT_AT: "100" }).at).toBe(100);
  });

  it.each(["abc", "-5", "101", "7.5", "80%"])("warns about %j and keeps the default", (value) => {
    const r = resolveCompactAt({ PI_TEAMMATE_COMPACT_AT: value });
    expect(r.at).toBe(80);
    expect(r.warnings).toEqual([`PI_TEAMMATE_COMPACT_AT="${value}" is not a whole percentage from 0 to 100 (0 turns automatic compaction off); using 80.`]);
  });
});

describe("shouldCompact", () => {
  const base: AutoCompactInput = { at: 80, boundary: true, block: undefined, gauge: { tokens: 85_000, window: 100_000, percent: 85 } };

  it("compacts at or above the threshold after a boundary, idle", () => {
    expect(shouldCompact(base)).toEqual({ compact: true });
    expect(shouldCompact({ ...base, gauge: { tokens: 80_000, window: 100_000, percent: 80 } })).toEqual({ compact: true });
  });

  it("does not below it, without a boundary, mid-run, when off, or without a known percentage", () => {
    expect(shouldCompact({ ...base, gauge: { tokens: 79_999, window: 100_000, percent: 79.999 } })).toMatchObject({ why: "below_threshold" });
    expect(shouldCompact({ ...base, boundary: false })).toMatchObject({ why: "no_boundary" });
    expect(shouldCompact({ ...base, block: "working" })).toMatchObject({ why: "busy" });
    expect(shouldCompact({ ...base, at: 0 })).toMatchObject({ why: "off" });
    expect(shouldCompact({ ...base, gauge: { tokens: null, window: 100_000, percent: null } })).toMatchObject({ why: "unknown_usage" });
    expect(shouldCompact({ ...base, gauge: undefined })).toMatchObject({ why: "unknown_usage" });
  });
});

describe("compactBlock", () => {
  it("allows only an idle teammate with nothing in flight", () => {
    expect(compactBlock(initialState(SPAWN, 0))).toBe("starting");
    expect(compactBlock(idle())).toBeUndefined();
    const woken = run(idle(), { type: "mail", records: [mail("hi")] }).state;
    expect(compactBlock(woken)).toBe("sending");
    const working = run(woken, { type: "sent", ticket: ticket(woken), ok: true, started: false }).state;
    expect(compactBlock(working)).toBe("working");
    expect(compactBlock(run(idle(), { type: "compaction_started" }).state)).toBe("compacting");
    expect(compactBlock(run(idle(), { type: "stop_requested" }).state)).toBe("stopping");
  });
});

describe("the lifecycle holds sends while a compaction runs", () => {
  it("mail that arrives while it compacts waits, then wakes it in one prompt when the compaction ends", () => {
    const compacting = run(idle(), { type: "compaction_started" });
    expect(compacting.effects).toEqual([]);
    expect(isQuiet(compacting.state)).toBe(false);
    const held = run(compacting.state, { type: "mail", records: [mail("one")] }, { type: "mail", records: [mail("two")] });
    expect(held.effects).toEqual([]);
    const done = run(held.state, { type: "compaction_done" });
    expect(done.effects.map((e) => e.type)).toEqual(["send"]);
    expect(done.effects[0]).toMatchObject({ type: "send", kind: "wake", mail: [{ body: "one" }, { body: "two" }] });
  });

  it("a leader message to a compacting teammate is queued to its inbox, never steered", () => {
    const compacting = run(idle(), { type: "compaction_started" }).state;
    const record = makeInboxRecord({ from: "leader", to: "alice", body: "next" }, 5);
    const r = run(compacting, { type: "leader_message", id: 7, record, reopen: false });
    expect(r.effects).toEqual([{ type: "queue_leader_message", id: 7, record }]);
  });

  it("with nothing held, the end of a compaction offers board work again", () => {
    const done = run(idle(), { type: "compaction_started" }, { type: "compaction_done" });
    expect(done.effects.map((e) => e.type)).toEqual(["board_idle"]);
    expect(isQuiet(done.state)).toBe(true);
  });

  it("a start while working changes nothing (Pi would abort the run), and a stray done is ignored", () => {
    const woken = run(idle(), { type: "mail", records: [mail("hi")] }).state;
    const working = run(woken, { type: "sent", ticket: ticket(woken), ok: true, started: false }).state;
    const r = run(working, { type: "compaction_started" });
    expect(r.state).toBe(working);
    expect(r.effects).toEqual([{ type: "note", text: "compaction of alice not started: working" }]);
    expect(run(idle(), { type: "compaction_done" }).effects).toEqual([]);
  });

  it("a stop while compacting holds the mail as undelivered", () => {
    const r = run(idle(), { type: "compaction_started" }, { type: "mail", records: [mail("x")] }, { type: "stop_requested" }, { type: "compaction_done" });
    expect(r.effects.filter((e) => e.type === "send")).toEqual([]);
    const closed = run(r.state, { type: "closed", exit: { code: 0, signal: null }, stderrTail: "" }).state;
    expect(closed).toMatchObject({ phase: "capturing", undelivered: 1 });
  });
});

describe("texts", () => {
  it("formats token counts", () => {
    expect([950, 3649, 32_000, 150_000, 1_234_567, undefined].map(formatTokens)).toEqual(["950", "3.6K", "32K", "150K", "1.2M", "?"]);
  });

  it("reads Pi's compact answer", () => {
    expect(compactionTokens({ tokensBefore: 150_000, estimatedTokensAfter: 32_000, summary: "s" })).toEqual({ tokensBefore: 150_000, tokensAfter: 32_000 });
    expect(compactionTokens({ tokensBefore: "many" })).toEqual({});
    expect(compactionTokens(null)).toEqual({});
  });

  it("words the status line, the refusal and the Mail note", () => {
    const done = { at: 1, state: "done", by: "user", tokensBefore: 150_000, tokensAfter: 32_000 } as const;
    expect(compactionLine("ada", done)).toBe("@ada compacted: 150K → 32K tokens");
    expect(compactionNote(done)).toBe("compacted context 150K → 32K (user)");
    const failed = { at: 1, state: "failed", by: "auto", error: "Nothing to compact (session too small)" } as const;
    expect(compactionLine("ada", failed)).toBe("@ada compaction failed: Nothing to compact (session too small)");
    expect(compactionNote(failed)).toBe("compaction failed (auto): Nothing to compact (session too small)");
    expect(refusalLine("ada", "working")).toBe("@ada is working; not compacted (Pi would abort its run). Try again once it is idle.");
  });
});
