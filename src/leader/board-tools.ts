import { defineTool, type ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { TaskCreateParams, TaskListParams } from "../board/index.ts";
import { TeamError } from "../errors.ts";
import type { BoardHost } from "../boardhost/index.ts";
import type { TeamModelSetting } from "../team/model-choice.ts";
import type { LeaderHarness } from "../harness/index.ts";
import { textResult } from "../team/tool-result.ts";


/**
 * Registers the leader's board tools (R34, R35, R46): task_create (leader only) and the leader
 * view of task_list, which includes the roster, or one task in full with `taskId`.
 */
export function registerLeaderBoardTools(
  pi: ExtensionAPI,
  session: () => { harness: LeaderHarness; board: BoardHost; label: string; teamModel: TeamModelSetting } | undefined,
): void {
  const need = () => {
    const s = session();
    if (!s) throw new TeamError("illegal_transition", "The task board is not running (no active session).");
    return s;
  };

  pi.registerTool(defineTool({
    name: "task_create",
    label: "Create task",
    description:
      "Add a task to this session's board (leader only). Idle teammates hear about claimable work; it never spawns a teammate. dependsOn and supersedes take task ids; resources are path-like tags that may not run concurrently; verify is acceptance criteria an independent reviewer checks (statements, not shell commands).",
    parameters: TaskCreateParams,
    async execute(_id, params) {
      const s = need();
      return textResult(s.board.create(params, s.label), {});
    },
  }));

  pi.registerTool(defineTool({
    name: "task_list",
    label: "Task board",
    description:
      "Show the task board (a page plus counts, completed tasks with a one-line result preview) and the team roster. With taskId, show that one task in full, including its whole result.",
    parameters: TaskListParams,
    async execute(_id, params) {
      const s = need();
      const roster = s.harness.members().filter((m) => m.living).map((m) => ({
        name: m.name,
        status: m.status,
        agent: m.agent.name,
        model: m.modelLabel,
        ...(m.direct === "open" ? { assignment: "direct assignment" } : {}),
      }));
      const model = params.taskId === undefined ? `\n${s.teamModel.describe()}` : "";
      return textResult(`${s.board.list(roster, params, s.label)}${model}`, {});
    },
  }));
}
