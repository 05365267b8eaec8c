/**
 * One isolated team for an end-to-end test: a scripted model, a PiEnv with agent files, and a
 * real leader pi with this package. The model's answers come from a per-agent script; the
 * helpers read the leader's RPC events (tool results, custom messages) and the runtime dir.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { AnswerUi, RpcEvent } from "../../src/process/index.ts";
import { sessionKey } from "../../src/store/layout.ts";
import { startLeader, writeAgents, type Leader } from "./leader.ts";
import { createPiEnv, type PiEnv, type PiEnvOptions } from "./pi-env.ts";
import { contentText, startScriptedModel, type ChatMessage, type ModelCall, type Reply, type ReplyToolCall, type ScriptedModel } from "./scripted-model.ts";
import { isAlive } from "./process.ts";

export { isAlive };

/** Answers of one agent ("leader", a teammate name, ...). */
export type AgentScript = (call: ModelCall) => Reply | Promise<Reply>;

/** A finished tool execution of the leader, as its RPC `tool_execution_end` event shows it. */
export interface ToolEnd {
  toolCallId: string;
  toolName: string;
  /** The arguments the model gave (from the matching `tool_execution_start`). */
  args: Record<string, unknown>;
  isError: boolean;
  text: string;
  details: Record<string, unknown>;
}

export interface Team {
  model: ScriptedModel;
  env: PiEnv;
  leader: Leader;
  /** `<agentDir>/teammate/<sha256(cwd)[:16]>` (the leader runs with --no-session). */
  runtimeDir: string;
  /** Replaces the answers of one agent. */
  script(agent: string, fn: AgentScript): void;
  /** The leader's finished tool executions so far, optionally of one tool. */
  toolEnds(toolName?: string): ToolEnd[];
  /** Waits until `count` executions of `toolName` have finished; returns them all. */
  waitToolEnds(toolName: string, count: number, timeoutMs?: number): Promise<ToolEnd[]>;
  /** Sends a user prompt to the leader and waits for the run it starts to settle. */
  run(prompt: string, timeoutMs?: number): Promise<void>;
  /** Every teammate pid a spawn returned (used by cleanup to leave no process behind). */
  pids: Set<number>;
  /** Stops the leader, kills any leftover teammate, closes the model, removes the temp dirs. */
  stop(): Promise<void>;
}

/**
 * The leader answers a user prompt equal to a key of `commands` with those tool calls, and
 * everything else (tool results, reports, harness events) with a short text, so it never loops:
 * `answers[prompt]` once that prompt's tool calls are done (the TUI tests wait for it), else
 * "Noted.".
 */
export function leaderCommands(commands: Record<string, ReplyToolCall[]>, answers: Record<string, string> = {}): AgentScript {
  return (c) => {
    const calls = c.toolResults.length === 0 ? commands[c.lastUser] : undefined;
    return calls ? { toolCalls: calls } : { text: answers[c.lastUser] ?? "Noted." };
  };
}

/**
 * Runs `prompt` on the leader and returns the one `tool` result it produced.
 * @throws Error when the run produced no `tool` result or more than one.
 */
export async function runForToolEnd(t: Team, prompt: string, tool: string): Promise<ToolEnd> {
  const before = t.toolEnds(tool).length;
  await t.run(prompt);
  const ends = t.toolEnds(tool);
  if (ends.length !== before + 1) throw new Error(`${tool} results after ${prompt}: expected ${before + 1}, got ${ends.length}`);
  return ends.at(-1)!;
}

/** `teammate_spawn` arguments as a tool call. */
export function spawnCall(name: string, agent: string, prompt?: string): ReplyToolCall {
  return { name: "teammate_spawn", arguments: { name, agent, ...(prompt === undefined ? {} : { prompt }) } };
}

/** `send_message` as a tool call. */
export function sendCall(to: string, message: string, status?: string): ReplyToolCall {
  return { name: "send_message", arguments: { to, message, ...(status === undefined ? {} : { status }) } };
}

/** The `/agent-teams` plain-text answer of an RPC leader (every page, from memory). */
export async function consoleText(t: Pick<Team, "leader">): Promise<string> {
  const child = t.leader.proc.child;
  let off: () => void = () => undefined;
  const answer = new Promise<string>((resolve) => {
    off = child.onUiRequest(({ request }) => {
      if (request.method === "notify" && request.message.startsWith("pi-resident-teams")) resolve(request.message);
    });
  });
  await t.leader.prompt("/agent-teams");
  return answer.finally(off);
}

/** Everything a model request showed: system prompt and all messages, flattened to text. */
export function callText(c: ModelCall): string {
  const parts = [c.system];
  for (const m of c.messages) {
    parts.push(contentText(m.content ?? null));
    for (const tc of m.tool_calls ?? []) parts.push(tc.function.arguments);
  }
  return parts.join("\n");
}


/** Polls `kill -0` on the pids every 50 ms for at most `budgetMs`; returns the pids still alive. */
export async function waitGone(pids: number[], budgetMs: number): Promise<{ alive: number[]; ms: number }> {
  const t0 = Date.now();
  for (;;) {
    const alive = pids.filter(isAlive);
    const ms = Date.now() - t0;
    if (alive.length === 0 || ms >= budgetMs) return { alive, ms };
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Polls `cond` every 25 ms until it holds, for at most `timeoutMs`. For state that has no event
 * to wait on (a file another process writes); never a fixed sleep.
 * @throws Error naming `what` on timeout.
 */
export async function waitUntil(what: string, cond: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const t0 = Date.now();
  while (!(await cond())) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The roster the harness writes (`roster.json`), or undefined while it does not exist. */
export async function readRoster(runtimeDir: string): Promise<{ teammates: { name: string; status: string; pid?: number }[] } | undefined> {
  try {
    return JSON.parse(await readFile(join(runtimeDir, "roster.json"), "utf8")) as { teammates: { name: string; status: string; pid?: number }[] };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Waits until the roster shows teammate `name` with `status`. */
export function waitStatus(runtimeDir: string, name: string, status: string, timeoutMs?: number): Promise<void> {
  return waitUntil(`${name} to be ${status} in the roster`, async () => {
    const roster = await readRoster(runtimeDir);
    return roster?.teammates.some((t) => t.name === name && t.status === status) ?? false;
  }, timeoutMs);
}

/** True for the `message_end` of a user message whose text is `text`. */
function isUserMessage(e: RpcEvent, text: string): boolean {
  if (e.type !== "message_end") return false;
  const m = e.message as { role?: string; content?: unknown };
  if (m.role !== "user") return false;
  const content = typeof m.content === "string" ? m.content : contentText(m.content as ChatMessage["content"]);
  return content === text;
}

/** The leader's finished tool execution `e`, with the arguments from its matching start event. */
export function toolEndOf(e: RpcEvent, events: readonly RpcEvent[]): ToolEnd | undefined {
  if (e.type !== "tool_execution_end") return undefined;
  const start = events.find((s) => s.type === "tool_execution_start" && s.toolCallId === e.toolCallId);
  const args = (start?.type === "tool_execution_start" ? start.args : {}) as Record<string, unknown>;
  const result = (e.result ?? {}) as { content?: { type?: string; text?: string }[]; details?: Record<string, unknown> };
  const text = (result.content ?? []).map((p) => (typeof p.text === "string" ? p.text : "")).join("");
  return { toolCallId: e.toolCallId, toolName: e.toolName, args, isError: e.isError, text, details: result.details ?? {} };
}

/** Lists every file below `dir` (relative paths), [] when it does not exist. */
export async function listFiles(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

/**
 * Starts the model, the env (agent files in `<cwd>/.pi/agents`) and the leader. Agents without a
 * script answer "ok". `leaderUi` answers the leader's dialogs (default: cancelled at once).
 */
export async function startTeam(opts: {
  agents: Record<string, string>;
  scripts?: Record<string, AgentScript>;
  leaderEnv?: Record<string, string>;
  /** settings.json keys and extra models for the env (see `createPiEnv`). */
  envOptions?: Pick<PiEnvOptions, "settings" | "extraModels">;
  /** Answers the leader's dialogs (default: cancelled at once). */
  leaderUi?: AnswerUi;
  /** The leader's extra CLI arguments, replacing the default `--no-session` (see `startLeader`). */
  leaderArgs?: string[];
}): Promise<Team> {
  const scripts = new Map(Object.entries(opts.scripts ?? {}));
  const model = await startScriptedModel({ handler: (c) => (scripts.get(c.agent) ?? (() => ({ text: "ok" })))(c) });
  const env = await createPiEnv({ model, ...opts.envOptions });
  const pids = new Set<number>();
  let leader: Leader | undefined;
  try {
    await writeAgents(env, opts.agents);
    leader = await startLeader(env, {
      ...(opts.leaderEnv ? { extraEnv: opts.leaderEnv } : {}),
      ...(opts.leaderUi ? { answerUi: opts.leaderUi } : {}),
      ...(opts.leaderArgs ? { args: opts.leaderArgs } : {}),
    });
  } catch (error) {
    await model.close();
    await env.cleanup();
    throw error;
  }
  const ld = leader;
  const toolEnds = (toolName?: string): ToolEnd[] =>
    ld.events.map((e) => toolEndOf(e, ld.events)).filter((t): t is ToolEnd => t !== undefined && (!toolName || t.toolName === toolName));
  ld.proc.child.onEvent((e) => {
    const t = toolEndOf(e, ld.events);
    if (t?.toolName === "teammate_spawn" && typeof t.details.pid === "number") pids.add(t.details.pid);
  });
  return {
    model,
    env,
    leader: ld,
    runtimeDir: join(env.agentDir, "teammate", sessionKey(undefined, env.cwd)),
    script(agent, fn) {
      scripts.set(agent, fn);
    },
    toolEnds,
    async waitToolEnds(toolName, count, timeoutMs = 30_000) {
      await ld.waitForEvent((e) => e.type === "tool_execution_end" && toolEnds(toolName).length >= count, timeoutMs);
      return toolEnds(toolName);
    },
    async run(prompt, timeoutMs = 30_000) {
      // Counting settles is racy (a settle of an earlier run may still be in flight), so find this
      // prompt's user message in the ordered event stream and wait for the next settle after it.
      const from = ld.events.length;
      await ld.prompt(prompt);
      const user = await ld.waitForEvent((e, i) => i >= from && isUserMessage(e, prompt), timeoutMs);
      const at = ld.events.indexOf(user);
      await ld.waitForEvent((e, i) => i > at && e.type === "agent_settled", timeoutMs);
    },
    pids,
    async stop() {
      try {
        await ld.stop();
      } finally {
        for (const pid of pids) if (isAlive(pid)) process.kill(pid, "SIGKILL");
        await model.close();
        await env.cleanup();
      }
    },
  };
}
