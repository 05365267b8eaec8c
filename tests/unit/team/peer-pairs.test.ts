import { describe, expect, it } from "vitest";
import { cutBetween, PEER_PAIR_CAP, PeerPairs, pairKey, peerCapRefusal, peerCutEventText, resolvePeerPairCap } from "../../../src/team/peer-pairs.ts";

/** Alternates a → b, b → a for `n` messages from time `t0`, 100 ms apart; returns the verdicts. */
function pingPong(book: PeerPairs, a: string, b: string, n: number, t0 = 0) {
  return Array.from({ length: n }, (_, i) => (i % 2 === 0 ? book.judge(a, b, t0 + i * 100) : book.judge(b, a, t0 + i * 100)));
}

describe("peer-pair cap (W19)", () => {
  it("is a documented, reasoned constant", () => {
    expect(PEER_PAIR_CAP).toBe(40);
    expect(new PeerPairs().cap).toBe(PEER_PAIR_CAP);
    expect(() => new PeerPairs(0)).toThrow(/positive integer; got 0/);
  });

  it("PI_TEAMMATE_PEER_PAIR_CAP sets the cap, 0 turns it off, a bad value keeps the default with a warning", () => {
    expect(resolvePeerPairCap({})).toEqual({ cap: PEER_PAIR_CAP, warnings: [] });
    expect(resolvePeerPairCap({ PI_TEAMMATE_PEER_PAIR_CAP: " " })).toEqual({ cap: PEER_PAIR_CAP, warnings: [] });
    expect(resolvePeerPairCap({ PI_TEAMMATE_PEER_PAIR_CAP: "0" })).toEqual({ cap: 0, warnings: [] });
    expect(resolvePeerPairCap({ PI_TEAMMATE_PEER_PAIR_CAP: " 100 " })).toEqual({ cap: 100, warnings: [] });
    const bad = resolvePeerPairCap({ PI_TEAMMATE_PEER_PAIR_CAP: "lots" });
    expect(bad.cap).toBe(PEER_PAIR_CAP);
    expect(bad.warnings).toEqual(['PI_TEAMMATE_PEER_PAIR_CAP="lots" is not a whole number of messages (0 turns the cap off); using 40.']);
  });

  it("counts both directions of one unordered pair together, ignoring case", () => {
    expect(pairKey("Alice", "bob")).toBe(pairKey("BOB", "alice"));
    const book = new PeerPairs(5);
    expect(book.judge("alice", "bob", 0)).toEqual({ kind: "deliver", count: 1 });
    expect(book.judge("Bob", "ALICE", 1)).toEqual({ kind: "deliver", count: 2 });
    expect(book.judge("alice", "carol", 2)).toEqual({ kind: "deliver", count: 1 }); // another pair
  });

  it("delivers up to the cap, cuts the pair once at the cap, refuses and does not count after it", () => {
    const book = new PeerPairs(4);
    const v = pingPong(book, "alice", "bob", 7, 1_000);
    expect(v.slice(0, 3).map((x) => x.kind)).toEqual(["deliver", "deliver", "deliver"]);
    expect(v[3]).toEqual({ kind: "cut", count: 4, cut: { between: ["alice", "bob"], count: 4, since: 1_000, at: 1_300 } });
    expect(v.slice(4).map((x) => x.kind)).toEqual(["refuse", "refuse", "refuse"]);
    expect(v[6]).toMatchObject({ kind: "refuse", count: 4, refused: 3 });
    expect(v.filter((x) => x.kind === "cut")).toHaveLength(1);
    expect(book.cuts()).toEqual([{ between: ["alice", "bob"], count: 4, since: 1_000, at: 1_300 }]);
    // Other pairs of the same teammates are not cut.
    expect(book.judge("alice", "carol", 2_000).kind).toBe("deliver");
  });

  it("a reset of either member starts every pair it is in from 0 and lifts their cuts", () => {
    const book = new PeerPairs(2);
    pingPong(book, "alice", "bob", 2);
    pingPong(book, "carol", "alice", 2);
    book.judge("bob", "carol", 0);
    expect(book.cuts().map((c) => c.between)).toEqual([["alice", "bob"], ["carol", "alice"]]);
    const lifted = book.reset("ALICE");
    expect(lifted.map((c) => c.between)).toEqual([["alice", "bob"], ["carol", "alice"]]);
    expect(book.cuts()).toEqual([]);
    expect(book.judge("bob", "alice", 10)).toEqual({ kind: "deliver", count: 1 });
    // bob ↔ carol was not reset: its one message still counts, the next cuts it.
    expect(book.judge("carol", "bob", 11).kind).toBe("cut");
    expect(book.reset("nobody")).toEqual([]);
  });

  it("a reset before the cap only restarts the count (nothing lifted)", () => {
    const book = new PeerPairs(3);
    pingPong(book, "alice", "bob", 2);
    expect(book.reset("bob")).toEqual([]);
    expect(pingPong(book, "alice", "bob", 3).map((x) => x.kind)).toEqual(["deliver", "deliver", "cut"]);
  });

  it("a cut after a reset is a new cut (one event per cut)", () => {
    const book = new PeerPairs(2);
    expect(pingPong(book, "a", "b", 3).map((x) => x.kind)).toEqual(["deliver", "cut", "refuse"]);
    book.reset("b");
    expect(pingPong(book, "b", "a", 3, 5_000).map((x) => x.kind)).toEqual(["deliver", "cut", "refuse"]);
    expect(book.cuts()).toEqual([{ between: ["b", "a"], count: 2, since: 5_000, at: 5_100 }]);
  });

  it("finds a cut pair in a roster's list in either order, ignoring case", () => {
    const cuts = [{ between: ["alice", "bob"], count: 40 }];
    expect(cutBetween(cuts, "BOB", "Alice")).toBe(cuts[0]);
    expect(cutBetween(cuts, "alice", "carol")).toBeUndefined();
    expect(cutBetween(undefined, "alice", "bob")).toBeUndefined();
    expect(cutBetween([{ between: ["alice"], count: 1 }], "alice", "bob")).toBeUndefined();
  });

  it("the sender's refusal names the bound, the count and the way out (report to the leader)", () => {
    const text = peerCapRefusal("bob", 40);
    expect(text).toMatch(/^send_message refused: you and bob have exchanged 40 peer messages/);
    expect(text).toContain("the bound is 40 per pair");
    expect(text).toContain("Nothing was sent");
    expect(text).toContain('Report to the leader instead: send_message(to: "leader")');
  });

  it("the leader's event names the pair, the count and how long it took", () => {
    const text = peerCutEventText({ between: ["alice", "bob"], count: 40, since: 1_000, at: 13_450 });
    expect(text).toContain("Teammates @alice and @bob exchanged 40 peer messages in 12.5 s");
    expect(text).toContain("bound (40 per pair, W19)");
  });
});
