import { defineTool, type ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";
import { parseStringList } from "../board/inputs.ts";
import { normalizeResource } from "../board/resources.ts";
import { TeamError } from "../errors.ts";
import { describeHandoffContext } from "../team/handoff.ts";
import { SendMessageParams } from "../team/send-message-schema.ts";
import type { BoardWork } from "../boardhost/index.ts";
import type { LeaderHarness } from "../harness/index.ts";
import { textResult } from "../team/tool-result.ts";

const InlineDefinition = Type.Object({
  description: Type.Optional(Type.String({ description: "One line: what the role is for." })),
  tools: Type.Optional(Type.Union([Type.Array(Type.String()), Type.String()], { description: 'Pi tools of the role, e.g. "read,grep,find,ls" (team tools are added).' })),
  model: Type.Optional(Type.String({ description: '"provider/id" or "inherit"; omit for the team default.' })),
  verify: Type.Optional(Type.String({ description: "Default acceptance criteria a reviewer checks for the board tasks it submits." })),
  worktree: Type.Optional(Type.Boolean({ description: "true: its own git worktree and branch." })),
  extensions: Type.Optional(Type.Array(Type.String(), { description: "Pi extension paths (file or package dir) loaded into the teammate; relative to the working directory. Only when the user asks for one." })),
  prompt: Type.String({ description: "The role prompt (the body of a definition file)." }),
  persist: Type.Optional(Type.Union([Type.Literal("project"), Type.Literal("project-local")], { description: "Only when the user asks: write it to .pi/agents/<agent>.md (project) or <agent>.local.md (project-local)." })),
});

const SpawnParams = Type.Object({
  name: Type.String({ description: "Teammate name: starts with a letter; letters, digits, . _ -; at most 64." }),
  agent: Type.String({ description: "Agent definition (role) to start it from, e.g. a file .pi/agents/<agent>.md." }),
  prompt: Type.Optional(Type.String({ description: "Kickoff: the teammate's first assignment. Omit (an empty prompt counts as omitted) to let it idle until messaged." })),
  resources: Type.Optional(
    Type.Union([Type.Array(Type.String()), Type.String()], {
      description: 'Path-like resource tags its assignment holds, e.g. ["packages/api/auth"].',
    }),
  ),
  handoffFrom: Type.Optional(Type.String({
    description: "A stopped teammate this one succeeds: its latest assignment, board tasks (named, not transferred), recent reports and kept worktree branch go into the kickoff.",
  })),
  definition: Type.Optional(Type.Union([InlineDefinition, Type.String({ description: "The same object as a JSON string." })], {
    description: "Only when no agent definition fits: an inline role for this session, registered under `agent` (see references/agent-roles.md). Never overrides a definition file.",
  })),
});

const ShutdownParams = Type.Object({
  name: Type.String({ description: "The living teammate to stop." }),
});


/** Resource tags from tool input (L26, W13): a list or its JSON string; each tag normalised. */
function resourcesFrom(value: unknown): string[] {
  const list = parseStringList("resources", value);
  if (!list.ok) throw new TeamError("invalid_input", `teammate_spawn: ${list.message}`);
  return list.value.map((raw) => {
    const tag = normalizeResource(raw);
    if (!tag.ok) throw new TeamError("invalid_input", `teammate_spawn: resources: ${tag.message}`);
    return tag.tag;
  });
}

/** How a teammate spawned without a kickoff starts: on board work when the board has some for it. */
function idleStart(work: BoardWork | undefined): string {
  const ids = (list: string[]) => list.map((id) => `\`${id}\``).join(", ");
  if (work && work.offered.length > 0) return `was offered board work (${ids(work.offered)}) and claims what fits its role`;
  if (work && work.claimable.length > 0) {
    const n = work.claimable.length;
    return `is idle and will be offered board work (${n}${n >= 50 ? "+" : ""} claimable task${n === 1 ? "" : "s"})`;
  }
  return "is idle until messaged";
}

/**
 * Registers the leader's team tools (R2, R13–R24): teammate_spawn, teammate_shutdown and the
 * leader side of send_message. `harness()` returns the session's harness, or undefined outside
 * a session; `boardWork(name)` what the board holds for a teammate spawned without a kickoff,
 * so the spawn result can say it will be offered board work (undefined: no board).
 */
export function registerLeaderTools(
  pi: ExtensionAPI,
  harness: () => LeaderHarness | undefined,
  boardWork: (name: string) => BoardWork | undefined = () => undefined,
): void {
  const need = (): LeaderHarness => {
    const h = harness();
    if (!h) throw new TeamError("illegal_transition", "The team harness is not running (no active session).");
    return h;
  };

  pi.registerTool(defineTool({
    name: "teammate_spawn",
    label: "Spawn teammate",
    description:
      "Start a named, long-lived teammate (a child Pi process) from an agent definition. This is the tool to use whenever you are asked to spawn an agent, call a subagent, or delegate work to a worker. With `prompt` it starts on that assignment at once; its reports come back to you as their own turns.",
    promptSnippet: "teammate_spawn: start a resident teammate (spawn an agent / subagent / delegate to a worker)",
    promptGuidelines: [
      "Use teammate_spawn whenever a task says to spawn an agent, call a subagent, or delegate to a worker.",
      "After teammate_spawn with a prompt, the kickoff is already delivered: end your turn and wait for the report.",
    ],
    parameters: SpawnParams,
    async execute(_id, params) {
      // An empty or blank prompt is no kickoff: the teammate idles (and works the board), and the
      // result says why, so the model does not believe it handed out an assignment.
      const kickoff = params.prompt !== undefined && params.prompt.trim() !== "" ? params.prompt : undefined;
      const r = await need().spawn({
        name: params.name,
        agent: params.agent,
        ...(kickoff !== undefined ? { prompt: kickoff } : {}),
        resources: resourcesFrom(params.resources),
        ...(params.handoffFrom !== undefined ? { handoffFrom: params.handoffFrom } : {}),
        ...(params.definition !== undefined ? { definition: params.definition } : {}),
      });
      const empty = params.prompt !== undefined && kickoff === undefined ? "; no kickoff (prompt was empty)" : "";
      const start = r.kickoff ? "is working on its kickoff" : `${idleStart(boardWork(r.name))}${empty}`;
      const extras = [
        r.handoffFrom ? ` It succeeds ${r.handoffFrom} (handoff in its ${r.handoffAs === "mail" ? "first message" : "kickoff"}; ${describeHandoffContext(r.handoffFrom, r.handoffContext)}).` : "",
        r.worktree ? ` It works in its own worktree ${r.worktree.dir} on branch ${r.worktree.branch}; board resources are still shared.` : "",
        r.persisted ? ` Its role was written to ${r.persisted}.` : r.scope === "session" ? " Its role is a session role (in memory only)." : "",
      ].join("");
      return textResult(
        `Spawned teammate ${r.name} (agent ${r.agent}, model ${r.model}, pid ${r.pid}); it ${start}. Tools: ${r.tools.join(", ")}.${extras} Its reports arrive as their own turns: end your turn and wait.`,
        { ...r },
      );
    },
  }));

  pi.registerTool(defineTool({
    name: "teammate_shutdown",
    label: "Shut down teammate",
    description: "Stop one living teammate (stdin EOF, then SIGTERM, then SIGKILL) and release its work. A requested shutdown does not start a turn.",
    parameters: ShutdownParams,
    async execute(_id, params) {
      const r = await need().shutdown(params.name);
      return textResult(`Teammate ${r.name} shut down (${r.exit}).`, { ...r });
    },
  }));

  pi.registerTool(defineTool({
    name: "send_message",
    label: "Send message",
    description:
      "The only messaging tool. As the leader, message a living teammate by name: a working teammate is steered at once (steered), any other gets it at its next wake (queued). Neither means it was read. Use reopen: true to give a teammate a new assignment after its terminal report, or to allow one more review attempt of the board tasks parked with it.",
    parameters: SendMessageParams,
    async execute(_id, params) {
      const r = await need().sendFromLeader(params);
      return textResult(`${r.result}: message to ${r.to}.${r.note ? ` ${r.note}` : ""}`, { ...r });
    },
  }));
}
