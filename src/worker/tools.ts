import { defineTool, type ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { TeamError } from "../errors.ts";
import type { Identity } from "../mail/identity.ts";
import { routeFromWorker } from "../team/routing.ts";
import { SendMessageParams } from "../team/send-message-schema.ts";
import type { WorkerChannel } from "./channel.ts";

type WorkerIdentity = Extract<Identity, { role: "worker" }>;

/** What a worker's send_message result carries for renderers and tests. */
interface SendDetails {
  to: string;
  /** `refused`: a second report in one answer (nothing was written). */
  result: "queued" | "refused";
  /** The record's id; absent when refused. */
  id?: string;
  status?: string;
}

/**
 * Registers the worker side of send_message (R24, R27, R28, R47) over `channel` (src/worker/channel.ts):
 * a report goes to the leader, at most one per answer (the others are refused back to the
 * teammate), stamped with the identity from its environment or its pipe (never from the
 * payload); peer mail goes to a living recipient. Both return `queued` once written. A terminal
 * report ends the worker's turn.
 */
export function registerWorkerTools(pi: ExtensionAPI, me: WorkerIdentity, channel: WorkerChannel): void {
  // One report per answer: 200 parallel send_message(to: "leader") calls in one assistant
  // message would otherwise start 200 leader turns. A turn is one assistant message.
  let turn = 0;
  let reportedIn = -1;
  let terminalIn = -1;
  pi.on("turn_start", () => {
    turn += 1;
  });

  pi.registerTool(defineTool<typeof SendMessageParams, SendDetails>({
    name: "send_message",
    label: "Send message",
    description:
      'The only messaging tool. To "leader": a report (status "completed" or "failed" for your one terminal report, which ends your turn; omit status for an intermediate report). To a teammate\'s name: peer mail (no status). Result "queued" means written, not read.',
    parameters: SendMessageParams,
    async execute(_id, params) {
      // A report needs no roster, so it is judged before any await: parallel calls in one answer
      // see each other's claim on the answer's one report.
      const toLeader = params.to.trim().toLowerCase() === "leader";
      const route = toLeader ? routeFromWorker(me.name, params, []) : undefined;
      if (route?.kind === "error") throw new TeamError("invalid_input", route.message);
      if (route?.kind === "report") {
        if (reportedIn === turn) {
          const text = 'send_message refused: this answer already sent its one report to "leader"; at most one report per answer. Nothing was sent: put everything into one report, or send the next one in a later answer.';
          // After a terminal report the run must still end: Pi ends it only if every result of the batch terminates.
          if (terminalIn === turn) return { content: [{ type: "text", text }], details: { to: "leader", result: "refused" as const }, terminate: true };
          throw new TeamError("invalid_input", text);
        }
        reportedIn = turn;
        if (route.terminal) terminalIn = turn;
      }
      const reopen = params.reopen ? " Note: reopen is for the leader and was ignored." : "";
      if (route?.kind === "report") {
        const id = await channel.report(params.message, route.status);
        const end = route.terminal ? " This was your terminal report; your turn ends here." : "";
        return {
          content: [{ type: "text", text: `queued: report to leader (${route.status}).${end}${reopen}` }],
          details: { to: "leader", result: "queued" as const, status: route.status, id },
          terminate: route.terminal,
        };
      }
      if (params.status !== undefined) {
        const refused = routeFromWorker(me.name, params, [params.to.trim()]);
        if (refused.kind === "error") throw new TeamError("invalid_input", refused.message);
      }
      const sent = await channel.mail(params.to, params.message);
      return {
        content: [{ type: "text", text: `queued: message to ${sent.to}.${reopen}` }],
        details: { to: sent.to, result: "queued" as const, id: sent.id },
      };
    },
  }));
}
