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
import { readRosterFile, type BoardIntent } from "../mail/index.ts";
import { boardLayoutAt, errnoCode, errorText, runtimeLayoutAt } from "../store/index.ts";
import type { Identity } from "../team/identity.ts";
import { requestDecision } from "./decision.ts";
import { textResult } from "../team/tool-result.ts";

type WorkerIdentity = Extract<Identity, { role: "worker" }>;


/**
 * Registers the worker's board tools (R37–R39, R46): task_list reads the leader's snapshot (one
 * task in full with `taskId`);
 * task_claim and task_submit publish an intent and return the leader's decision in the same
 * call (W11). The leader alone changes the board (R48).
 */
export function registerWorkerBoardTools(pi: ExtensionAPI, me: WorkerIdentity, _key: Buffer): void {
  const board = boardLayoutAt(me.boardDir);
  const runtime = runtimeLayoutAt(me.runtimeDir);

  /** Publishes one intent as this incarnation and returns the leader's decision; a rejection is a tool error. */
  const decide = async (tool: string, intent: Omit<BoardIntent, "v" | "id" | "at" | "from" | "spawnId">) => {
    const d = await requestDecision(board, { from: me.name, spawnId: me.spawnId, ...intent });
    if (!d.ok) throw new TeamError("invalid_input", `${tool} rejected (${d.reason ?? "rejected"}): ${d.message}`);
    return textResult(d.message, { ...d });
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
