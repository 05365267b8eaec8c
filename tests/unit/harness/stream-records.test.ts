/**
 * The leader's end of the stream transport on fake members: a record on a teammate's pipe is
 * that teammate's (the pipe is the identity), it becomes the same lifecycle event a file record
 * would, and every request gets its answer on the same pipe.
 */
import { describe, expect, it } from "vitest";
import type { StreamBoard } from "../../../src/harness/stream-records.ts";
import { streamTeam } from "../../support/stream-team.ts";

describe("StreamRecords: the pipe is the identity", () => {
  it("a report on alice's pipe is alice's, whatever sender its data names", () => {
    const { add, records, entry } = streamTeam();
    const alice = add("alice");
    add("bob");
    records.onEntry(alice.member, entry({ kind: "report", id: "r1", body: "done", status: "completed", from: "bob", spawnId: "bob-1" }));
    expect(alice.events.map((e) => (e.type === "outbox" ? e.records.map((r) => [r.from, r.spawnId, r.status, r.body]) : e.type))).toEqual([[["alice", "alice-1", "completed", "done"]]]);
  });

  it("peer mail goes onto the recipient's queue from the pipe's owner and is answered with the name as spawned", () => {
    const { add, records, entry } = streamTeam();
    const alice = add("alice");
    const bob = add("Bob");
    records.onEntry(alice.member, entry({ kind: "mail", id: "m1", to: "bob", body: "hi", from: "leader" }));
    expect(bob.events.map((e) => (e.type === "mail" ? e.records.map((r) => [r.from, r.fromSpawnId, r.to, r.body]) : e.type))).toEqual([[["alice", "alice-1", "Bob", "hi"]]]);
    expect(alice.down).toEqual([{ kind: "answer", id: "m1", ok: true, text: "Bob" }]);
  });

  it("mail to nobody living, or to itself, is refused on the pipe and delivered to no one", () => {
    const { add, records, entry } = streamTeam();
    const alice = add("alice");
    const carol = add("carol", false);
    records.onEntry(alice.member, entry({ kind: "mail", id: "m1", to: "carol", body: "hi" }));
    records.onEntry(alice.member, entry({ kind: "mail", id: "m2", to: "alice", body: "hi" }));
    expect(carol.events).toEqual([]);
    expect(alice.events).toEqual([]);
    expect(alice.down.map((d) => d.kind === "answer" && [d.ok, /is not a living teammate|is you/.test(d.text)])).toEqual([[false, true], [false, true]]);
  });

  it("a replayed id and a record that breaks the wire are dropped with a note; other entries are not ours", () => {
    const { add, records, notes, entry } = streamTeam();
    const alice = add("alice");
    records.onEntry(alice.member, entry({ kind: "report", id: "r1", body: "one", status: "in_progress" }));
    records.onEntry(alice.member, entry({ kind: "report", id: "r1", body: "one again", status: "in_progress" }));
    records.onEntry(alice.member, entry({ kind: "report", id: "r2", body: 7, status: "in_progress" }));
    records.onEntry(alice.member, { type: "custom", customType: "someone-else", data: { kind: "report" } });
    expect(alice.events).toHaveLength(1);
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatch(/r1 was already delivered/);
    expect(notes[1]).toMatch(/^refused: a stream record on alice's pipe is not valid/);
  });

  it("a board intent is decided for the pipe's owner with only its own fields, and answered with the decision; a view likewise", () => {
    const asked: unknown[] = [];
    const board: StreamBoard = {
      intent: (m, ask) => {
        asked.push([m.name, ask]);
        return { ok: false, reason: "blocked", message: "blocked by schema", taskId: "t" };
      },
      view: (m, ask) => (ask.taskId === "nope" ? { ok: false, message: "task_list: no task nope" } : { ok: true, text: `board for ${m.name}` }),
    };
    const { add, records, entry } = streamTeam(board);
    const alice = add("alice");
    records.onEntry(alice.member, entry({ kind: "intent", id: "i1", action: "claim", taskId: "t", from: "bob", spawnId: "bob-1" }));
    records.onEntry(alice.member, entry({ kind: "board_view", id: "v1" }));
    records.onEntry(alice.member, entry({ kind: "board_view", id: "v2", taskId: "nope" }));
    expect(asked).toEqual([["alice", { action: "claim", taskId: "t" }]]);
    expect(alice.down).toEqual([
      { kind: "answer", id: "i1", ok: false, text: "blocked by schema", decision: { ok: false, reason: "blocked", message: "blocked by schema", taskId: "t" } },
      { kind: "answer", id: "v1", ok: true, text: "board for alice" },
      { kind: "answer", id: "v2", ok: false, text: "task_list: no task nope", error: "not_found" },
    ]);
  });

  it("decided answers a teammate of either transport on its own pipe, and no one once it no longer lives", () => {
    const { add, records } = streamTeam();
    const alice = add("alice");
    const bob = add("bob");
    const gone = add("carol", false);
    (alice.member as { transport: string }).transport = "files"; // an intent file's answer takes the same path
    records.decided(alice.member, "i1", { ok: true, message: "Claimed task t: T.", taskId: "t" });
    records.decided(gone.member, "i2", { ok: false, reason: "stale_spawn", message: "gone" });
    expect(alice.down).toEqual([{ kind: "answer", id: "i1", ok: true, text: "Claimed task t: T.", decision: { ok: true, message: "Claimed task t: T.", taskId: "t" } }]);
    expect(bob.down).toEqual([]);
    expect(gone.down).toEqual([]);
  });
});
