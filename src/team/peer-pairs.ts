/**
 * The peer-pair cap (W19) as a pure rule: peer mail is counted per unordered pair of teammates,
 * both directions together, from the last moment the leader was involved with either of them;
 * at the cap the pair is cut, and its further mail is refused until the leader is involved again.
 * No clock: every `at` is given (ms since the epoch). The shells are src/harness/peer-cap.ts (the
 * leader, which judges every peer record before delivery) and src/worker/channel.ts (the
 * sender's tool, which refuses up front from the cuts the roster shows).
 */

/**
 * Peer messages two teammates may exchange, both directions together, with no report of either
 * delivered to the leader, no accepted board claim or submission by either, and no leader message
 * to either between them (W19). The next one is refused and the pair is cut.
 *
 * Why 40: collaboration between two teammates within one task is a handful of question and
 * answer rounds (a question, an answer, a follow-up, a "done", about 2 to 10 messages); 40 is
 * 20 full round trips, far more than one task needs, while each message costs the recipient at
 * least one model call and its answer another. A runaway acknowledgement loop ran 426 to 728
 * messages in 20 s before this bound; at 40 it is cut within about 80 model calls.
 */
export const PEER_PAIR_CAP = 40;

/**
 * Reads `PI_TEAMMATE_PEER_PAIR_CAP` (a whole number of messages; `0` turns the cap off, for
 * transport benchmarks and fault floods that measure delivery, not economy). Unset or blank
 * keeps {@link PEER_PAIR_CAP}; a bad value keeps it too and returns a warning naming the
 * variable, the value and what is accepted.
 */
export function resolvePeerPairCap(env: NodeJS.ProcessEnv): { cap: number; warnings: string[] } {
  const raw = env.PI_TEAMMATE_PEER_PAIR_CAP;
  if (raw === undefined || raw.trim() === "") return { cap: PEER_PAIR_CAP, warnings: [] };
  if (!/^\d+$/.test(raw.trim())) {
    return { cap: PEER_PAIR_CAP, warnings: [`PI_TEAMMATE_PEER_PAIR_CAP="${raw}" is not a whole number of messages (0 turns the cap off); using ${PEER_PAIR_CAP}.`] };
  }
  return { cap: Number(raw.trim()), warnings: [] };
}

/** A pair that reached the cap, as the leader and the roster show it. */
export interface PeerCut {
  /** The two names as spawned, in the order their first counted message went (sender first). */
  between: [string, string];
  /** Messages counted since the last reset: the cap. */
  count: number;
  /** When the first of them was judged, ms since the epoch. */
  since: number;
  /** When the pair was cut (its last delivered message was judged), ms since the epoch. */
  at: number;
}

/** What happens to one peer message (see {@link PeerPairs.judge}). */
export type PeerVerdict =
  | { kind: "deliver"; count: number }
  /** Delivered, and it was the pair's last: the pair is cut now (one leader event per cut). */
  | { kind: "cut"; count: number; cut: PeerCut }
  /** Not delivered: the pair was already cut. `refused` counts the refusals since the cut. */
  | { kind: "refuse"; count: number; cut: PeerCut; refused: number };

interface PairState {
  names: [string, string];
  count: number;
  since: number;
  cut: { at: number; refused: number } | undefined;
}

/** The key of the unordered pair `a`, `b`: names compare ignoring case (R22). */
export function pairKey(a: string, b: string): string {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()].sort();
  return `${x}\n${y}`;
}

/**
 * The counts of every pair of one session (W19). Owned by the leader's harness; a teammate never
 * sees or writes it. Names are compared ignoring case.
 */
export class PeerPairs {
  readonly #pairs = new Map<string, PairState>();
  readonly #cap: number;

  /** @param cap messages per pair between resets; default {@link PEER_PAIR_CAP}. @throws RangeError when not a positive integer. */
  constructor(cap: number = PEER_PAIR_CAP) {
    if (!Number.isInteger(cap) || cap < 1) throw new RangeError(`peer pair cap must be a positive integer; got ${cap}`);
    this.#cap = cap;
  }

  /** The cap this book applies. */
  get cap(): number {
    return this.#cap;
  }

  /**
   * Judges one peer message from `from` to `to`, judged at `at`. A pair under the cap counts it and
   * delivers it; the message that brings the count to the cap is delivered too and cuts the pair
   * (`cut`, once per cut); any message of a cut pair is refused and not counted.
   */
  judge(from: string, to: string, at: number): PeerVerdict {
    const key = pairKey(from, to);
    let p = this.#pairs.get(key);
    if (!p) this.#pairs.set(key, (p = { names: [from, to], count: 0, since: at, cut: undefined }));
    if (p.cut) {
      p.cut.refused += 1;
      return { kind: "refuse", count: p.count, cut: cutOf(p, p.cut.at), refused: p.cut.refused };
    }
    p.count += 1;
    if (p.count < this.#cap) return { kind: "deliver", count: p.count };
    p.cut = { at, refused: 0 };
    return { kind: "cut", count: p.count, cut: cutOf(p, at) };
  }

  /**
   * The leader was involved with `name` (a report of it delivered, a board claim or submission of
   * it accepted, a leader message to it, a new spawn under its name): every pair that includes it
   * starts again from 0 and is no longer cut. @returns the cuts this lifted (the roster changes).
   */
  reset(name: string): PeerCut[] {
    const lower = name.toLowerCase();
    const lifted: PeerCut[] = [];
    for (const [key, p] of this.#pairs) {
      if (!key.split("\n").includes(lower)) continue;
      if (p.cut) lifted.push(cutOf(p, p.cut.at));
      this.#pairs.delete(key);
    }
    return lifted;
  }

  /** The pairs cut now, in the order they were first counted. */
  cuts(): PeerCut[] {
    return [...this.#pairs.values()].filter((p) => p.cut).map((p) => cutOf(p, p.cut!.at));
  }
}

function cutOf(p: PairState, at: number): PeerCut {
  return { between: [...p.names], count: p.count, since: p.since, at };
}

/** The cut among `cuts` between `a` and `b` (ignoring case, either order), if any. */
export function cutBetween<C extends { between: readonly string[] }>(cuts: readonly C[] | undefined, a: string, b: string): C | undefined {
  const key = pairKey(a, b);
  return cuts?.find((c) => c.between.length === 2 && pairKey(c.between[0]!, c.between[1]!) === key);
}

/**
 * The sender's send_message error for mail to `to` over the cap: names the bound, the count and
 * what to do instead (report to the leader). Nothing was sent.
 */
export function peerCapRefusal(to: string, count: number, cap: number = PEER_PAIR_CAP): string {
  return [
    `send_message refused: you and ${to} have exchanged ${count} peer messages with no report to the leader, board step or leader message between you; the bound is ${cap} per pair (W19). Nothing was sent.`,
    `Do not message ${to} again now. Report to the leader instead: send_message(to: "leader") with what you need or what you found, then end your turn. A report, a board claim or submission, or a leader message to either of you lifts the bound.`,
  ].join(" ");
}

/** The leader's one harness event at a cut: the pair, the count, how long it took, what to do. */
export function peerCutEventText(cut: PeerCut, cap: number = PEER_PAIR_CAP): string {
  const [a, b] = cut.between;
  const seconds = Math.max(0, Math.round((cut.at - cut.since) / 100) / 10);
  return [
    `Teammates @${a} and @${b} exchanged ${cut.count} peer messages in ${seconds} s with no report to you, no board claim or submission and no message from you to either in between. That is the bound (${cap} per pair, W19): their further peer mail to each other is refused, and each is told to report to you instead.`,
    `Nothing else is stopped. A report from either, a board step of either, or your send_message to either lifts the bound; if they are looping, tell them what to do or shut one down.`,
  ].join("\n");
}
