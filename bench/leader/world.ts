/**
 * The world of the real-leader benchmark: a scripted model whose answers a `Director` plays per
 * agent, an isolated pi env with one role, and a real leader `pi --mode rpc` loading this package
 * (tests/support/leader.ts), driven over its stdin like any RPC client. Every time is
 * `performance.now()` of this process: a model call's arrival is taken when the scripted model
 * hands it to the handler, a reply's when the handler returns it (the server writes it at once).
 *
 * Unlike the tests' env, the model entry sends no identity header: that header is a `!command`
 * pi runs through /bin/sh with execSync before every request (3-4 ms of blocked event loop per
 * request, more under load, in every process), a cost of the test setup no user has. Callers are
 * told apart by their request instead (`agentOf`).
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { agentFile, startLeader, writeAgents, type Leader } from "../../tests/support/leader.ts";
import { createPiEnv, type PiEnv } from "../../tests/support/pi-env.ts";
import { startScriptedModel, type ModelCall, type Reply, type ScriptedModel } from "../../tests/support/scripted-model.ts";

/** The role every benchmark teammate plays. */
export const ROLE = "worker";
export const ROLE_PROMPT = "You are a benchmark teammate. Do what the message says.";
/** Prefix of a bench command in a leader prompt: the rest is the JSON list of tool calls to make. */
const COMMAND = "BENCH-CMD ";

/**
 * Who made a call: a teammate by the name in its system prompt (src/worker/guidance.ts), a bare pi
 * by the `[bench-bare <name>]` tag its prompts carry, else the leader.
 */
export function agentOf(call: ModelCall): string {
  const mate = /## You are teammate "([^"]+)"/.exec(call.system);
  if (mate) return mate[1]!;
  const bare = /\[bench-bare ([^\]]+)\]/.exec(call.lastUser);
  return bare ? bare[1]! : "leader";
}

/** The bench-bare tag for a bare pi's prompts. */
export const bareTag = (name: string): string => `[bench-bare ${name}]`;

/** Answers one model call; `t` is its arrival time. */
export type Script = (call: ModelCall, t: number) => Reply | Promise<Reply>;

interface Waiter {
  agent: string;
  pred: (call: ModelCall) => boolean;
  resolve: (hit: { call: ModelCall; t: number }) => void;
}

/**
 * Plays the scripted model: one script per agent (default: answer "ok"), and waits on arrivals.
 * The model's own `calls` list is emptied on every call so 1,000s of request bodies stay unkept.
 */
export class Director {
  readonly #scripts = new Map<string, Script>();
  readonly #waiters = new Set<Waiter>();
  /** Model calls per agent since the start. */
  readonly counts = new Map<string, number>();
  model: ScriptedModel | undefined;

  /** The scripted model's handler. */
  readonly handler = (call: ModelCall): Reply | Promise<Reply> => {
    const t = performance.now();
    this.model?.calls.splice(0);
    const agent = agentOf(call);
    this.counts.set(agent, (this.counts.get(agent) ?? 0) + 1);
    for (const w of [...this.#waiters]) {
      if (w.agent !== agent || !w.pred(call)) continue;
      this.#waiters.delete(w);
      w.resolve({ call, t });
    }
    const script = this.#scripts.get(agent);
    return script ? script(call, t) : { text: "ok" };
  };

  /** From now on `agent`'s calls are answered by `script` (undefined: "ok" again). */
  play(agent: string, script: Script | undefined): void {
    if (script) this.#scripts.set(agent, script);
    else this.#scripts.delete(agent);
  }

  /** Total model calls so far. */
  get total(): number {
    return [...this.counts.values()].reduce((s, x) => s + x, 0);
  }

  /**
   * Resolves with the next call of `agent` matching `pred` (from now on) and its arrival time.
   * @throws Error naming `what` after `timeoutMs`.
   */
  next(agent: string, pred: (call: ModelCall) => boolean, what: string, timeoutMs = 60_000): Promise<{ call: ModelCall; t: number }> {
    return new Promise((resolve, reject) => {
      const w: Waiter = { agent, pred, resolve: (hit) => (clearTimeout(timer), resolve(hit)) };
      const timer = setTimeout(() => {
        this.#waiters.delete(w);
        reject(new Error(`benchmark: no model call for ${what} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#waiters.add(w);
    });
  }
}

/** What the benchmark reads of roster.json. */
export interface Roster {
  updatedAt: number;
  teammates: { name: string; status: string; pid?: number }[];
}

/** One tool call the leader's model makes. */
export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

export interface World {
  model: ScriptedModel;
  director: Director;
  env: PiEnv;
  leader: Leader;
  /**
   * Has the leader's model make `calls` in one reply (prompted with a bench command), then answer
   * "ok"; resolves once that run settled. `onReply` runs just before the tool calls are answered.
   */
  command(calls: ToolCall[], onReply?: () => void): Promise<void>;
  /**
   * Resolves once the leader has been settled (its last run event is `agent_settled`) with no
   * model call of anyone for `quietMs`.
   */
  quiet(quietMs?: number): Promise<void>;
  /** The leader's `agent_settled` events so far. */
  settledCount(): number;
  /** Resolves once the leader has settled `count` times in total. */
  settled(count: number, timeoutMs?: number): Promise<void>;
  /** Pids of the leader's living child processes (its teammates, and any shell pi runs). */
  leaderChildren(): Promise<number[]>;
  /** Teammate pids by name, from the runtime dir's roster.json. */
  rosterPids(): Promise<Map<string, number>>;
  /** The runtime dir's roster.json as last written, if there is one. */
  roster(): Promise<Roster | undefined>;
  /** Answers the leader's calls that are not part of a command (reports, events); undefined: "ok". */
  overlayLeader(script: Script | undefined): void;
  close(): Promise<void>;
}

/** What a benchmark adds to the world: more role files (name → file text), more settings.json keys. */
export interface WorldOptions {
  agents?: Record<string, string>;
  settings?: Record<string, unknown>;
}

/** Builds the env, starts the model and a real leader pi with this package; the leader is ready. */
export async function startWorld(extraEnv: Record<string, string> = {}, opts: WorldOptions = {}): Promise<World> {
  const director = new Director();
  const model = await startScriptedModel({ handler: director.handler });
  director.model = model;
  const env = await createPiEnv({ model, ...(opts.settings ? { settings: opts.settings } : {}) });
  await dropIdentityHeader(env.agentDir);
  await writeAgents(env, { [`${ROLE}.md`]: agentFile(ROLE, ROLE_PROMPT), ...opts.agents });
  // The peer-pair cap (W19) is off: the mail benches time runs of one pair longer than the cap;
  // so is the model-call rate (issue 18): a bench teammate answers as fast as the scripted model.
  const leader = await startLeader(env, { extraEnv: { PI_TEAMMATE_PEER_PAIR_CAP: "0", PI_TEAMMATE_LOOP_CALLS: "0", ...extraEnv } });
  let pending: { calls: ToolCall[]; onReply: (() => void) | undefined } | undefined;
  let seq = 0;
  let overlay: Script | undefined;
  director.play("leader", (call, t) => {
    if (call.toolResults.length > 0) return { text: "ok" };
    if (!call.lastUser.includes(COMMAND) || !pending) return overlay ? overlay(call, t) : { text: "ok" };
    const { calls, onReply } = pending;
    pending = undefined;
    onReply?.();
    return { toolCalls: calls.map((c) => ({ ...c, id: `bench_${++seq}` })) };
  });
  const settledCount = (): number => leader.events.filter((e) => e.type === "agent_settled").length;
  const settled = (count: number, timeoutMs = 120_000): Promise<void> => leader.waitSettledCount(count, timeoutMs);
  return {
    model, director, env, leader, settledCount, settled,
    async command(calls, onReply) {
      const first = `bench_${seq + 1}`;
      const answered = director.next("leader", (c) => c.toolResults.some((r) => r.id === first), `the results of ${calls[0]?.name}`, 120_000);
      pending = { calls, onReply };
      await leader.prompt(`${COMMAND}${JSON.stringify(calls.map((c) => c.name))}`);
      await answered;
      const from = leader.events.length;
      await leader.waitForEvent((e, i) => i >= from && e.type === "agent_settled", 120_000);
    },
    async quiet(quietMs = 300) {
      for (;;) {
        const total = director.total;
        await pause(quietMs);
        const last = leader.events.findLast((e) => e.type === "agent_start" || e.type === "agent_settled");
        if (director.total === total && last?.type !== "agent_start") return;
      }
    },
    leaderChildren: () => childrenOf(leader.pid),
    async rosterPids() {
      const out = new Map<string, number>();
      for (const t of (await readRoster(env.agentDir))?.teammates ?? []) if (t.pid !== undefined) out.set(t.name, t.pid);
      return out;
    },
    roster: () => readRoster(env.agentDir),
    overlayLeader(script) {
      overlay = script;
    },
    async close() {
      try {
        await leader.stop();
      } finally {
        await model.close();
        await env.cleanup();
      }
    },
  };
}

/** Removes the identity header (a per-request shell command) from the env's models.json. */
async function dropIdentityHeader(agentDir: string): Promise<void> {
  const path = join(agentDir, "models.json");
  const models = JSON.parse(await readFile(path, "utf8")) as { providers: Record<string, { headers?: unknown }> };
  for (const provider of Object.values(models.providers)) delete provider.headers;
  await writeFile(path, `${JSON.stringify(models, null, 2)}\n`);
}

/** Resolves after `ms` milliseconds. */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The leader's roster.json (its runtime dir is the only one under `<agent dir>/teammate/`), if readable. */
async function readRoster(agentDir: string): Promise<Roster | undefined> {
  const root = join(agentDir, "teammate");
  for (const key of await readdir(root).catch(() => [])) {
    const text = await readFile(join(root, key, "roster.json"), "utf8").catch(() => undefined);
    if (text === undefined) continue;
    try {
      return JSON.parse(text) as Roster;
    } catch {
      return undefined; // written whole and renamed into place, so this is not expected
    }
  }
  return undefined;
}

/** Living child pids of `pid`, from /proc/<pid>/task/<tid>/children (Linux). */
export async function childrenOf(pid: number): Promise<number[]> {
  const out: number[] = [];
  for (const tid of await readdir(`/proc/${pid}/task`).catch(() => [])) {
    const text = await readFile(`/proc/${pid}/task/${tid}/children`, "utf8").catch(() => "");
    for (const p of text.split(" ")) if (p.trim()) out.push(Number(p));
  }
  return out;
}
