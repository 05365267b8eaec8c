/**
 * board.json persistence of the board shell (R58, R60, L8, L24): reads the snapshot at start (a
 * missing file is a new board, an unreadable one turns the board off, a corrupt one is moved
 * aside, never overwritten), then writes changed revisions atomically, coalesced by the
 * `SnapshotScheduler`, and the last one at close. Each write is recorded first (`record`, the
 * leader's write record: src/boardhost/board-trail.ts).
 */
import { readdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import writeFileAtomic from "write-file-atomic";
import {
  boardDigest, checkResumedBoard, parseBoardFile, resumeCheckText, SnapshotScheduler,
  type BoardFile, type BoardParts, type BoardTrail, type FoundBoard,
} from "../board/index.ts";
import { errorText } from "../error-text.ts";
import { errnoCode, readRegularFile, type BoardLayout } from "../store/index.ts";

/** What `BoardSnapshots.read` found. `unavailable` was already noted. */
export type SnapshotRead =
  | { kind: "missing" }
  /** board.json exists but cannot be read: the board must refuse to run rather than overwrite it. */
  | { kind: "unavailable"; message: string }
  /** board.json was corrupt and moved aside to `aside`; `problem` says why (the host reports it). */
  | { kind: "moved"; aside: string; problem: string }
  /** `text` as read, `sha256` its digest (checked against the write record). */
  | { kind: "loaded"; file: BoardFile; text: string; sha256: string };

/**
 * What `BoardSnapshots.load` found: the file to revive (none: a new board, or the board is off),
 * and what to tell. Every text here was already noted.
 */
export interface SnapshotLoad {
  /** board.json cannot be read: the board refuses to run rather than overwrite it. */
  unavailable?: string;
  file?: BoardFile;
  /** A corrupt board was moved aside and a new one started: for the next tool result. */
  report?: string;
  /** board.json was not the leader's last recorded write: for the user and the leader's next turn. */
  flag?: string;
}

/** Wiring of `BoardSnapshots`, supplied by the host. */
export interface BoardSnapshotsOptions {
  layout: BoardLayout;
  now: () => number;
  note: (text: string) => void;
  /** The board as board.json text and its parts, read at each write. */
  serialize: () => BoardParts;
  /** Records a write before it starts (the leader's write record). Must not throw. */
  record?: (parts: BoardParts) => void;
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
   * Reads and parses board.json (R58, R60, L8); a corrupt file is moved aside (`load` reports it).
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
      return { kind: "moved", aside, problem: `${parsed.reason}: ${parsed.problem}` };
    }
    this.#scheduler = new SnapshotScheduler({ writtenRevision: parsed.file.revision });
    return { kind: "loaded", file: parsed.file, text, sha256: boardDigest(text) };
  }

  /**
   * Reads board.json and checks it against `trail`, the leader's record of its writes (issue 18,
   * src/board/resume-check.ts): a board it did not write is kept aside, and the leader's own
   * board (or the unchecked one with its claims, completions and results reset) is returned with
   * the flag.
   */
  async load(trail: BoardTrail): Promise<SnapshotLoad> {
    const read = await this.read();
    if (read.kind === "unavailable") return { unavailable: read.message };
    const found: FoundBoard = read.kind === "loaded" ? read : { kind: read.kind === "moved" ? "corrupt" : "missing" };
    const check = checkResumedBoard(found, trail, this.#o.now());
    if (check.kind !== "trusted") {
      const keptAt = read.kind === "loaded" ? await this.keepAside(read.text) : read.kind === "moved" ? read.aside : undefined;
      const flag = resumeCheckText(check, keptAt);
      if (flag) this.#o.note(flag);
      return { file: check.file, ...(flag ? { flag } : {}) };
    }
    if (read.kind === "loaded") return { file: read.file };
    if (read.kind === "missing") return {};
    const report = `board.json was unreadable (${read.problem}); it was moved aside to ${read.aside} and a new board started. Nothing in it was discarded.`;
    this.#o.note(report);
    return { report };
  }

  /**
   * Keeps `text` (a board.json the leader did not write) beside the board as
   * `board.untrusted-<ms>.json` before the leader's board replaces it; returns its path, or
   * undefined (noted) when it cannot be written.
   */
  async keepAside(text: string): Promise<string | undefined> {
    const aside = join(this.#o.layout.root, `board.untrusted-${this.#o.now()}.json`);
    try {
      await writeFileAtomic(aside, text, { mode: 0o600 });
      return aside;
    } catch (error) {
      this.#o.note(`could not keep the unchecked board.json aside: ${errorText(error)}`);
      return undefined;
    }
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
      await writeFileAtomic(this.#o.layout.board, this.#recorded(), { mode: 0o600 });
      ok = true;
    } catch (error) {
      this.#o.note(`board.json write failed (will retry): ${errorText(error)}`);
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
      await writeFileAtomic(this.#o.layout.board, this.#recorded(), { mode: 0o600 });
    }
  }

  /** The text to write now, recorded first: a kill between the two leaves the previous write, which the record also trusts. */
  #recorded(): string {
    const parts = this.#o.serialize();
    this.#o.record?.(parts);
    return parts.text;
  }
}
