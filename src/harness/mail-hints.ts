/**
 * The safety net of the mail watch (W6), driven by events instead of a clock. A teammate's
 * `send_message` appends its record before the tool returns, and its child then reports
 * `tool_execution_end` on the RPC stream the leader reads anyway. So the end of every send names
 * the one file that just grew; the harness reads it then, which catches a watch event the OS
 * dropped at the moment it mattered. This replaced a 5 s poll of every outbox and inbox, which
 * cost an idle leader CPU around the clock (bench/leader-pi.ts). Reads go through the cursors,
 * so a file the watcher already reported yields nothing twice.
 */
import { isRecord } from "../is-record.ts";
import { LEADER_NAME } from "../mail/index.ts";
import type { RpcEvent } from "../process/index.ts";
import type { RuntimeLayout } from "../store/index.ts";
import type { Member } from "../team/member.ts";

/**
 * The mailbox file `m`'s finished `send_message` wrote, from its child's RPC `event`: its own
 * outbox for a report (`details.to` is "leader"), the recipient's inbox for peer mail. Empty for
 * any other event, a failed call (it wrote nothing), or a result without a recipient.
 */
export function sentMailPaths(m: Member, event: RpcEvent, layout: RuntimeLayout): string[] {
  if (event.type !== "tool_execution_end" || event.toolName !== "send_message" || event.isError) return [];
  const result = event.result;
  const details = isRecord(result) ? result["details"] : undefined;
  const to = isRecord(details) ? details["to"] : undefined;
  if (typeof to !== "string" || to === "") return [];
  return [to === LEADER_NAME ? layout.outbox(m.name) : layout.inbox(to)];
}
