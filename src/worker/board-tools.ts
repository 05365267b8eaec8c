import { defineTool, type ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { normalizeClaimInput, normalizeSubmitInput, TaskClaimParams, TaskListParams, TaskSubmitParams } from "../board/index.ts";
import { TeamError } from "../errors.ts";
import type { BoardDecision } from "../mail/stream-wire.ts";
import { textResult } from "../team/tool-result.ts";
import type { IntentAsk, WorkerChannel } from "./channel.ts";

/**
 * `details` of a task_claim / task_submit result: the leader's decision as the model may act on
 * it. A rejection carries its code (src/mail/rejections.ts) in `reason`.
 */
export type BoardCallDetails = Pick<BoardDecision, "message" | "taskId"> &
  ({ ok: true } | { ok: false; reason: NonNullable<BoardDecision["reason"]> });

/**
 * The tool result for a decision: accepted, the leader's message; rejected, a normal result
 * (not an error) saying `<tool> rejected (<code>): <message>`, with `{ ok: false, reason }` in
 * `details`. A rejection without a code (only a leader of another build could write one) reads
 * as `invalid_input`.
 */
export function decisionResult(tool: string, d: Pick<BoardDecision, "ok" | "reason" | "message" | "taskId">) {
  const taskId = d.taskId !== undefined ? { taskId: d.taskId } : {};
  if (d.ok) return textResult<BoardCallDetails>(d.message, { ok: true, message: d.message, ...taskId });
  const reason = d.reason ?? "invalid_input";
  return textResult<BoardCallDetails>(`${tool} rejected (${reason}): ${d.message}`, { ok: false, reason, message: d.message, ...taskId });
}

/**
 * Registers the worker's board tools (R37–R39, R46) over `channel` (src/worker/channel.ts):
 * task_list shows the leader's board (one task in full with `taskId`); task_claim and
 * task_submit send an intent and return the leader's decision in the same call (W11), a
 * rejection as a normal result naming its code. The leader alone changes the board (R48).
 */
export function registerWorkerBoardTools(pi: ExtensionAPI, channel: WorkerChannel): void {
  /** Sends one intent as this incarnation and returns the leader's decision as the tool result. */
  const decide = async (tool: string, ask: IntentAsk) => decisionResult(tool, await channel.decide(ask));

  pi.registerTool(defineTool({
    name: "task_list",
    label: "Task board",
    description:
      "Show the team's task board (a page plus counts) and the roster, to find claimable work and peers. With taskId, show that one task in full (description, criteria, whole result).",
    parameters: TaskListParams,
    async execute(_id, params) {
      const taskId = params.taskId !== undefined && params.taskId.trim() !== "" ? { taskId: params.taskId } : {};
      return textResult(await channel.view({ ...taskId, ...(params.offset !== undefined ? { offset: params.offset } : {}) }), {});
    },
  }));

  pi.registerTool(defineTool({
    name: "task_claim",
    label: "Claim task",
    description: "Claim one pending, unblocked task from the board (the first claimable one when taskId is omitted). The leader decides; the result says accepted or rejected with the reason.",
    parameters: TaskClaimParams,
    async execute(_id, params) {
      const input = normalizeClaimInput(params);
      if (!input.ok) throw new TeamError("invalid_input", `task_claim: ${input.message}`);
      return decide("task_claim", { action: "claim", ...(input.value.taskId ? { taskId: input.value.taskId } : {}) });
    },
  }));

  pi.registerTool(defineTool({
    name: "task_submit",
    label: "Submit task",
    description: 'Submit the task you hold: status "completed" (goes through its verify gate, if any) or "failed" (returns it to the board with your reason). The result says what the leader decided.',
    parameters: TaskSubmitParams,
    async execute(_id, params) {
      const input = normalizeSubmitInput(params);
      if (!input.ok) throw new TeamError("invalid_input", `task_submit: ${input.message}`);
      const { taskId, status, result } = input.value;
      return decide("task_submit", { action: "submit", taskId, status, ...(result !== undefined ? { result } : {}) });
    },
  }));
}
