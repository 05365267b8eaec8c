/** Fake stream teammates around one real StreamRecords (src/harness/stream-records.ts), for unit tests and features. */
import { SpawnKeys } from "../../src/mail/index.ts";
import { STREAM_ENTRY_TYPE, StreamDownSchema, type StreamDown } from "../../src/mail/stream-wire.ts";
import { PeerCap } from "../../src/harness/peer-cap.ts";
import { StreamRecords, type StreamBoard } from "../../src/harness/stream-records.ts";
import { checkValue } from "../../src/store/index.ts";
import type { TeammateEvent } from "../../src/team/lifecycle-types.ts";
import type { Member } from "../../src/team/member.ts";

export interface Fake {
  member: Member;
  /** What the leader wrote to this member's pipe, decoded. */
  down: StreamDown[];
  events: TeammateEvent[];
}

/**
 * A team of fake stream members around one StreamRecords and a real peer-pair cap (W19) of
 * `peerCap` messages per pair (default the product's); its leader events land in `events`.
 */
export function streamTeam(board?: StreamBoard, peerCap?: number) {
  const fakes = new Map<string, Fake>();
  const notes: string[] = [];
  const events: Array<{ type: string; teammate: string; body: string }> = [];
  const peers = new PeerCap({
    now: () => 1_000,
    note: (text) => void notes.push(text),
    event: (type, teammate, body) => void events.push({ type, teammate, body }),
    writeRoster: async () => undefined,
  }, peerCap);
  const add = (name: string, living = true): Fake => {
    const down: StreamDown[] = [];
    const send = async (cmd: { message: string }) => {
      const checked = checkValue(StreamDownSchema, JSON.parse(cmd.message.replace(/^\/pi-teams-stream /, "")));
      if (!checked.ok) throw new Error(checked.message);
      down.push(checked.value);
    };
    const member = { name, spawnId: `${name}-1`, living, transport: "stream", proc: { child: { send } } } as unknown as Member;
    const fake = { member, down, events: [] };
    fakes.set(name.toLowerCase(), fake);
    return fake;
  };
  const records = new StreamRecords({
    keys: new SpawnKeys(),
    now: () => 1_000,
    living: (name) => {
      const f = fakes.get(name.toLowerCase());
      return f?.member.living ? f.member : undefined;
    },
    livingNames: () => [...fakes.values()].filter((f) => f.member.living).map((f) => f.member.name),
    enqueue: (m, job) => void fakes.get(m.name.toLowerCase())!.events.push(...job()),
    note: (text) => void notes.push(text),
    board: () => board,
    peerMail: (from, to, id) => peers.judge(from.name, to.name, id),
  });
  const entry = (data: unknown) => ({ type: "custom", customType: STREAM_ENTRY_TYPE, data, id: "e1" });
  return { add, records, notes, entry, peers, events };
}

