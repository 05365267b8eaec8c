/**
 * board.json persistence of the board shell (R58, R60, L8, L24): reads the snapshot at start (a
 * missing file is a new board, an unreadable one turns the board off, a corrupt one is moved
 * aside, never overwritten), then writes changed revisions atomically, coalesced by the
 * `SnapshotScheduler`, and the last one at close.
 */
import { readdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import writeFileAtomic from "write-file-atomic";
import { parseBoardFile, SnapshotScheduler, type BoardFile } from "../board/index.ts";
import { errnoCode, readRegularFile, type BoardLayout } from "../store/index.ts";

/** What `BoardSnapshots.read` found. Every case but `loaded` and `missing` was already noted. */
export type SnapshotRead =
  | { kind: "missing" }
  /** board.json exists but cannot be read: the board must refuse to run rather than overwrite it. */
  | { kind: "unavailable"; message: string }
  /** board.json was corrupt and moved aside; `report` is for the next tool result. */
  | { kind: "moved"; report: string }
  | { kind: "loaded"; file: BoardFile };

/** Wiring of `BoardSnapshots`, supplied by the host. */
export interface BoardSnapshotsOptions {
  layout: BoardLayout;
  now: () => number;
  note: (text: string) => void;
  /** The board as board.json text, read at each write. */
  serialize: () => string;
}

/** The board.json reader and writer; the host owns one. */
export class BoardSnapshots {
  readonly #o: BoardSnapshotsOptions;
  #scheduler = new SnapshotScheduler();
  #flushTimer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: BoardSnapshotsOptions) {
    this.#o = options;
  }

  /**
   * Reads and parses board.json (R58, R60, L8); a corrupt file is moved aside and reported.
   * First removes the temp files of writes a killed leader left half done (write-file-atomic
   * names them `board.json.<n>`): this leader holds the session lock, so none is in flight.
   */
  async read(): Promise<SnapshotRead> {
    const path = this.#o.layout.board;
    const left = (await readdir(this.#o.layout.root).catch(() => [])).filter((f) => /^board\.json\.\d+$/.test(f));
    await Promise.all(left.map((f) => rm(join(this.#o.layout.root, f), { force: true })));
    if (left.length > 0) this.#o.note(`removed ${left.length} temp file(s) of board.json writes a killed leader left half done`);
    let text: string;
    try {
      text = await readRegularFile(path); // a FIFO put in its place must not hang the board
    } catch (error) {
      if (errnoCode(error) === "ENOENT") return { kind: "missing" };
      const message = `${path} cannot be read (${errnoCode(error) ?? String(error)}); the board is off until it is fixed. Nothing was overwritten.`;
      this.#o.note(message);
      return { kind: "unavailable", message };
    }
    const parsed = parseBoardFile(text);
    if (!parsed.ok) {
      const aside = join(this.#o.layout.root, `board.corrupt-${this.#o.now()}.json`);
      await rename(path, aside);
      const report = `board.json was unreadable (${parsed.reason}: ${parsed.problem}); it was moved aside to ${aside} and a new board started. Nothing in it was discarded.`;
      this.#o.note(report);
      return { kind: "moved", report };
    }
    this.#scheduler = new SnapshotScheduler({ writtenRevision: parsed.file.revision });
    return { kind: "loaded", file: parsed.file };
  }

  /** The board changed to `revision`: schedules a write. */
  markDirty(revision: number): void {
    this.#scheduler.markDirty(revision, this.#o.now());
    this.#armFlush();
  }

  #armFlush(): void {
    if (this.#flushTimer || this.#closed) return;
    const due = this.#scheduler.dueAt();
    if (due === undefined) return;
    this.#flushTimer = setTimeout(() => {
      this.#flushTimer = undefined;
      void this.#flush();
    }, Math.max(0, due - this.#o.now()));
  }

  /** Writes board.json when due: atomically, only changed revisions, coalesced (L24). */
  async #flush(): Promise<void> {
    const revision = this.#scheduler.begin(this.#o.now());
    if (revision === undefined) return this.#armFlush();
    let ok = false;
    try {
      await writeFileAtomic(this.#o.layout.board, this.#o.serialize(), { mode: 0o600 });
      ok = true;
    } catch (error) {
      this.#o.note(`board.json write failed (will retry): ${error instanceof Error ? error.message : String(error)}`);
    }
    this.#scheduler.done(revision, ok, this.#o.now());
    this.#armFlush();
  }

  /** Stops scheduled writes (close); `writeLast` still writes the final snapshot. */
  stop(): void {
    this.#closed = true;
    clearTimeout(this.#flushTimer);
  }

  /** Writes the last snapshot if a change is not yet written. */
  async writeLast(): Promise<void> {
    if (this.#scheduler.dirty) {
      await writeFileAtomic(this.#o.layout.board, this.#o.serialize(), { mode: 0o600 });
    }
  }
}
