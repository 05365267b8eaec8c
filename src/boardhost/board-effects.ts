/**
 * The pure board's effects carried out (R37–R60): each kind goes to one port of the shell, in the
 * order the core gave them. board-host.ts owns the ports; this file only routes.
 */
import type { BoardEscalation, Effect, Holder } from "../board/index.ts";
import { assertNever } from "../errors.ts";

/** Where each kind of effect goes. None may throw. */
export interface BoardEffectPorts {
  /** The board changed at `revision`: a snapshot is due. */
  persist(revision: number): void;
  /** A line of board mail to a teammate (a notice, findings, a word to a holder). */
  tell(to: Holder, text: string): void;
  /** Starts a verify reviewer. */
  review(e: Extract<Effect, { type: "start_reviewer" }>): void;
  /** Aborts the reviewer of `token`. */
  abortReview(token: string): void;
  /** An escalation for the leader, held until the board settles or delivered alone. */
  escalate(e: BoardEscalation): void;
}

/**
 * Carries out `effects` in order through `ports`. @returns whether the board changed (a
 * `persist` was among them).
 */
export function carryOut(effects: readonly Effect[], ports: BoardEffectPorts): boolean {
  let changed = false;
  for (const e of effects) {
    switch (e.type) {
      case "persist":
        ports.persist(e.revision);
        changed = true;
        break;
      case "notify_teammate":
      case "send_findings":
      case "tell_holder":
        ports.tell(e.to, e.text);
        break;
      case "start_reviewer":
        ports.review(e);
        break;
      case "clarify_reviewer":
        break; // asked inside BoardReviews.review, on the same reviewer
      case "abort_reviewer":
        ports.abortReview(e.token);
        break;
      case "escalate":
        ports.escalate(e);
        break;
      default:
        assertNever(e, "board effect");
    }
  }
  return changed;
}
