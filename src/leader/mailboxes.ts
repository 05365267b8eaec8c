import { inboxCursor, outboxCursor } from "../mail/index.ts";
import type { RuntimeLayout } from "../store/index.ts";

/** The read cursors of one name's outbox and inbox. */
export interface MailboxCursors {
  outbox: ReturnType<typeof outboxCursor>;
  inbox: ReturnType<typeof inboxCursor>;
}

/**
 * The leader's read positions in every mailbox, per exact name, i.e. per file (`Bob` and `bob`
 * are different files). They outlive incarnations: a respawn must not re-read delivered mail.
 */
export class Mailboxes {
  readonly #layout: RuntimeLayout;
  readonly #note: (text: string) => void;
  readonly #cursors = new Map<string, MailboxCursors>();

  constructor(layout: RuntimeLayout, note: (text: string) => void) {
    this.#layout = layout;
    this.#note = note;
  }

  /** The cursors of `name`'s two files, created on first use. */
  of(name: string): MailboxCursors {
    let c = this.#cursors.get(name);
    if (!c) {
      c = { outbox: outboxCursor(this.#layout.outbox(name)), inbox: inboxCursor(this.#layout.inbox(name)) };
      this.#cursors.set(name, c);
    }
    return c;
  }

  /** New records of one mailbox. Never throws: problems become notes and a bad file reads as empty. */
  async read<T>(cursor: { path: string; readNew(): Promise<{ records: T[]; diagnostics: string[] }> }): Promise<T[]> {
    try {
      const batch = await cursor.readNew();
      for (const d of batch.diagnostics) this.#note(d);
      return batch.records;
    } catch (error) {
      this.#note(`${cursor.path} unreadable, skipped: ${error instanceof Error ? error.message : String(error)}`);
      return [];
    }
  }
}
