/**
 * When to write board.json (R58, L24, W6): only when the board changed, at most one write in
 * flight, and at most one write start per `minIntervalMs`, so a burst of changes becomes a few
 * snapshots while a lone change is written at once (leading edge) and the last change of a burst
 * is always written (trailing edge). Pure bookkeeping with an injected clock: the shell owns the
 * timer and the write.
 *
 * Shell loop: on each `persist` effect call `markDirty(revision, now)`; arm a timer for
 * `dueAt()`; when it fires, `begin(now)` returns the revision to write (or undefined); serialise,
 * write atomically, then `done(revision, ok, now)` and re-arm for `dueAt()`.
 */

/** Default minimum gap between two write starts (ms). */
export const DEFAULT_SNAPSHOT_INTERVAL_MS = 250;

/** Decides when the shell writes board.json (policy in the module comment). Holds no timer. */
export class SnapshotScheduler {
  readonly minIntervalMs: number;
  #dirty = 0;
  #written = 0;
  #lastStart = Number.NEGATIVE_INFINITY;
  #inFlight: number | undefined;

  /**
   * @param options.minIntervalMs minimum gap between write starts (ms), default 250.
   * @param options.writtenRevision the revision already on disk (a loaded board), default 0.
   */
  constructor(options: { minIntervalMs?: number; writtenRevision?: number } = {}) {
    this.minIntervalMs = Math.max(0, options.minIntervalMs ?? DEFAULT_SNAPSHOT_INTERVAL_MS);
    this.#written = options.writtenRevision ?? 0;
    this.#dirty = this.#written;
  }

  /** Records that the board reached `revision` (from a `persist` effect). Older revisions are ignored. */
  markDirty(revision: number, _now: number): void {
    if (revision > this.#dirty) this.#dirty = revision;
  }

  /** True when a revision newer than the last successful write exists. */
  get dirty(): boolean {
    return this.#dirty > this.#written;
  }

  /** When the next write should start (ms), or undefined when clean or a write is in flight. */
  dueAt(): number | undefined {
    if (!this.dirty || this.#inFlight !== undefined) return undefined;
    return this.#lastStart + this.minIntervalMs;
  }

  /**
   * Starts a write if one is due at `now`: returns the revision the caller must serialise now,
   * or undefined (clean, in flight, or too soon).
   */
  begin(now: number): number | undefined {
    const due = this.dueAt();
    if (due === undefined || now < due) return undefined;
    this.#inFlight = this.#dirty;
    this.#lastStart = now;
    return this.#inFlight;
  }

  /** Ends the write begun for `revision`. A failed write leaves the board dirty (retried at `dueAt()`). */
  done(revision: number, ok: boolean, _now: number): void {
    if (this.#inFlight !== revision) return;
    this.#inFlight = undefined;
    if (ok && revision > this.#written) this.#written = revision;
  }

  /** The last revision written successfully. */
  get writtenRevision(): number {
    return this.#written;
  }
}
