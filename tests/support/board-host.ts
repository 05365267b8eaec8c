/**
 * Waits of the BoardHost unit tests, which plant intent files and wait for the board's answer on
 * disk. They poll; a timeout names what was awaited and the board's notes so far.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { boardDigest, boardParts, emptyTrail, recordWrite, type Board, type BoardWrite } from "../../src/board/index.ts";
import type { BoardTrailPort } from "../../src/leader/board-trail.ts";
import type { BoardLayout } from "../../src/store/index.ts";

/**
 * Polls `fn` every 25 ms until it resolves to a value other than undefined (a rejection counts
 * as not yet). @throws Error naming `what` and listing `notes` after `timeoutMs`.
 */
export async function waitFor<T>(what: string, fn: () => Promise<T | undefined>, notes: readonly string[], timeoutMs = 4000): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}; notes: ${notes.join(" | ")}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Waits for the decision file of intent `id` and returns it parsed (typed by the caller). */
export function waitForDecision<T = Record<string, unknown>>(layout: BoardLayout, id: string, notes: readonly string[]): Promise<T> {
  return waitFor(`decision ${id}`, async () => JSON.parse(await readFile(join(layout.decisionsDir, `${id}.json`), "utf8")) as T, notes);
}

/** A session's board write record in memory: what `pi.appendEntry` keeps, for BoardHost tests. */
export function memoryTrail(writes: BoardWrite[] = []): BoardTrailPort & { writes: () => BoardWrite[] } {
  return { writes: () => writes, append: (w) => writes.push(w) };
}

/**
 * Writes `board` as board.json the way a leader of this session did: recorded first in a session
 * record (src/leader/board-trail.ts), which is returned for the next BoardHost (`trail`).
 */
export async function plantBoard(layout: BoardLayout, board: Board): Promise<BoardTrailPort & { writes: () => BoardWrite[] }> {
  const parts = boardParts(board);
  const record = recordWrite(emptyTrail(basename(layout.root)), parts, boardDigest(parts.text));
  await mkdir(layout.root, { recursive: true });
  await writeFile(layout.board, parts.text);
  return memoryTrail([record]);
}
