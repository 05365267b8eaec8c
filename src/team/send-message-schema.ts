import { Type, type Static } from "typebox";

/**
 * The one schema of `send_message` on both sides (R23). A plain object root keeps it portable
 * across providers (L25). `status` stays a free string so a stray value on a leader message can
 * be ignored with a note instead of failing the call (L15); routing validates it.
 */
export const SendMessageParams = Type.Object({
  to: Type.String({ description: 'Recipient: "leader" (workers only) or a living teammate\'s name.' }),
  message: Type.String({ description: "The message. Its first non-empty line is its title in the console." }),
  status: Type.Optional(
    Type.String({ description: 'Worker reports only: "completed" or "failed" for the one terminal report; omit for an intermediate report.' }),
  ),
  reopen: Type.Optional(
    Type.Boolean({ description: "Leader only: this message is a new direct assignment after the teammate's terminal report; it also allows one more review attempt of each board task parked with that teammate." }),
  ),
});
export type SendMessageArgs = Static<typeof SendMessageParams>;
