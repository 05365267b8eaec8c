/**
 * The leader's shell around compaction (issue 8): a manual compaction of one teammate (the
 * console's `c`), and the automatic one at an assignment boundary once its context passed
 * `PI_TEAMMATE_COMPACT_AT`. The rules are pure (src/team/compaction.ts); the lifecycle holds the
 * teammate's sends while it compacts (Pi 1.6.0 rejects a `prompt` then: "Cannot submit a prompt
 * while compaction is in progress") and releases them with `compaction_done`. Nothing here ever
 * wakes the leader's model: a compaction is a console row and a harness note.
 */
import { errorText } from "../error-text.ts";
import { RpcCommandError } from "../process/index.ts";
import { TeamError } from "../errors.ts";
import { compactBlock, compactionLine, compactionNote, compactionTokens, refusalLine, shouldCompact, type CompactionInfo } from "../team/compaction.ts";
import { gaugeFromStats } from "../team/context.ts";
import type { TeammateEvent } from "../team/lifecycle-types.ts";
import type { Member } from "../team/member.ts";
import type { TeamDriver } from "./team-driver.ts";

/** Pi's answer to `compact` may take this long (a summary is one or two model calls), ms. */
export const DEFAULT_COMPACT_TIMEOUT_MS = 10 * 60_000;

/** The compaction part of `LeaderHarnessOptions`. */
export interface CompactionOptions {
  /** `PI_TEAMMATE_COMPACT_AT`: percent of the context window; 0 turns automatic compaction off. */
  at: number;
  /** Budget for Pi's answer to `compact`, ms; past it the compaction is aborted. Default 10 minutes. */
  timeoutMs?: number;
}

/** What the compactor reads of a teammate incarnation (a `Member` in the harness). */
export type CompactTarget = Pick<Member, "name" | "spawnId" | "state">;

/** The RPC commands the compactor sends. */
export type CompactCommand = { type: "compact" } | { type: "get_session_stats" } | { type: "abort" };

/** Wiring of a `Compactor`: the team's event queue and the child's RPC, injected (fakes in tests). */
export interface CompactorOptions<T extends CompactTarget> {
  at: number;
  now: () => number;
  /** Sends one command to `t`'s child; resolves with its data, rejects like `RpcChild#send`. */
  rpc: (t: T, command: CompactCommand, timeoutMs?: number) => Promise<unknown>;
  /** Applies one lifecycle event to `t` at once (`TeamDriver#dispatch`). */
  dispatch: (t: T, event: TeammateEvent) => void;
  /** Applies events after those already queued for `t`; resolves once they were (`TeamDriver#enqueue`). */
  enqueue: (t: T, events: TeammateEvent[]) => Promise<void>;
  /** A harness note about `t` (harness.log). */
  note: (text: string, t: T) => void;
  onCompaction?: (t: T, info: CompactionInfo) => void;
  timeoutMs?: number;
}

/**
 * Compacts teammates' contexts. Automatic: `boundary(t)` at a terminal report or an accepted
 * board submission, then at `t`'s next quiet idle (`idle(t)`, its run settled and nothing is in
 * flight) it holds `t`'s sends, reads its stats and compacts when `shouldCompact` says so, else
 * releases them at once. One attempt per boundary: a failure waits for the next one. Owns no
 * timer; never throws (failures are notes, feed rows and result lines).
 */
export class Compactor<T extends CompactTarget> {
  readonly #o: CompactorOptions<T> & { timeoutMs: number };
  /** Spawn ids whose assignment boundary waits for their next quiet idle (one entry per incarnation at most). */
  readonly #boundaries = new Set<string>();

  constructor(options: CompactorOptions<T>) {
    this.#o = { timeoutMs: DEFAULT_COMPACT_TIMEOUT_MS, ...options };
  }

  /** `t` reached an assignment boundary (a terminal report, an accepted board submission). */
  boundary(t: T): void {
    if (this.#o.at > 0) this.#boundaries.add(t.spawnId);
  }

  /**
   * `t` is idle with nothing in flight (the lifecycle's `board_idle`). After a boundary: holds its
   * sends at once (so a board notice or mail arriving now waits for the compaction instead of
   * starting a run it would abort), then decides on the stats. Call it before the board offers work.
   */
  idle(t: T): void {
    if (!this.#boundaries.delete(t.spawnId)) return;
    if (compactBlock(t.state) !== undefined) return;
    this.#o.dispatch(t, { type: "compaction_started" });
    void this.#auto(t).catch((error: unknown) => this.#o.note(`automatic compaction failed: ${reason(error)}`, t));
  }

  /**
   * Compacts `t` now (`by`: who asked). Resolves with the console's line: `@ada compacted: 150K →
   * 32K tokens`, `@ada compaction failed: <Pi's reason>`, or why it cannot start (a working
   * teammate is refused: Pi would abort its run). Never rejects.
   */
  async compact(t: T, by: "user" | "auto"): Promise<string> {
    const block = compactBlock(t.state);
    if (block !== undefined) return refusalLine(t.name, block);
    this.#o.dispatch(t, { type: "compaction_started" });
    return this.#run(t, by);
  }

  async #auto(t: T): Promise<void> {
    let stats: unknown;
    try {
      stats = await this.#o.rpc(t, { type: "get_session_stats" });
    } catch (error) {
      this.#o.note(`context not checked for compaction: get_session_stats failed: ${reason(error)}`, t);
    }
    const decision = shouldCompact({ at: this.#o.at, boundary: true, block: undefined, gauge: gaugeFromStats(stats) });
    if (!decision.compact) return this.#release(t);
    await this.#run(t, "auto");
  }

  /** Runs one compaction of `t`, whose sends are held already; releases them when it ends. */
  async #run(t: T, by: "user" | "auto"): Promise<string> {
    this.#tell(t, { at: this.#o.now(), state: "running", by });
    let info: CompactionInfo;
    try {
      const data = await this.#o.rpc(t, { type: "compact" }, this.#o.timeoutMs);
      info = { at: this.#o.now(), state: "done", by, ...compactionTokens(data) };
    } catch (error) {
      info = { at: this.#o.now(), state: "failed", by, error: reason(error) };
      if (error instanceof TeamError && error.code === "timeout") {
        // Pi may still be compacting, and would reject prompts: abort it before releasing the sends.
        await this.#o.rpc(t, { type: "abort" }).catch((e: unknown) => this.#o.note(`abort after a compaction timeout failed: ${reason(e)}`, t));
      }
    }
    this.#tell(t, info);
    this.#o.note(compactionNote(info), t);
    await this.#release(t);
    return compactionLine(t.name, info);
  }

  #release(t: T): Promise<void> {
    return this.#o.enqueue(t, [{ type: "compaction_done" }]);
  }

  #tell(t: T, info: CompactionInfo): void {
    try {
      this.#o.onCompaction?.(t, info);
    } catch (error) {
      this.#o.note(`compaction hook failed: ${reason(error)}`, t);
    }
  }
}

/**
 * The harness's compactor: `team`'s queue and its members' children, with `options` from the
 * harness; each compaction's progress is a `compaction` signal on the team's bus.
 */
export function teamCompactor(team: TeamDriver, options: CompactionOptions, now: () => number): Compactor<Member> {
  const { at, timeoutMs } = options;
  return new Compactor<Member>({
    at,
    now,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    rpc: (m, command, ms) => {
      if (!m.proc) return Promise.reject(new TeamError("child_exited", `@${m.name} has no process to compact.`));
      return m.proc.child.send(command, ms === undefined ? {} : { timeoutMs: ms });
    },
    dispatch: (m, event) => team.dispatch(m, event),
    enqueue: (m, events) => team.enqueue(m, () => events),
    note: (text, m) => team.note(text, m),
    onCompaction: (member, info) => team.bus.emit({ type: "compaction", member, info }),
  });
}

/** Pi's own reason for a refused command; else the error's message. */
function reason(error: unknown): string {
  if (error instanceof RpcCommandError) return error.piError;
  return errorText(error);
}
