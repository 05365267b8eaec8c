/** One end-of-life line (R55): its text, and `ok` false for a failure end (a crash, a `failed` report). */
export interface Lifeline {
  readonly text: string;
  readonly ok: boolean;
}

/**
 * Puts a teammate's finish entry (R55, "Teammate @x finished (completed).") after the report it
 * announces. The lifecycle emits it with the report, but the report reaches the transcript only
 * when Pi takes it as a follow-up (after the leader's current turn), while an entry is appended
 * at once: so a finish entry waits while a report of its teammate is delivered and not yet shown.
 */
export class FinishLine {
  readonly #append: (teammate: string, line: Lifeline) => void;
  /** Teammate → its reports delivered to Pi and not yet in the transcript. */
  readonly #unseen = new Map<string, number>();
  /** Teammate → the finish entry waiting for those reports. */
  readonly #waiting = new Map<string, Lifeline>();

  /** `append` writes the entry into the transcript (`pi.appendEntry`). */
  constructor(append: (teammate: string, line: Lifeline) => void) {
    this.#append = append;
  }

  /** A report of `teammate` was handed to Pi (`sendMessage`). */
  delivered(teammate: string): void {
    this.#unseen.set(teammate, (this.#unseen.get(teammate) ?? 0) + 1);
  }

  /** A report of `teammate` is in the transcript (its `message_end`), or will never be (a failed send). */
  shown(teammate: string): void {
    const left = (this.#unseen.get(teammate) ?? 0) - 1;
    if (left > 0) return void this.#unseen.set(teammate, left);
    this.#unseen.delete(teammate);
    const line = this.#waiting.get(teammate);
    if (line === undefined) return;
    this.#waiting.delete(teammate);
    this.#append(teammate, line);
  }

  /** The end-of-life line of `teammate`: appended now, or after its reports still on their way. */
  lifeline(teammate: string, line: Lifeline): void {
    if ((this.#unseen.get(teammate) ?? 0) > 0) this.#waiting.set(teammate, line);
    else this.#append(teammate, line);
  }
}
