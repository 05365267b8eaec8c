import { errorText } from "../error-text.ts";
import { inboxCursor, mailRefusal, outboxCursor, reportRefusal, type SpawnKeys } from "../mail/index.ts";
import type { RuntimeLayout } from "../store/index.ts";
import { RESERVED_TEAMMATE_NAMES } from "../mail/names.ts";

const reserved = (name: string): boolean => RESERVED_TEAMMATE_NAMES.includes(name.toLowerCase());

/** A refused line's note leads with the refusal (it is the Mail page's title), then where it was. */
function refusalFirst(diagnostic: string): string {
  const m = /^(.*?): (refused: .*); skipped$/s.exec(diagnostic);
  return m ? `${m[2]} (${m[1]}; skipped)` : diagnostic;
}

/** Ids remembered per mailbox file; 100,000 ids are a few MB, far more than a day's mail. */
const SEEN_IDS_PER_FILE = 100_000;

/** A bounded set of record ids: past `max`, the oldest is forgotten first. */
class SeenIds {
  readonly #ids = new Set<string>();
  readonly #max: number;

  constructor(max: number) {
    this.#max = max;
  }

  /** Adds `id`; false when it was already there. */
  add(id: string): boolean {
    if (this.#ids.has(id)) return false;
    this.#ids.add(id);
    if (this.#ids.size > this.#max) this.#ids.delete(this.#ids.values().next().value as string);
    return true;
  }
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
  readonly #seen = new Map<string, SeenIds>();

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

  /**
   * New records of one mailbox, each id at most once per file for the session: a file replaced
   * under its name (new inode) is read again from byte 0, and a line copied back in is a replay,
   * so a record already delivered is dropped with a note. Never throws: problems become notes
   * and a bad file reads as empty.
   */
  async read<T extends { id: string }>(cursor: { path: string; readNew(): Promise<{ records: T[]; diagnostics: string[] }> }): Promise<T[]> {
    try {
      const batch = await cursor.readNew();
      for (const d of batch.diagnostics) this.#note(refusalFirst(d));
      let seen = this.#seen.get(cursor.path);
      if (!seen) this.#seen.set(cursor.path, (seen = new SeenIds(SEEN_IDS_PER_FILE)));
      const fresh = batch.records.filter((r) => seen.add(r.id));
      const again = batch.records.length - fresh.length;
      if (again > 0) this.#note(`${cursor.path}: ${again} record(s) already delivered (same id) dropped; the file was replaced or a line copied back`);
      return fresh;
    } catch (error) {
      this.#note(`${cursor.path} unreadable, skipped: ${errorText(error)}`);
      return [];
    }
  }
}
