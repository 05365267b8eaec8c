import { inboxCursor, mailRefusal, outboxCursor, reportRefusal, type SpawnKeys } from "../mail/index.ts";
import type { RuntimeLayout } from "../store/index.ts";
import { RESERVED_TEAMMATE_NAMES } from "../team/names.ts";

const reserved = (name: string): boolean => RESERVED_TEAMMATE_NAMES.includes(name.toLowerCase());

/** A refused line's note leads with the refusal (it is the Mail page's title), then where it was. */
function refusalFirst(diagnostic: string): string {
  const m = /^(.*?): (refused: .*); skipped$/s.exec(diagnostic);
  return m ? `${m[2]} (${m[1]}; skipped)` : diagnostic;
}

/** The read cursors of one name's outbox and inbox. */
export interface MailboxCursors {
  outbox: ReturnType<typeof outboxCursor>;
  inbox: ReturnType<typeof inboxCursor>;
}

/**
 * The leader's read positions in every mailbox, per exact name, i.e. per file (`Bob` and `bob`
 * are different files). They outlive incarnations: a respawn must not re-read delivered mail.
 * Every line must pass its seal check against `keys` (src/mail/seal.ts); a line that does not
 * is skipped with a note starting "refused:", never delivered.
 */
export class Mailboxes {
  readonly #layout: RuntimeLayout;
  readonly #note: (text: string) => void;
  readonly #keys: SpawnKeys;
  readonly #cursors = new Map<string, MailboxCursors>();

  constructor(layout: RuntimeLayout, keys: SpawnKeys, note: (text: string) => void) {
    this.#layout = layout;
    this.#keys = keys;
    this.#note = note;
  }

  /** The cursors of `name`'s two files, created on first use. */
  of(name: string): MailboxCursors {
    let c = this.#cursors.get(name);
    if (!c) {
      c = {
        outbox: outboxCursor(this.#layout.outbox(name), { refine: (r) => reportRefusal(r, name, this.#keys) }),
        inbox: inboxCursor(this.#layout.inbox(name), { refine: (r) => mailRefusal(r, name, this.#keys, reserved) }),
      };
      this.#cursors.set(name, c);
    }
    return c;
  }

  /** New records of one mailbox. Never throws: problems become notes and a bad file reads as empty. */
  async read<T>(cursor: { path: string; readNew(): Promise<{ records: T[]; diagnostics: string[] }> }): Promise<T[]> {
    try {
      const batch = await cursor.readNew();
      for (const d of batch.diagnostics) this.#note(refusalFirst(d));
      return batch.records;
    } catch (error) {
      this.#note(`${cursor.path} unreadable, skipped: ${error instanceof Error ? error.message : String(error)}`);
      return [];
    }
  }
}
