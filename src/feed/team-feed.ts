import type { MailKind } from "../mail/index.ts";
import { activityStep, lastLine } from "../team/activity.ts";
import { gaugeFromStats, type ContextGauge } from "../team/context.ts";
import type { CompactionInfo } from "../team/compaction.ts";
import type { Member } from "../team/member.ts";
import type { TeammateOutput } from "../team/teammate-output.ts";
import { RunTimeline } from "./run-timeline.ts";
import { oneLine } from "./safe-text.ts";


/** One row of the Mail page, newest first on the page. */
export interface MailRow {
  /**
   * Identity that survives refreshes and the bounds that drop old rows (a feed sequence number, a
   * message id), so the console keeps its selection on the row; absent rows are keyed by content.
   */
  readonly id?: string;
  readonly at: number;
  readonly kind: MailKind;
  readonly from: string;
  readonly to: string;
  /** The first non-empty line of the body, at most 120 characters; `(no content)` when empty (R32). */
  readonly title: string;
  readonly body: string;
  /**
   * What became of it: `queued`, `steered`, `delivered into turn`, `reported` (a report with its
   * status), `answered: yes`, `cancelled (timeout)`, `dropped`, ...
   */
  readonly receipt: string;
}

/** What the feed keeps of one incarnation beyond the lifecycle state. */
export interface MateFeed {
  /** The phase last seen, and when it was first seen (ms). */
  phase: string;
  since: number;
  /** Current tool line, or the last line of text; "" when none yet. */
  activity: string;
  /** Newest last, at most `RECENT` lines. */
  readonly recent: string[];
  context: ContextGauge | undefined;
  compaction: CompactionInfo | undefined;
  /** Text of the assistant message being streamed (its tail only). */
  streaming: string;
  /** Lifetime tokens and cost (USD) last seen: a stopped teammate's state no longer has them. */
  tokens: number;
  cost: number;
}

/** Recent activity lines kept per teammate. */
export const RECENT = 30;
/** Mail rows kept (oldest dropped first). */
export const MAIL_ROWS = 500;
/** Longest title, in characters (R32). */
export const TITLE_MAX = 120;

/**
 * The first line of `body` with something to show (not blank, nor only escape codes and control
 * characters; lines end at `\n`, `\r\n` or `\r`), at most `TITLE_MAX` characters, cut between
 * code points (a cut surrogate pair prints one column more than it measures); `(no content)` when
 * there is none (R32).
 */
export function titleOf(body: string): string {
  const line = body.split(/\r\n|\n|\r/).map((l) => l.trim()).find((l) => oneLine(l) !== "");
  if (!line) return "(no content)";
  const chars = Array.from(line);
  return chars.length <= TITLE_MAX ? line : `${chars.slice(0, TITLE_MAX - 1).join("")}…`;
}

/**
 * The team as the console and the widget see it, beyond what the lifecycle keeps (R61, R62):
 * per incarnation the time in state, the activity line and recent lines, the context gauge and
 * the last compaction; and the Mail page's rows (reports, delivered mail, dialogs). Fed by the
 * harness's hooks, in memory only, bounded; `changed` listeners hear of every change. Reads no
 * file and starts no timer: an idle team costs nothing here.
 */
export class TeamFeed {
  readonly #now: () => number;
  readonly #mates = new Map<string, MateFeed>();
  readonly #mail: MailRow[] = [];
  readonly #listeners = new Set<() => void>();
  /** Numbers the Mail rows: their `id`, which stays with a row while older ones are dropped. */
  #mailSeq = 0;
  /** Every incarnation seen, in the order first seen (the run export lists them all). */
  readonly #incarnations = new Map<string, Member>();
  /** Phase and task changes with their times, for the run export (src/feed/run-timeline.ts). */
  readonly timeline: RunTimeline;

  constructor(now: () => number = Date.now) {
    this.#now = now;
    this.timeline = new RunTimeline(now);
  }

  /** The feed of one incarnation (by spawn id), created on first use. */
  mate(m: Pick<Member, "spawnId" | "status">): MateFeed {
    let f = this.#mates.get(m.spawnId);
    if (!f) {
      f = { phase: m.status, since: this.#now(), activity: "", recent: [], context: undefined, compaction: undefined, streaming: "", tokens: 0, cost: 0 };
      this.#mates.set(m.spawnId, f);
    }
    return f;
  }

  /**
   * Notes phase changes of `members` (called after every team step): time in state starts there.
   * Also keeps each living one's lifetime usage, which its stopped state will not hold.
   * @returns the members that just left `starting` (ready: their first gauge can be read).
   */
  phases(members: readonly Member[]): Member[] {
    const ready: Member[] = [];
    let changed = false;
    for (const m of members) {
      const f = this.mate(m);
      if ("life" in m.state) {
        f.tokens = m.state.life.activity.tokens;
        f.cost = m.state.life.activity.cost;
      }
      if (!this.#incarnations.has(m.spawnId)) {
        this.#incarnations.set(m.spawnId, m);
        this.timeline.phase(m.name, m.spawnId, f.phase);
      }
      if (f.phase === m.status) continue;
      if (f.phase === "starting") ready.push(m);
      f.phase = m.status;
      f.since = this.#now();
      this.timeline.phase(m.name, m.spawnId, m.status);
      changed = true;
    }
    if (changed) this.#changed();
    return ready;
  }

  /** One piece of `m`'s output: the activity line (cleared when a run starts) and the recent lines. */
  observe(m: Member, output: TeammateOutput): void {
    const f = this.mate(m);
    const step = activityStep(output);
    if (step.kind === "none") return;
    if (step.kind === "run") {
      // A new run (a wake): the last run's line would read as what it does now.
      f.activity = "";
      f.streaming = "";
    } else if (step.kind === "tool") {
      f.activity = step.line;
      this.#recent(f, step.line);
    } else if (step.kind === "text") {
      f.streaming = (f.streaming + step.delta).slice(-2000);
      const line = lastLine(f.streaming);
      if (line) f.activity = line;
    } else if (step.kind === "text_end") {
      f.streaming = "";
      const line = lastLine(step.text);
      if (line) {
        f.activity = line;
        this.#recent(f, line);
      }
    }
    this.#changed();
  }

  /** A `get_session_stats` answer of `m`'s child: its context gauge. */
  stats(m: Pick<Member, "spawnId" | "status">, data: unknown): void {
    const gauge = gaugeFromStats(data);
    if (!gauge) return;
    this.mate(m).context = gauge;
    this.#changed();
  }

  /** A compaction of `m`'s context started, ended or failed. */
  compaction(m: Pick<Member, "spawnId" | "status">, info: CompactionInfo): void {
    this.mate(m).compaction = info;
    this.#changed();
  }

  /** One Mail row (R32 title from its body), with a new `id`. */
  mail(row: { kind: MailKind; from: string; to: string; body: string; receipt: string; at?: number }): void {
    this.#mail.push({ id: `feed:${++this.#mailSeq}`, at: row.at ?? this.#now(), kind: row.kind, from: row.from, to: row.to, title: titleOf(row.body), body: row.body, receipt: row.receipt });
    if (this.#mail.length > MAIL_ROWS) this.#mail.splice(0, this.#mail.length - MAIL_ROWS);
    this.#changed();
  }

  /** The feed of an incarnation seen before, by spawn id. */
  get(spawnId: string): MateFeed | undefined {
    return this.#mates.get(spawnId);
  }

  /** Every incarnation `phases` saw, stopped ones and those a respawn replaced included, oldest first. */
  incarnations(): readonly Member[] {
    return [...this.#incarnations.values()];
  }

  /** Mail rows, oldest first. */
  mailRows(): readonly MailRow[] {
    return this.#mail;
  }

  /** Calls `listener` after every change. @returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #recent(f: MateFeed, line: string): void {
    if (f.recent.at(-1) === line) return;
    f.recent.push(line);
    if (f.recent.length > RECENT) f.recent.splice(0, f.recent.length - RECENT);
  }

  #changed(): void {
    for (const listener of this.#listeners) {
      try {
        listener();
      } catch {
        // A console that failed to redraw must not stop the team.
      }
    }
  }
}
