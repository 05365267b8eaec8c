/**
 * Where the leader keeps its record of its board.json writes (issue 18): custom entries in its
 * own Pi session (`pi.appendEntry`, so in the session JSONL that `pi -c` resumes, never in the
 * model's context; with `--no-session`, in the session's memory). A teammate runs as the same
 * user and can rewrite any file the leader keeps, this one too; but it lies outside the team's
 * dirs, and a `bwrap` teammate cannot write it. The rules of the check: src/board/resume-check.ts.
 */
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { BoardWriteSchema, boardDigest, foldTrail, recordWrite, type BoardParts, type BoardTrail, type BoardWrite } from "../board/index.ts";
import { errorText } from "../error-text.ts";
import { TASK_BOARD } from "../mail/index.ts";
import { checkValue } from "../store/index.ts";
import { harnessEventText } from "../team/prompts.ts";

/** Custom entry type of one recorded board.json write (its `data` is a `BoardWrite`). */
export const BOARD_WRITE_ENTRY = "agent-teams-board-write";

/** Custom type and `details.type` of the leader-turn message flagging a board it did not write. */
export const BOARD_UNTRUSTED_EVENT = "board_untrusted";

/** The session's side of the record: the entries found at start and the append. */
export interface BoardTrailPort {
  /** `data` of every `BOARD_WRITE_ENTRY` in the session, in file order (unchecked). */
  writes: () => readonly unknown[];
  /** Appends one record. May throw (a failed session write). */
  append: (w: BoardWrite) => void;
}

/** The `BoardTrailPort` of a Pi session: its entries (read at start) and `pi.appendEntry`. */
export function sessionTrailPort(pi: ExtensionAPI, ctx: ExtensionContext): BoardTrailPort {
  return {
    writes: () => ctx.sessionManager.getEntries().flatMap((e) => (e.type === "custom" && e.customType === BOARD_WRITE_ENTRY ? [e.data] : [])),
    append: (w) => pi.appendEntry(BOARD_WRITE_ENTRY, w),
  };
}

/** Folds the session's records of board `key` at construction and records each later write. */
export class BoardRecorder {
  readonly trail: BoardTrail;
  readonly #port: BoardTrailPort | undefined;
  readonly #note: (text: string) => void;

  /** Without a port (no session) nothing is recorded and the trail is empty. */
  constructor(key: string, port: BoardTrailPort | undefined, note: (text: string) => void) {
    this.#port = port;
    this.#note = note;
    const valid: BoardWrite[] = [];
    let bad = 0;
    for (const data of port?.writes() ?? []) {
      const checked = checkValue(BoardWriteSchema, data);
      if (checked.ok) valid.push(checked.value);
      else bad += 1;
    }
    if (bad > 0) note(`ignored ${bad} board write record(s) in the session that are not valid records`);
    this.trail = foldTrail(key, valid);
  }

  /** Records a write of `parts` before it starts. Never throws: a failed append is noted. */
  record(parts: BoardParts): void {
    const w = recordWrite(this.trail, parts, boardDigest(parts.text));
    try {
      this.#port?.append(w);
    } catch (error) {
      this.#note(`could not record board.json revision ${w.revision} in the session (a resumed leader will not trust this write): ${errorText(error)}`);
    }
  }
}

/**
 * Flags a board the leader did not write: a warning to the user, and a harness event in the
 * leader's next turn (`deliverAs: "nextTurn"`: no turn is started). Never throws.
 */
export function announceBoardCheck(pi: ExtensionAPI, ctx: ExtensionContext, flag: string | undefined, customType: string): void {
  if (!flag) return;
  try {
    ctx.ui.notify(`pi-resident-teams: ${flag}`, "warning");
    const body = `${flag}\nA teammate may have rewritten it while the leader was down. Check the board with task_list; spawn and assign again what must be redone.`;
    pi.sendMessage(
      { customType, content: harnessEventText({ type: BOARD_UNTRUSTED_EVENT, teammate: TASK_BOARD, body }), display: true, details: { type: BOARD_UNTRUSTED_EVENT, teammate: TASK_BOARD } },
      { deliverAs: "nextTurn" },
    );
  } catch {
    // A failed notification must not stop the session from starting.
  }
}
