import { describe, expect, it } from "vitest";
import { makeInboxRecord } from "../../../src/mail/index.ts";
import { PEER_CUT_EVENT, PeerCap } from "../../../src/harness/peer-cap.ts";
import type { Member } from "../../../src/team/member.ts";

/** A PeerCap of `cap` whose notes, events and roster writes are recorded. */
function cap(n: number) {
  const notes: string[] = [];
  const events: Array<{ type: string; teammate: string; body: string }> = [];
  const order: string[] = [];
  let release: () => void = () => undefined;
  const peers = new PeerCap({
    now: () => 0,
    note: (text) => void notes.push(text),
    event: (type, teammate, body) => void events.push({ type, teammate, body }),
    // A roster write that finishes only when the test says so.
    writeRoster: () => new Promise<void>((resolve) => {
      order.push("roster write started");
      release = () => {
        order.push("roster written");
        resolve();
      };
    }),
  }, n);
  return { peers, notes, events, order, release: () => release() };
}

const mail = (from: string, to: string, body: string) => makeInboxRecord({ from, fromSpawnId: `${from}-1`, to, body }, 0, Buffer.alloc(32));
const member = (name: string, spawnId = `${name}-1`) => ({ name, spawnId }) as unknown as Member;

describe("PeerCap: the leader's shell of the peer-pair cap (W19)", () => {
  it("delivers a file batch up to the cap, refuses the rest with a note, and one event per cut", async () => {
    const t = cap(3);
    const batch = [1, 2, 3, 4, 5].map((i) => mail(i % 2 ? "alice" : "bob", i % 2 ? "bob" : "alice", `m${i}`));
    const kept = t.peers.judgeAll(batch);
    // The batch that cut the pair waits for the roster to show the cut before it is delivered.
    await Promise.resolve();
    t.order.push("still waiting");
    t.release();
    expect((await kept).map((r) => r.body)).toEqual(["m1", "m2", "m3"]);
    expect(t.order).toEqual(["roster write started", "still waiting", "roster written"]);
    expect(t.events).toHaveLength(1);
    expect(t.events[0]).toMatchObject({ type: PEER_CUT_EVENT, teammate: "alice" });
    expect(t.events[0]!.body).toContain("@alice and @bob exchanged 3 peer messages");
    expect(t.notes.filter((n) => n.startsWith("refused: peer mail"))).toHaveLength(2);
    expect(t.peers.rosterCuts()).toEqual([{ between: ["alice", "bob"], count: 3 }]);
    expect(t.peers.judge("bob", "alice", "x")).toContain("the bound is 3 per pair");
    expect(t.events).toHaveLength(1);
  });

  it("a reset lifts the cut with a note and a roster write; before the cap it writes nothing", () => {
    const t = cap(2);
    t.peers.judge("alice", "bob", "1");
    t.peers.reset("bob", "a leader message");
    expect(t.order).toEqual([]);
    t.peers.judge("alice", "bob", "2");
    t.peers.judge("bob", "alice", "3");
    expect(t.peers.rosterCuts()).toHaveLength(1);
    t.peers.reset("Alice", "its report reached the leader");
    expect(t.peers.rosterCuts()).toEqual([]);
    expect(t.notes.at(-1)).toBe("peer-pair cap: alice ↔ bob may exchange peer mail again (its report reached the leader)");
    expect(t.order).toEqual(["roster write started", "roster write started"]);
  });

  it("with the cap off (0) every message is delivered and nothing is cut", () => {
    const t = cap(0);
    for (let i = 0; i < 1000; i++) expect(t.peers.judge("alice", "bob", String(i))).toBeUndefined();
    t.peers.reset("alice", "a leader message");
    expect(t.peers.rosterCuts()).toEqual([]);
    expect([t.events, t.notes, t.order]).toEqual([[], [], []]);
  });

  it("a board claim (a task id a teammate did not hold) resets its pairs; a release or a repeat does not", () => {
    const t = cap(2);
    const cut = () => {
      t.peers.judge("alice", "bob", "a");
      t.peers.judge("bob", "alice", "b");
    };
    cut();
    t.peers.held(member("bob"), []);
    t.peers.held(member("alice"), ["t1"]);
    expect(t.peers.rosterCuts()).toEqual([]);
    cut();
    t.peers.held(member("alice"), ["t1"]); // the same holding
    t.peers.held(member("alice"), []); // a release or a submission that finished it
    expect(t.peers.rosterCuts()).toHaveLength(1);
    t.peers.held(member("alice", "alice-2"), ["t1"]); // a new incarnation that holds it claimed it
    expect(t.peers.rosterCuts()).toEqual([]);
  });
});
