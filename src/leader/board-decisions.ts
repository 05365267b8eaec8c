/**
 * The leader's decision files (references/board-intents.md): each answer is sealed with the key
 * of the spawn whose intent it answers and written atomically to `decisions/<id>.json`, where
 * that spawn's waiting tool call reads and removes it. A decision nobody will read is removed
 * by the leader: a spawn's unread ones when that spawn goes away, any older than the worker's
 * wait ({@link DECISION_TIMEOUT_MS}: its call gave up) at each sweep, and every one at the
 * board's start and close (no waiting call can outlive its leader, R21).
 */
import { readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import writeFileAtomic from "write-file-atomic";
import { DECISION_TIMEOUT_MS, sealDecision, type UnsealedDecision } from "../mail/index.ts";
import { errnoCode, errorText } from "../store/index.ts";

/** Wiring of `BoardDecisions`. */
export interface BoardDecisionsOptions {
  /** The `decisions/` dir. */
  dir: string;
  now: () => number;
  note: (text: string) => void;
  /** Age in ms after which an unread decision is removed. Default {@link DECISION_TIMEOUT_MS}. */
  maxAgeMs?: number;
}

/** Writes and cleans the decision folder; the board's intent reader owns one. */
export class BoardDecisions {
  readonly #o: Required<BoardDecisionsOptions>;
  /** Decisions written and maybe not yet read: intent id → the spawn id it answers. */
  readonly #unread = new Map<string, string>();

  constructor(options: BoardDecisionsOptions) {
    this.#o = { maxAgeMs: DECISION_TIMEOUT_MS, ...options };
  }

  /**
   * Seals `decision` with `key` (the key of spawn `spawnId`, whose intent it answers) and writes
   * it atomically as `<dir>/<id>.json`, mode 0600. The id must be path-safe (schema-checked by
   * every caller). @throws the write's error (the caller sets the intent aside).
   */
  async write(decision: UnsealedDecision, to: { key: Buffer; spawnId: string }): Promise<void> {
    await writeFileAtomic(this.#path(decision.id), JSON.stringify(sealDecision(to.key, decision)), { mode: 0o600 });
    this.#unread.set(decision.id, to.spawnId);
  }

  /** Spawn `spawnId` went away (stopped or crashed): removes the decisions it did not read. Never rejects. */
  async spawnGone(spawnId: string): Promise<void> {
    const ids = [...this.#unread].filter(([, s]) => s === spawnId).map(([id]) => id);
    for (const id of ids) this.#unread.delete(id);
    await Promise.all(ids.map((id) => this.#remove(join(this.#o.dir, `${id}.json`))));
  }

  /**
   * Removes every decision file older than the worker's wait (its call gave up; a planted file
   * too) and forgets written decisions whose file is gone (read by their worker). Never rejects.
   */
  async sweep(): Promise<void> {
    const present = new Set<string>();
    for (const name of await this.#files()) {
      const path = join(this.#o.dir, name);
      const mtimeMs = await stat(path).then((s) => s.mtimeMs, () => undefined);
      if (mtimeMs === undefined) continue;
      if (this.#o.now() - mtimeMs > this.#o.maxAgeMs) await this.#remove(path);
      else present.add(name.slice(0, -".json".length));
    }
    for (const id of [...this.#unread.keys()]) if (!present.has(id)) this.#unread.delete(id);
  }

  /** Removes every decision file (board start and close: no worker waits on one). Never rejects. */
  async clear(): Promise<void> {
    this.#unread.clear();
    await Promise.all((await this.#files()).map((name) => this.#remove(join(this.#o.dir, name))));
  }

  #path(id: string): string {
    return join(this.#o.dir, `${id}.json`);
  }

  /** Names of the `*.json` files (not temp files, not dirs) in the folder; [] when it cannot be listed. */
  async #files(): Promise<string[]> {
    try {
      const entries = await readdir(this.#o.dir, { withFileTypes: true });
      return entries.filter((e) => e.isFile() && e.name.endsWith(".json") && !e.name.startsWith(".")).map((e) => e.name);
    } catch (error) {
      if (errnoCode(error) !== "ENOENT") this.#o.note(`decisions ${this.#o.dir} cannot be listed for cleanup: ${errorText(error)}`);
      return [];
    }
  }

  async #remove(path: string): Promise<void> {
    await rm(path, { force: true }).catch((error: unknown) => this.#o.note(`decision ${path} could not be removed: ${errorText(error)}`));
  }
}
