/**
 * Puts a teammate's finish entry (R55, "Teammate @x finished (completed).") after the report it
 * announces. The lifecycle emits it with the report, but the report reaches the transcript only
 * when Pi takes it as a follow-up (after the leader's current turn), while an entry is appended
 * at once: so a finish entry waits while a report of its teammate is delivered and not yet shown.
 */
export class FinishLine {
  readonly #append: (teammate: string, text: string) => void;
  /** Teammate → its reports delivered to Pi and not yet in the transcript. */
  readonly #unseen = new Map<string, number>();
  /** Teammate → the finish entry waiting for those reports. */
  readonly #waiting = new Map<string, string>();

  /** `append` writes the entry into the transcript (`pi.appendEntry`). */
  constructor(append: (teammate: string, text: string) => void) {
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
    const text = this.#waiting.get(teammate);
    if (text === undefined) return;
    this.#waiting.delete(teammate);
    this.#append(teammate, text);
  }

  /** The end-of-life line of `teammate`: appended now, or after its reports still on their way. */
  lifeline(teammate: string, text: string): void {
    if ((this.#unseen.get(teammate) ?? 0) > 0) this.#waiting.set(teammate, text);
    else this.#append(teammate, text);
  }
}
