import { readFile } from "node:fs/promises";
import { defineTool, type ExtensionAPI } from "@earendil-works/pi-coding-agent";
import {
  boardOffText,
  createBoard,
  loadBoard,
  normalizeClaimInput,
  normalizeSubmitInput,
  parseBoardFile,
  renderTaskDetail,
  renderTaskList,
  TaskClaimParams,
  TaskListParams,
  TaskSubmitParams,
} from "../board/index.ts";
import { TeamError } from "../errors.ts";
import { readRosterFile, type BoardDecision, type UnsealedIntent } from "../mail/index.ts";
import { boardLayoutAt, errnoCode, errorText, runtimeLayoutAt } from "../store/index.ts";
import type { Identity } from "../team/identity.ts";
import { requestDecision } from "./decision.ts";
import { DecisionWatcher } from "./decision-watch.ts";
import { textResult } from "../team/tool-result.ts";

type WorkerIdentity = Extract<Identity, { role: "worker" }>;

/**
 * `details` of a task_claim / task_submit result: the leader's decision as the model may act on
 * it. A rejection carries its code (src/board/rejections.ts) in `reason`.
 */
export type BoardCallDetails = Pick<BoardDecision, "message" | "taskId"> &
  ({ ok: true } | { ok: false; reason: NonNullable<BoardDecision["reason"]> });

/**
 * The tool result for a decision: accepted, the leader's message; rejected, a normal result
 * (not an error) saying `<tool> rejected (<code>): <message>`, with `{ ok: false, reason }` in
 * `details`. A rejection without a code (only a leader of another build could write one) reads
 * as `invalid_input`.
 */
export function decisionResult(tool: string, d: BoardDecision) {
  const taskId = d.taskId !== undefined ? { taskId: d.taskId } : {};
  if (d.ok) return textResult<BoardCallDetails>(d.message, { ok: true, message: d.message, ...taskId });
  const reason = d.reason ?? "invalid_input";
  return textResult<BoardCallDetails>(`${tool} rejected (${reason}): ${d.message}`, { ok: false, reason, message: d.message, ...taskId });
}

/**
 * Registers the worker's board tools (R37–R39, R46): task_list reads the leader's snapshot (one
 * task in full with `taskId`); task_claim and task_submit publish an intent sealed with this
 * spawn's `key` and return the leader's sealed decision in the same call (W11), a rejection as a
 * normal result naming its code. The leader alone changes the board (R48). One decisions watcher
 * serves every call of this process; it starts on the first call and closes at session_shutdown.
 */
export function registerWorkerBoardTools(pi: ExtensionAPI, me: WorkerIdentity, key: Buffer): void {
  const board = boardLayoutAt(me.boardDir);
  const runtime = runtimeLayoutAt(me.runtimeDir);
  const watcher = new DecisionWatcher({ dir: board.decisionsDir, key });
  pi.on("session_shutdown", () => watcher.close());

  /** Publishes one intent as this incarnation and returns the leader's decision as the tool result. */
  const decide = async (tool: string, intent: Omit<UnsealedIntent, "v" | "id" | "at" | "from" | "spawnId">) => {
    const d = await requestDecision({ layout: board, key, watcher }, { from: me.name, spawnId: me.spawnId, ...intent });
    return decisionResult(tool, d);
  };

  pi.registerTool(defineTool({
    name: "task_list",
    label: "Task board",
    description:
      "Show the team's task board (a page plus counts) and the roster, to find claimable work and peers. With taskId, show that one task in full (description, criteria, whole result).",
    parameters: TaskListParams,
    async execute(_id, params) {
      let snapshot = createBoard();
      let text: string | undefined;
      try {
        text = await readFile(board.board, "utf8");
      } catch (error) {
        if (errnoCode(error) !== "ENOENT") throw new TeamError("io_error", boardOffText("task_list", `${board.board}: ${errorText(error)}`));
      }
      if (text !== undefined) {
        const parsed = parseBoardFile(text);
        if (!parsed.ok) throw new TeamError("io_error", boardOffText("task_list", `${board.board}: ${parsed.problem}`));
        snapshot = loadBoard(parsed.file);
      }
      if (params.taskId !== undefined && params.taskId.trim() !== "") {
        const detail = renderTaskDetail(snapshot, params.taskId, me.name);
        if (!detail.ok) throw new TeamError("not_found", `task_list: ${detail.message}`);
        return textResult(detail.text, {});
      }
      const roster = await readRosterFile(runtime.roster);
      const rows = roster.ok ? roster.value.teammates.filter((t) => t.status !== "stopped").map((t) => ({ name: t.name, status: t.status, agent: t.agent })) : [];
      return textResult(
        renderTaskList(snapshot, { audience: "worker", self: me.name, roster: rows, ...(params.offset !== undefined ? { offset: params.offset } : {}) }),
        {},
      );
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
