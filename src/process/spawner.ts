/**
 * Start and stop one Pi RPC child (style practice 6; L20, L21, L22, W3). One owner, one
 * AbortController (`lifetime`) per child: every timer of the stop sequence hangs off it and is
 * cancelled the moment the child's `close` event fires.
 */
import { execa } from "execa";
import { setTimeout as sleep } from "node:timers/promises";
import { onExit } from "signal-exit";
import { readHostCaps, withoutSysAdmin } from "./caps-drop.ts";
import { ChildExitedError, type ChildExit, type TerminationReason } from "./child-errors.ts";
import { RpcChild } from "./rpc-client.ts";
import { waitReady } from "./rpc-commands.ts";
import type { RpcSessionState } from "./rpc-types.ts";
import type { PiChild, SpawnCommand, SpawnPiChildOptions, StopOptions } from "./spawner-types.ts";
import { openStderrLog, type StderrLog } from "./stderr-log.ts";

export type { PiChild, SpawnCommand, SpawnPiChildOptions, Spawner, StopOptions } from "./spawner-types.ts";

function startSubprocess(options: SpawnPiChildOptions, command: SpawnCommand, stderrFd: number) {
  // The child writes stderr straight into the log file (no pump through this process, so the
  // tail is complete when `close` fires). execa passes any integer fd natively to spawn
  // (execa lib/stdio/type.js: 'native'); its types only list 3..9, hence the cast. Fd 3, when
  // asked for, is the pipe that carries the spawn key (src/mail/seal.ts).
  const stdio = ["pipe", "pipe", stderrFd as 3, ...(options.spawnKey ? ["pipe" as const] : [])] as const;
  const subprocess = execa(command.file, command.args, {
    cwd: options.cwd,
    env: options.env ?? {},
    extendEnv: command.extendEnv,
    stdio,
    buffer: false,
    reject: false,
    // setsid: its own session with no controlling terminal, so nothing in it can open /dev/tty
    // or push keystrokes into the user's terminal (issue 18). Still ref'd: the leader waits on
    // it as before. execa skips its `cleanup` for a detached child: the exit hook below does it.
    detached: true,
    cleanup: false,
    forceKillAfterDelay: false, // escalation is ours (stop), not execa's
    windowsHide: true,
  });
  // Kill the child if the leader process exits (what execa's `cleanup` does, signal-exit too);
  // a SIGKILLed leader cannot, and its children end on stdin EOF instead.
  const removeExitHook = onExit(() => void subprocess.kill());
  subprocess.once("close", () => removeExitHook());
  subprocess.once("error", () => removeExitHook());
  return subprocess;
}

type ChildSubprocess = ReturnType<typeof startSubprocess>;

/** The process to run: `options.command`, else `process.execPath <piCli> ...args` with the leader's environment. */
function commandOf(options: SpawnPiChildOptions): SpawnCommand {
  return options.command ?? { file: process.execPath, args: [options.piCli, ...options.args], extendEnv: true };
}

/**
 * Spawn `process.execPath <piCli> ...args` (or `options.command`) with piped stdin/stdout and stderr appended to
 * `stderrLog`, and wrap it in an `RpcChild`. Resolves once the process has spawned (not once
 * Pi is ready: call `waitReady`).
 * @throws TeamError `io_error` when the stderr log cannot be opened; `ChildExitedError`
 *   (code `child_exited`, reason `spawn_failed`) when the process cannot be started (bad cwd...);
 *   the signal's reason when `signal` is already aborted.
 */
export async function spawnPiChild(options: SpawnPiChildOptions): Promise<PiChild> {
  options.signal?.throwIfAborted();
  const now = options.now ?? Date.now;
  const label = options.label ?? "pi child";
  const plain = commandOf(options);
  const command = options.dropSysAdmin ? withoutSysAdmin(plain, await readHostCaps()) : plain;
  const shown = options.command || command !== plain ? [command.file, ...command.args] : [options.piCli, ...options.args];
  const log = openStderrLog(options.stderrLog, `=== ${new Date(now()).toISOString()} spawn ${label}: ${shown.join(" ")} ===`);
  let subprocess: ChildSubprocess;
  try {
    subprocess = startSubprocess(options, command, log.fd);
  } finally {
    log.closeFd(); // the child holds its own copy once spawn() returned
  }
  if (options.spawnKey) {
    const keyPipe = subprocess.stdio[3] as NodeJS.WritableStream | null;
    keyPipe?.on("error", () => undefined); // a child that died at once: its close tells the story
    keyPipe?.end(`${options.spawnKey.toString("hex")}\n`);
  }
  subprocess.then(undefined, () => undefined); // settled through events below
  await new Promise<void>((resolve, reject) => {
    subprocess.once("spawn", () => resolve());
    subprocess.once("error", (error) => {
      const exit: ChildExit = { code: null, signal: null, reason: "spawn_failed" };
      const { file, args } = commandOf(options);
      const message = `${label}: cannot start ${file} ${args[0] ?? ""} in ${options.cwd}: ${error.message}`;
      reject(new ChildExitedError(message, exit, log.tail(), { cause: error }));
    });
  });
  return new PiChildProcess(subprocess, log, label, options);
}

class PiChildProcess implements PiChild {
  readonly child: RpcChild;
  readonly pid: number;
  readonly exited: Promise<ChildExit>;
  readonly stderrLogPath: string;
  #subprocess: ChildSubprocess;
  #log: StderrLog;
  #lifetime = new AbortController();
  #stopReason: StopOptions["reason"] | undefined;
  #killSent = false;
  #stopping: Promise<ChildExit> | undefined;
  #terminationReason: TerminationReason | undefined;
  #closeAfterExitMs: number;

  constructor(
    subprocess: ChildSubprocess,
    log: StderrLog,
    label: string,
    options: SpawnPiChildOptions,
  ) {
    const { stdin, stdout, pid } = subprocess;
    if (!stdin || !stdout || pid === undefined) throw new Error("spawnPiChild: spawned process lacks stdin/stdout/pid");
    this.#subprocess = subprocess;
    this.#log = log;
    this.pid = pid;
    this.stderrLogPath = log.path;
    this.#closeAfterExitMs = options.closeAfterExitMs ?? 2000;
    this.child = new RpcChild({
      input: stdin,
      output: stdout,
      label: `${label} (pid ${pid})`,
      stderrTail: () => log.tail(),
      ...(options.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: options.requestTimeoutMs }),
      ...(options.now ? { now: options.now } : {}),
      ...(options.answerUi ? { answerUi: options.answerUi } : {}),
    });
    this.exited = new Promise<ChildExit>((resolve) => {
      subprocess.once("close", (code: number | null, signal: NodeJS.Signals | null) => {
        const exit: ChildExit = { code, signal, reason: this.#classify(code, signal) };
        this.#terminationReason = exit.reason;
        this.child.close(exit);
        this.#lifetime.abort();
        resolve(exit);
      });
    });
    subprocess.once("exit", () => void this.#closeAfterExit());
    options.signal?.addEventListener("abort", () => void this.stop({ reason: "aborted" }), {
      once: true,
      signal: this.#lifetime.signal,
    });
    // Aborted while we awaited the spawn: the listener above will never fire.
    if (options.signal?.aborted) void this.stop({ reason: "aborted" });
  }

  get lifetime(): AbortSignal {
    return this.#lifetime.signal;
  }

  get terminationReason(): TerminationReason | undefined {
    return this.#terminationReason;
  }

  get running(): boolean {
    return this.#subprocess.exitCode === null && this.#subprocess.signalCode === null;
  }

  stderrTail(maxBytes?: number): string {
    return this.#log.tail(maxBytes);
  }

  waitReady(timeoutMs: number): Promise<RpcSessionState> {
    return waitReady(this.child, timeoutMs);
  }

  stop(options: StopOptions = {}): Promise<ChildExit> {
    if (this.#terminationReason !== undefined) return this.exited;
    if (this.#stopping) return this.#stopping;
    this.#stopReason = options.reason ?? "stopped"; // synchronously, before any await (L22)
    this.#stopping = this.#runStop(options);
    return this.#stopping;
  }

  async #runStop({ graceMs = 3000, termGraceMs = 2000, abortFirst = true }: StopOptions): Promise<ChildExit> {
    const started = performance.now();
    if (abortFirst && this.running && this.child.state === "open") {
      const abort = this.child.abort({ timeoutMs: graceMs }).then(
        () => undefined,
        () => undefined, // a child that cannot abort still gets EOF and signals
      );
      await Promise.race([abort, this.exited]);
    }
    this.child.endInput("it is being stopped");
    const left = Math.max(0, graceMs - (performance.now() - started));
    if (await this.#closedWithin(left)) return this.exited;
    if (this.running) this.#subprocess.kill("SIGTERM");
    if (await this.#closedWithin(termGraceMs)) return this.exited;
    if (this.running) {
      this.#killSent = true;
      this.#subprocess.kill("SIGKILL");
    }
    return this.exited;
  }

  /** True if `close` fired within `ms`; false when the time ran out. */
  async #closedWithin(ms: number): Promise<boolean> {
    if (this.#lifetime.signal.aborted) return true;
    try {
      await sleep(ms, undefined, { signal: this.#lifetime.signal });
      return this.#lifetime.signal.aborted;
    } catch {
      return true; // aborted: the child closed
    }
  }

  /** `exit` without `close` (stdio held open elsewhere): destroy our pipe ends so `close` follows. */
  async #closeAfterExit(): Promise<void> {
    if (await this.#closedWithin(this.#closeAfterExitMs)) return;
    this.#subprocess.stdout?.destroy();
    this.#subprocess.stdin?.destroy();
  }

  #classify(code: number | null, signal: NodeJS.Signals | null): TerminationReason {
    if (this.#stopReason) return this.#killSent ? "killed" : this.#stopReason;
    return code === 0 && signal === null ? "exited" : "crashed";
  }
}
