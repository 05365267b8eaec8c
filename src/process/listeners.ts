/**
 * A listener set whose emit isolates listener failures (style practice 15: every subscription
 * returns its undo).
 */
export class Listeners<T> {
  #set = new Set<(value: T) => void>();

  /** Add `listener`. @returns unsubscribe; idempotent. */
  add(listener: (value: T) => void): () => void {
    this.#set.add(listener);
    return () => {
      this.#set.delete(listener);
    };
  }

  /** Number of current listeners (tests check that nothing is left listening). */
  get size(): number {
    return this.#set.size;
  }

  /**
   * Call every listener with `value`, in subscription order, over a snapshot (listeners may
   * unsubscribe while being called). A throwing listener does not stop the others: its error goes
   * to `onError`, which must not throw.
   */
  emit(value: T, onError: (error: unknown) => void): void {
    for (const listener of [...this.#set]) {
      try {
        listener(value);
      } catch (error) {
        onError(error);
      }
    }
  }
}
