/**
 * Drives a real leader `pi --mode rpc` with this package loaded, for end-to-end tests and the
 * demo: spawn it in a PiEnv, prompt it, and wait on its RPC events (never on fixed sleeps).
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnPiChild, type AnswerUi, type PiChild, type RpcEvent } from "../../src/process/index.ts";
import type { PiEnv } from "./pi-env.ts";

/** Root of this package (loaded into the leader with `-e`). */
export const PACKAGE_DIR = dirname(dirname(dirname(fileURLToPath(import.meta.url))));

export interface Leader {
  proc: PiChild;
  pid: number;
  events: RpcEvent[];
  /** Sends a user prompt (it starts a run, or queues as a follow-up while one is active). */
  prompt(text: string): Promise<void>;
  /** Resolves with the first event (already seen or future) matching `pred`. */
  waitForEvent(pred: (e: RpcEvent, index: number) => boolean, timeoutMs?: number): Promise<RpcEvent>;
  /** Waits until `count` agent_settled events have been seen in total. */
  waitSettledCount(count: number, timeoutMs?: number): Promise<void>;
  /** Custom messages (reports, harness events) the leader's session appended, in order. */
  customMessages(customType?: string): { customType: string; content: string }[];
  stop(): Promise<void>;
}

/** Writes `.pi/agents/<name>.md` files into the project dir. */
export async function writeAgents(env: PiEnv, agents: Record<string, string>): Promise<void> {
  const dir = join(env.cwd, ".pi", "agents");
  await mkdir(dir, { recursive: true });
  for (const [file, text] of Object.entries(agents)) await writeFile(join(dir, file), text);
}

/** A plain agent definition file. */
export function agentFile(name: string, body: string, extra: Record<string, string> = {}): string {
  const lines = [`name: ${name}`, `description: ${name} role for tests`, ...Object.entries(extra).map(([k, v]) => `${k}: ${v}`)];
  return `---\n${lines.join("\n")}\n---\n${body}\n`;
}

/**
 * Starts a leader pi in `env.cwd` with this package (`-e`), trusting the project (`-a`) so
 * `.pi/agents` is used. `args` are appended (e.g. `--session-dir`). `answerUi` answers the
 * leader's own dialogs (its `extension_ui_request`s) like an RPC client's user would; without it
 * they are cancelled at once.
 */
export async function startLeader(env: PiEnv, opts: { args?: string[]; extraEnv?: Record<string, string>; answerUi?: AnswerUi } = {}): Promise<Leader> {
  const args = ["--mode", "rpc", "-a", "--no-extensions", "-e", PACKAGE_DIR, ...(opts.args ?? ["--no-session"])];
  const proc = await spawnPiChild({
    piCli: env.piCli,
    args,
    cwd: env.cwd,
    env: { ...env.env, ...opts.extraEnv },
    stderrLog: join(env.root, "leader.log"),
    label: "leader",
    ...(opts.answerUi ? { answerUi: opts.answerUi } : {}),
  });
  const events: RpcEvent[] = [];
  const waiters = new Set<() => void>();
  proc.child.onEvent((e) => {
    events.push(e);
    for (const w of [...waiters]) w();
  });
  await proc.waitReady(30_000);

  const waitForEvent = (pred: (e: RpcEvent, i: number) => boolean, timeoutMs = 30_000) =>
    new Promise<RpcEvent>((resolve, reject) => {
      const check = () => {
        const i = events.findIndex(pred);
        if (i < 0) return false;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(events[i]!);
        return true;
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`leader: no matching event within ${timeoutMs} ms; saw ${events.map((e) => e.type).join(",")}\n${proc.stderrTail(3000)}`));
      }, timeoutMs);
      if (!check()) waiters.add(check);
    });

  return {
    proc,
    pid: proc.pid,
    events,
    async prompt(text) {
      await proc.child.prompt(text, { streamingBehavior: "followUp" });
    },
    waitForEvent,
    async waitSettledCount(count, timeoutMs) {
      const settledUpTo = (i: number) => events.slice(0, i + 1).filter((e) => e.type === "agent_settled").length;
      await waitForEvent((e, i) => e.type === "agent_settled" && settledUpTo(i) >= count, timeoutMs);
    },
    customMessages(customType) {
      const out: { customType: string; content: string }[] = [];
      for (const e of events) {
        if (e.type !== "message_end") continue;
        const m = (e as { message?: { role?: string; customType?: string; content?: unknown } }).message;
        if (m?.role !== "custom" || (customType && m.customType !== customType)) continue;
        const content = typeof m.content === "string" ? m.content : JSON.stringify(m.content);
        out.push({ customType: m.customType ?? "", content });
      }
      return out;
    },
    async stop() {
      await proc.stop({ graceMs: 10_000, termGraceMs: 2000 });
    },
  };
}
