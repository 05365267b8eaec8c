/**
 * The safety net of the mail watch (W6), driven by events instead of a clock. A teammate's
 * `send_message` appends its record before the tool returns, and its child then reports
 * `tool_execution_end` on the RPC stream the leader reads anyway. So the end of every send names
 * the one file that just grew; the harness reads it then, which catches a watch event the OS
 * dropped at the moment it mattered. This replaced a 5 s poll of every outbox and inbox, which
 * cost an idle leader CPU around the clock (bench/leader-pi.ts). Reads go through the cursors,
 * so a file the watcher already reported yields nothing twice.
 */
import { LEADER_NAME } from "../mail/index.ts";
import type { RuntimeLayout } from "../store/index.ts";
import type { Member } from "../team/member.ts";
import type { TeammateOutput } from "../team/teammate-output.ts";

/**
 * The mailbox file `m`'s finished `send_message` wrote, from its `output`: its own outbox for a
 * report (sent to "leader"), the recipient's inbox for peer mail. Empty for any other output or a
 * failed call (it wrote nothing).
 */
export function sentMailPaths(m: Member, output: TeammateOutput, layout: RuntimeLayout): string[] {
  if (output.kind !== "tool_ended" || output.sentTo === undefined) return [];
  return [output.sentTo === LEADER_NAME ? layout.outbox(m.name) : layout.inbox(output.sentTo)];
}
