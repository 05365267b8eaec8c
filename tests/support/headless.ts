/**
 * A headless leader for end-to-end tests: `pi -p -a GO` with this package, a scripted model and an
 * isolated env, its stdout and stderr collected, and a bounded wait for its exit.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { PACKAGE_DIR, writeAgents } from "./leader.ts";
import { createPiEnv, type PiEnv } from "./pi-env.ts";
import { startScriptedModel, type ModelCall, type Reply, type ScriptedModel } from "./scripted-model.ts";
import { isAlive } from "./team.ts";

/** One `pi -p` run. */
export interface HeadlessRun {
  model: ScriptedModel;
  env: PiEnv;
  pi: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves when pi has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  startedAt: number;
  /** Teammate pids a test saw; `closeHeadless` kills those still alive. */
  pids: Set<number>;
}

/**
 * Starts `pi -p -a --no-extensions -e <package> --no-session GO` in a fresh env with `agents`
 * written to `.pi/agents`, every model call answered by `handler`. stdin is ignored: print mode
 * reads a piped stdin to its end before the prompt.
 */
export async function startHeadless(handler: (c: ModelCall) => Reply | Promise<Reply>, agents: Record<string, string>, extraEnv: Record<string, string> = {}): Promise<HeadlessRun> {
  const model = await startScriptedModel({ handler });
  const env = await createPiEnv({ model });
  await writeAgents(env, agents);
  const startedAt = Date.now();
  const pi = spawn(env.nodePath, [env.piCli, "-p", "-a", "--no-extensions", "-e", PACKAGE_DIR, "--no-session", "GO"], {
    cwd: env.cwd,
    env: { ...env.env, ...extraEnv },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  pi.stdout!.setEncoding("utf8").on("data", (d: string) => (out += d));
  pi.stderr!.setEncoding("utf8").on("data", (d: string) => (err += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) => {
    pi.once("close", (code, signal) => resolve({ code, signal, at: Date.now() }));
  });
  return { model, env, pi, stdout: () => out, stderr: () => err, exited, startedAt, pids: new Set() };
}

/** Waits for pi's exit, failing with its stdout and stderr after `timeoutMs`. */
export async function exitOf(r: HeadlessRun, timeoutMs: number) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`pi -p did not exit within ${timeoutMs} ms\nstdout: ${r.stdout()}\nstderr: ${r.stderr()}`)), timeoutMs);
  });
  try {
    return await Promise.race([r.exited, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Kills pi if still running, then its teammates, and removes the model and the env. */
export async function closeHeadless(r: HeadlessRun): Promise<void> {
  if (r.pi.exitCode === null && r.pi.signalCode === null) r.pi.kill("SIGKILL");
  await r.exited;
  for (const pid of r.pids) if (isAlive(pid)) process.kill(pid, "SIGKILL");
  await r.model.close();
  await r.env.cleanup();
}
