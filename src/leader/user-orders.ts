/**
 * The user's own word to a teammate (issue 21): from the console's `s` key or `/agent-teams
 * send <name> <text>`. It goes the way of the leader's `send_message` (steered into a working
 * teammate's run, else held for its next wake, the same receipts on the Mail page), from `user`,
 * with the user's authority, and never starts a leader turn. So that the leader is not surprised
 * by what the teammate does next, one `user_message` harness event waits for its next turn.
 * The user's board actions (`boardByUser`) are told the same way.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { TeamError } from "../errors.ts";
import { TASK_BOARD, USER_NAME } from "../mail/index.ts";
import type { LeaderSendResult } from "../harness/index.ts";
import { harnessEventText } from "../team/prompts.ts";
import { HARNESS_EVENT_TYPE } from "../ui/renderers.ts";

/** `details.type` of the leader's next-turn note about a user message. */
export const USER_MESSAGE_EVENT = "user_message";
/** `details.type` of the leader's next-turn note about the user's change to the board. */
export const USER_BOARD_EVENT = "user_board";

/** Tells the leader's next turn one harness event, starting no turn. */
export type LeaderNote = (type: string, teammate: string, body: string) => void;

/** A `LeaderNote` of a Pi session: a `nextTurn` message, shown in the transcript, never a turn of its own. */
export function nextTurnNote(pi: Pick<ExtensionAPI, "sendMessage">): LeaderNote {
  return (type, teammate, body) => {
    try {
      pi.sendMessage({ customType: HARNESS_EVENT_TYPE, content: harnessEventText({ type, teammate, body }), display: true, details: { type, teammate } }, { deliverAs: "nextTurn" });
    } catch {
      // A failed note must not undo a message already on its way.
    }
  };
}

/**
 * Sends the user's `text` to teammate `to` and notes it for the leader's next turn.
 * @returns the line for the user, e.g. `@ana: steered` or `@ana: queued`.
 * @throws TeamError `invalid_input` for an empty text or a recipient that is not a living teammate.
 */
export async function sendAsUser(send: (req: { to: string; message: string }) => Promise<LeaderSendResult>, note: LeaderNote, to: string, text: string): Promise<string> {
  const message = text.trim();
  if (message === "") throw new TeamError("invalid_input", "The message is empty: type what to tell the teammate.");
  const r = await send({ to, message });
  note(USER_MESSAGE_EVENT, r.to, `The user wrote to @${r.to} from the console (${r.result}); the teammate acts on it with the user's authority:\n${message}`);
  return `@${r.to}: ${r.result}${r.note ? ` (${r.note})` : ""}`;
}

/**
 * One of the user's board actions from the console (issue 21: a new task, an offer, one more
 * attempt): `act` applies it with the board's own rules and errors (a refusal throws and is
 * neither a Mail row nor a note). Done, it is a Mail row from `user` to the board and one
 * `user_board` event for the leader's next turn. @returns the board's answer.
 */
export function boardByUser(o: { mail: (row: { kind: "user"; from: string; to: string; body: string; receipt: string }) => void; note: LeaderNote }, what: string, act: () => string): string {
  const result = act();
  o.mail({ kind: "user", from: USER_NAME, to: TASK_BOARD, body: `${what}\n${result}`, receipt: "done" });
  o.note(USER_BOARD_EVENT, TASK_BOARD, `The user changed the board from the console: ${what}.\n${result}`);
  return result;
}
