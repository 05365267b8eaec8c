/**
 * The leader's shell of the peer-pair cap (W19; the rule is src/team/peer-pairs.ts). The leader
 * reads every peer record before it delivers one (inbox files, src/harness/mailboxes.ts; stream
 * pipes, src/harness/stream-records.ts), so the count lives here and a teammate cannot touch it:
 * mail of a cut pair is not delivered, even when a teammate appended it to an inbox with bash.
 * At each cut the leader's model gets one harness event and the roster lists the pair, so both
 * members' send_message refuse further mail to each other up front (src/worker/channel.ts).
 */
import type { InboxRecord, RosterPeerCut } from "../mail/index.ts";
import type { Member } from "../team/member.ts";
import { PeerPairs, peerCapRefusal, peerCutEventText } from "../team/peer-pairs.ts";

/** The harness event type of a cut (R30): one per cut, never one per refused message. */
export const PEER_CUT_EVENT = "peer_pair_cut";

/** What the shell calls; the team driver supplies it. */
export interface PeerCapDeps {
  now: () => number;
  /** A harness.log and console note. */
  note(text: string): void;
  /** Starts one leader turn with a `<harness-event>`. */
  event(type: string, teammate: string, body: string): void;
  /** Rewrites the roster (it shows the cut pairs); never rejects. */
  writeRoster(): Promise<void>;
}

/** See the module doc. One per team driver. */
export class PeerCap {
  readonly #d: PeerCapDeps;
  /** Undefined when the cap is off (`PI_TEAMMATE_PEER_PAIR_CAP=0`): every message is delivered. */
  readonly #pairs: PeerPairs | undefined;
  /** Per lower-case name: the incarnation and the board task ids it held at the last board change. */
  readonly #held = new Map<string, { spawnId: string; ids: Set<string> }>();
  /** The roster write started by the latest cut: a file batch waits for it before delivering. */
  #rosterWrite: Promise<void> = Promise.resolve();

  /** @param cap messages per pair between resets; default PEER_PAIR_CAP; 0 turns the cap off. */
  constructor(deps: PeerCapDeps, cap?: number) {
    this.#d = deps;
    this.#pairs = cap === 0 ? undefined : new PeerPairs(cap);
  }

  /**
   * Judges one peer message before it is delivered. @returns undefined to deliver it, else the
   * refusal for its sender (it is not delivered; a note says so). The message that reaches the cap
   * is delivered and cuts the pair: one harness event, a note and a roster write.
   */
  judge(from: string, to: string, id: string): string | undefined {
    if (!this.#pairs) return undefined;
    const v = this.#pairs.judge(from, to, this.#d.now());
    if (v.kind === "deliver") return undefined;
    const [a, b] = v.cut.between;
    if (v.kind === "cut") {
      this.#d.note(`peer-pair cap: ${a} ↔ ${b} reached ${v.count} messages (W19); their further peer mail is refused until the leader is involved with either`);
      this.#d.event(PEER_CUT_EVENT, from, peerCutEventText(v.cut, this.#pairs.cap));
      this.#rosterWrite = this.#d.writeRoster();
      return undefined;
    }
    this.#d.note(`refused: peer mail ${from} → ${to} (${id}) not delivered: ${a} ↔ ${b} is cut at the peer-pair cap (${v.count} messages, W19); refusal ${v.refused} since the cut`);
    return peerCapRefusal(to, v.count, this.#pairs.cap);
  }

  /**
   * The records of one inbox read that may be delivered, in order (see `judge`). When one of them
   * cut its pair, resolves only once the roster shows the cut, so the recipient cannot answer
   * before its send_message can refuse up front.
   */
  async judgeAll(records: readonly InboxRecord[]): Promise<InboxRecord[]> {
    const before = this.#rosterWrite;
    const kept = records.filter((r) => this.judge(r.from, r.to, r.id) === undefined);
    if (this.#rosterWrite !== before) await this.#rosterWrite;
    return kept;
  }

  /**
   * The leader was involved with `name` (`why`: its report was delivered, its board claim or
   * submission accepted, the leader messaged it, it was spawned): its pairs start again from 0 and
   * any cut of them is lifted (noted; the roster is rewritten).
   */
  reset(name: string, why: string): void {
    const lifted = this.#pairs?.reset(name) ?? [];
    if (lifted.length === 0) return;
    for (const c of lifted) this.#d.note(`peer-pair cap: ${c.between[0]} ↔ ${c.between[1]} may exchange peer mail again (${why})`);
    void this.#d.writeRoster();
  }

  /**
   * The board changed: `ids` are the tasks living teammate `m` holds now. A task it did not hold
   * at the last change is an accepted claim, which resets its pairs. @returns true for a claim.
   */
  held(m: Member, ids: readonly string[]): boolean {
    const key = m.name.toLowerCase();
    const before = this.#held.get(key);
    const had = before?.spawnId === m.spawnId ? before.ids : new Set<string>();
    this.#held.set(key, { spawnId: m.spawnId, ids: new Set(ids) });
    const claimed = ids.some((id) => !had.has(id));
    if (claimed) this.reset(m.name, "a board claim");
    return claimed;
  }

  /** The cut pairs as the roster lists them. */
  rosterCuts(): RosterPeerCut[] {
    return (this.#pairs?.cuts() ?? []).map((c) => ({ between: [...c.between], count: c.count }));
  }
}
