/**
 * Whether a team still owes the leader anything: what a headless run (`pi -p`, src/leader/headless.ts)
 * waits on. The harness and the board host each implement it.
 */

/** What a `TeamActivity` listener is told: `status` may have changed busy(); `delivery` reached the leader. */
export type ActivityChange = "status" | "delivery";

/** Whether a team still owes the leader anything. Implemented by the harness and the board. */
export interface TeamActivity {
  /** True while any living teammate is starting or working, or a leader delivery is pending. */
  busy(): boolean;
  /**
   * Calls `listener` on every change of busy() (`status`, possibly also when nothing changed) and
   * right after every leader delivery (`delivery`). The listener must not throw. Returns an
   * unsubscribe, which may be called more than once.
   */
  subscribe(listener: (change: ActivityChange) => void): () => void;
}
