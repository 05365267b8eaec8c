/**
 * Support for the task-board end-to-end tests: one isolated team (scripted model, PiEnv, real
 * leader pi with this package) plus readers of the leader's board.json, and a small scripted
 * teammate that acts on leader directives, board notices and review findings. Workers decide
 * only from the current tool round or the newest user message, so no script can loop.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseBoardFile, type BoardFile } from "../../src/board/index.ts";
import { sessionKey } from "../../src/store/layout.ts";
import { startLeader, writeAgents, type Leader } from "./leader.ts";
import { createPiEnv, type PiEnv } from "./pi-env.ts";
import { contentText, startScriptedModel, type ReplyToolCall, type ScriptedModel } from "./scripted-model.ts";
import { isAlive, leaderCommands, toolEndOf, type AgentScript, type ToolEnd } from "./team.ts";

export { isAlive, leaderCommands, type AgentScript, type ToolEnd };

/** One task of board.json as the file holds it. */
export type FileTask = BoardFile["tasks"][number];

export interface BoardTeam {
  model: ScriptedModel;
  env: PiEnv;
  /** The current leader (replaced by `restartLeader`). */
  leader: Leader;
  /** `<agentDir>/tasks/<key>` of the current leader. */
  boardDir: string;
  /** `<agentDir>/teammate/<key>` of the current leader. */
  runtimeDir: string;
  script(agent: string, fn: AgentScript): void;
  /** The current leader's finished tool executions, optionally of one tool. */
  toolEnds(toolName?: string): ToolEnd[];
  /** Sends a prompt to the leader and waits for the run it starts to settle. */
  run(prompt: string, timeoutMs?: number): Promise<void>;
  /** Parsed board.json; throws when the file is not a valid board. Undefined when missing. */
  readBoard(): Promise<BoardFile | undefined>;
  /** Waits until board.json exists, parses, and satisfies `pred` (checked every 50 ms). */
  waitBoard(pred: (file: BoardFile) => boolean, timeoutMs?: number): Promise<BoardFile>;
  /** Stops the leader, runs `between`, and starts a new one in the same env with `args`. */
  restartLeader(args: string[], sessionFile: string | undefined, between?: () => Promise<void>): Promise<void>;
  /** Teammate pids seen in spawn results (killed at stop if still alive). */
  pids: Set<number>;
  stop(): Promise<void>;
}

/** The task `id` of a board file. */
export function taskOf(file: BoardFile, id: string): FileTask | undefined {
  return file.tasks.find((t) => t.id === id);
}

/** The holder name of a claimed / in-review / parked task. */
export function holderName(t: FileTask | undefined): string | undefined {
  const s = t?.state;
  return s && "holding" in s ? s.holding.holder.name : undefined;
}

export const spawnIdle = (name: string, agent = "worker"): ReplyToolCall => ({ name: "teammate_spawn", arguments: { name, agent } });
export const send = (to: string, message: string): ReplyToolCall => ({ name: "send_message", arguments: { to, message } });
export const create = (args: Record<string, unknown>): ReplyToolCall => ({ name: "task_create", arguments: args });
export const listCall: ReplyToolCall = { name: "task_list", arguments: {} };

/** A leader directive a `boardWorker` obeys: `CMD claim <id>` or `CMD submit <id> <status>`. */
export const cmd = (action: "claim" | "submit", taskId: string, status: "completed" | "failed" = "completed"): string =>
  action === "claim" ? `CMD claim ${taskId}` : `CMD submit ${taskId} ${status}`;

/** Options of `boardWorker`. */
export interface BoardWorkerOptions {
  /** Claim the first task a board notice names. */
  claimNotices?: boolean;
  /** Submit `completed` right after a claim is accepted. */
  submitAfterClaim?: boolean;
  /** Resubmit after review findings that invite it. */
  resubmitOnFindings?: boolean;
  /** Acknowledge a supersede notice with `task_submit(status="failed")`. */
  ackSupersede?: boolean;
}

const NOTICE_ID = /Board notice:[^\n]*\n- `([^`]+)`/;
const DIRECTIVE = /CMD (claim|submit) (\S+)(?: (completed|failed))?/g;
const CLAIMED = /^Claimed task ([^:\s]+):/;
const FINDINGS = /Review of `([^`]+)` failed \(attempt \d+\)\. You keep the claim/;
const SUPERSEDED = /Task `([^`]+)` is superseded by `[^`]+`[^\n]*Stop work on it/;

/**
 * A scripted teammate for board tests. On a new user message (no tool results) it acts on the
 * last leader directive in it, else on findings, a supersede notice or a board notice (as
 * configured); after an accepted claim it may submit; any other tool result ends its turn.
 */
export function boardWorker(o: BoardWorkerOptions = {}): AgentScript {
  return (c) => {
    const first = c.toolResults[0]?.content ?? "";
    if (c.toolResults.length > 0) {
      const claimed = CLAIMED.exec(first);
      if (claimed && o.submitAfterClaim) {
        return { toolCalls: [{ name: "task_submit", arguments: { taskId: claimed[1], status: "completed", result: `done ${claimed[1]} by ${c.agent}` } }] };
      }
      return { text: "ok" };
    }
    const directives = [...c.lastUser.matchAll(DIRECTIVE)];
    const last = directives.at(-1);
    if (last) {
      const [, action, taskId, status] = last;
      if (action === "claim") return { toolCalls: [{ name: "task_claim", arguments: { taskId } }] };
      return { toolCalls: [{ name: "task_submit", arguments: { taskId, status: status ?? "completed", result: `result of ${taskId} by ${c.agent}` } }] };
    }
    const findings = FINDINGS.exec(c.lastUser);
    if (findings && o.resubmitOnFindings) {
      return { toolCalls: [{ name: "task_submit", arguments: { taskId: findings[1], status: "completed", result: `fixed ${findings[1]}` } }] };
    }
    const sup = SUPERSEDED.exec(c.lastUser);
    if (sup && o.ackSupersede) return { toolCalls: [{ name: "task_submit", arguments: { taskId: sup[1], status: "failed", result: "superseded, stopping" } }] };
    const notice = NOTICE_ID.exec(c.lastUser);
    if (notice && o.claimNotices) return { toolCalls: [{ name: "task_claim", arguments: { taskId: notice[1] } }] };
    return { text: "ok" };
  };
}

/**
 * What `agent`'s model saw as the result of each of its `toolName` calls, in call order: the
 * `tool` message answering the call's id, found in any later request of that agent (a steered
 * message may follow it, so it is not always in the trailing `toolResults`).
 */
export function toolResultsSeen(model: ScriptedModel, agent: string, toolName: string): string[] {
  const calls = model.callsOf(agent);
  const out: string[] = [];
  for (const c of calls) {
    const tcs = (c.reply?.toolCalls ?? []).map((t, i) => ({ t, id: t.id ?? `call_${c.seq}_${i}` })).filter((x) => x.t.name === toolName);
    for (const { id } of tcs) {
      const seen = calls.find((later) => later.seq > c.seq && later.messages.some((m) => m.role === "tool" && m.tool_call_id === id));
      const msg = seen?.messages.find((m) => m.role === "tool" && m.tool_call_id === id);
      if (msg) out.push(contentText(msg.content ?? null));
    }
  }
  return out;
}

/**
 * Waits until `agent`'s model has seen the result of at least one `toolName` call and returns
 * them all (see {@link toolResultsSeen}). @throws Error after `timeoutMs` (ms) without one.
 */
export function firstToolResults(model: ScriptedModel, agent: string, toolName: string, timeoutMs = 30_000): Promise<string[]> {
  return until(`${agent}'s ${toolName} result`, () => {
    const seen = toolResultsSeen(model, agent, toolName);
    return seen.length > 0 ? seen : undefined;
  }, timeoutMs);
}

/** Polls `fn` every 50 ms until it returns a value other than undefined (a wait, not a sleep). */
export async function until<T>(what: string, fn: () => T | undefined | Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const t0 = Date.now();
  let lastError: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined) return v;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() - t0 > timeoutMs) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (last error: ${String(lastError)})` : ""}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Starts the model, the env (agent files in `<cwd>/.pi/agents`) and a leader. `before` runs
 * after the env exists and before the leader starts (e.g. to plant a board.json). `sessionFile`
 * names the session file the leader will use (for the key); default: none (--no-session).
 */
export async function startBoardTeam(opts: {
  agents: Record<string, string>;
  scripts?: Record<string, AgentScript>;
  extraEnv?: Record<string, string>;
  args?: (env: PiEnv) => string[];
  sessionFile?: (env: PiEnv) => string;
  before?: (team: { env: PiEnv; boardDir: string }) => Promise<void>;
}): Promise<BoardTeam> {
  const scripts = new Map(Object.entries(opts.scripts ?? {}));
  const logFile = process.env.BOARD_E2E_LOG; // debugging aid: every model call and reply as JSONL
  const model = await startScriptedModel({
    handler: (c) => (scripts.get(c.agent) ?? (() => ({ text: "ok" })))(c),
    ...(logFile ? { logFile } : {}),
  });
  const env = await createPiEnv({ model });
  const pids = new Set<number>();
  const dirsFor = (sessionFile: string | undefined) => {
    const key = sessionKey(sessionFile, env.cwd);
    return { boardDir: join(env.agentDir, "tasks", key), runtimeDir: join(env.agentDir, "teammate", key) };
  };
  let dirs = dirsFor(opts.sessionFile?.(env));
  const launch = async (args: string[] | undefined): Promise<Leader> => {
    const l = await startLeader(env, { ...(args ? { args } : {}), ...(opts.extraEnv ? { extraEnv: opts.extraEnv } : {}) });
    l.proc.child.onEvent((e) => {
      const t = toolEndOf(e, l.events);
      if (t?.toolName === "teammate_spawn" && typeof t.details.pid === "number") pids.add(t.details.pid);
    });
    return l;
  };
  let leader: Leader;
  try {
    await writeAgents(env, opts.agents);
    await opts.before?.({ env, boardDir: dirs.boardDir });
    leader = await launch(opts.args?.(env));
  } catch (error) {
    await model.close();
    await env.cleanup();
    throw error;
  }
  const readBoard = async (): Promise<BoardFile | undefined> => {
    let text: string;
    try {
      text = await readFile(join(team.boardDir, "board.json"), "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    const parsed = parseBoardFile(text);
    if (!parsed.ok) throw new Error(`board.json is not a valid board: ${parsed.message}`);
    return parsed.file;
  };
  const team: BoardTeam = {
    model,
    env,
    leader,
    boardDir: dirs.boardDir,
    runtimeDir: dirs.runtimeDir,
    script(agent, fn) {
      scripts.set(agent, fn);
    },
    toolEnds(toolName) {
      const ev = team.leader.events;
      return ev.map((e) => toolEndOf(e, ev)).filter((t): t is ToolEnd => t !== undefined && (!toolName || t.toolName === toolName));
    },
    async run(prompt, timeoutMs = 60_000) {
      const settled = team.leader.events.filter((e) => e.type === "agent_settled").length;
      await team.leader.prompt(prompt);
      await team.leader.waitSettledCount(settled + 1, timeoutMs);
    },
    readBoard,
    async waitBoard(pred, timeoutMs = 30_000) {
      return until("board.json to match", async () => {
        const file = await readBoard();
        return file && pred(file) ? file : undefined;
      }, timeoutMs);
    },
    async restartLeader(args, sessionFile, between) {
      await team.leader.stop();
      await between?.();
      dirs = dirsFor(sessionFile);
      team.boardDir = dirs.boardDir;
      team.runtimeDir = dirs.runtimeDir;
      team.leader = await launch(args);
    },
    pids,
    async stop() {
      try {
        await team.leader.stop();
      } finally {
        for (const pid of pids) if (isAlive(pid)) process.kill(pid, "SIGKILL");
        await model.close();
        if (process.env.BOARD_E2E_KEEP) console.log(`kept ${env.root}`);
        else await env.cleanup();
      }
    },
  };
  return team;
}
