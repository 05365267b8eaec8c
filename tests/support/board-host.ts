/**
 * Waits of the BoardHost unit tests, which plant intent files and wait for the board's answer on
 * the teammate's pipe (`BoardHostOptions.answer`). They poll; a timeout names what was awaited
 * and the board's notes so far.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { basename } from "node:path";
import { boardDigest, boardParts, emptyTrail, recordWrite, type Board, type BoardWrite, type Holder } from "../../src/board/index.ts";
import type { IntentAnswer } from "../../src/boardhost/board-apply.ts";
import type { BoardTrailPort } from "../../src/boardhost/board-trail.ts";
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

/** One decision the board sent to a teammate's pipe. */
export interface PipeAnswer {
  to: Holder;
  id: string;
  decision: IntentAnswer;
}

/**
 * A fake of the harness's pipes for a BoardHost (`answer`): every decision it sends, in order,
 * in `sent`; `decision(id)` waits for the one on intent `id`.
 */
export function pipeAnswers(notes: readonly string[]) {
  const sent: PipeAnswer[] = [];
  return {
    sent,
    answer: (to: Holder, id: string, decision: IntentAnswer): void => void sent.push({ to, id, decision }),
    decision: (id: string): Promise<IntentAnswer> => waitFor(`decision ${id}`, async () => sent.find((a) => a.id === id)?.decision, notes),
  };
}

/** A session's board write record in memory: what `pi.appendEntry` keeps, for BoardHost tests. */
export function memoryTrail(writes: BoardWrite[] = []): BoardTrailPort & { writes: () => BoardWrite[] } {
  return { writes: () => writes, append: (w) => writes.push(w) };
}

/**
 * Writes `board` as board.json the way a leader of this session did: recorded first in a session
 * record (src/boardhost/board-trail.ts), which is returned for the next BoardHost (`trail`).
 */
export async function plantBoard(layout: BoardLayout, board: Board): Promise<BoardTrailPort & { writes: () => BoardWrite[] }> {
  const parts = boardParts(board);
  const record = recordWrite(emptyTrail(basename(layout.root)), parts, boardDigest(parts.text));
  await mkdir(layout.root, { recursive: true });
  await writeFile(layout.board, parts.text);
  return memoryTrail([record]);
}
