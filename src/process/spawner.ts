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
import { openStderrLog, type StderrLog } from "./stderr-log.ts";
import type { AnswerUi } from "./ui-dialogs.ts";

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

/** A process other than `process.execPath <piCli>`: a launcher (bwrap, ssh, ...) that runs pi. */
export interface SpawnCommand {
  /** The program, absolute or looked up on PATH (e.g. `bwrap`, `ssh`). */
  file: string;
  /** All its arguments (the pi command and its arguments included). */
  args: readonly string[];
  /** True: `env` is merged over `process.env`; false: the child gets `env` only. */
  extendEnv: boolean;
}

/** Options of `spawnPiChild`. */
export interface SpawnPiChildOptions {
  /** Path of the pi CLI script (`resolvePiCli()`); run as `process.execPath <piCli> ...args`. */
  piCli: string;
  /** Arguments after the script, e.g. `["--mode", "rpc", "--no-session", "--offline"]`. Passed as is. */
  args: readonly string[];
  /**
   * Run this instead of `process.execPath <piCli> ...args` (a launcher, src/launch/); `piCli` and
   * `args` are then used for the log header only. Default: none.
   */
  command?: SpawnCommand;
  /** Working directory of the child. */
  cwd: string;
  /** Merged over `process.env`; a key set to `undefined` is removed from the child's environment. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Stderr log file, appended to (dir created 0700, file 0600 if new). Never the leader's terminal. */
  stderrLog: string;
  /** Aborting it stops the child with reason `aborted` (graceful sequence, as `stop()`). */
  signal?: AbortSignal;
  /** Names the child in errors and the log header. The pid is appended. Default `pi child`. */
  label?: string;
  /** Default per-request RPC timeout in ms (see `RpcChildOptions`). Default 30_000. */
  requestTimeoutMs?: number;
  /** Clock in ms for log headers and activity times. Default `Date.now`. */
  now?: () => number;
  /**
   * After the process `exit` event, how long to wait for its stdio to close before destroying our
   * pipe ends (a grandchild may hold them open), in ms. `close` stays the only end signal (L21).
   * Default 2000.
   */
  closeAfterExitMs?: number;
  /** Answers the child's dialogs (`RpcChildOptions.answerUi`). Default: every dialog is cancelled at once. */
  answerUi?: AnswerUi;
  /**
   * Start the command through `setpriv` without CAP_SYS_ADMIN when the leader runs as root
   * (src/process/caps-drop.ts): for local pi children only, not a launcher that needs the
   * capability itself (bwrap). Default false.
   */
  dropSysAdmin?: boolean;
  /**
   * A teammate's spawn key (src/mail/seal.ts): written as hex plus LF into a pipe on the child's
   * fd 3, which is then closed, so only the child can read it (never the environment or a file).
   */
  spawnKey?: Buffer;
}

/** Options of `PiChild.stop`. */
export interface StopOptions {
  /** Phase 1 budget in ms: `abort` (if `abortFirst`) then stdin EOF, waiting for exit. Default 3000. */
  graceMs?: number;
  /** Phase 2 budget in ms: after SIGTERM. Then SIGKILL, only if still running. Default 2000. */
  termGraceMs?: number;
  /** Send an `abort` RPC first so a running turn unwinds cleanly (W3). Default true. */
  abortFirst?: boolean;
  /** The reason recorded unless SIGKILL was needed (`killed`). Default `stopped`. */
  reason?: "stopped" | "timeout" | "aborted";
}

/** A running (or ended) Pi child and its owner's handle. */
export interface PiChild {
  /** The RPC client of this child. */
  readonly child: RpcChild;
  readonly pid: number;
  /** Resolves once, on the process `close` event (L21). Never rejects. */
  readonly exited: Promise<ChildExit>;
  /** Aborted when the child has closed: hang owner timers and listeners off it. */
  readonly lifetime: AbortSignal;
  /** Undefined while running; set on `close`. */
  readonly terminationReason: TerminationReason | undefined;
  /** True until the process has exited (`exitCode === null && signalCode === null`). */
  readonly running: boolean;
  readonly stderrLogPath: string;
  /** The tail of what this child wrote to its stderr log (default 4096 bytes). Never throws. */
  stderrTail(maxBytes?: number): string;
  /** `waitReady(child, timeoutMs)`: resolves with the first `get_state` answer. @throws as `waitReady`. */
  waitReady(timeoutMs: number): Promise<RpcSessionState>;
  /**
   * Stop the child: (optional `abort` RPC, then) stdin EOF and wait `graceMs`; SIGTERM and wait
   * `termGraceMs`; SIGKILL only if `exitCode === null && signalCode === null`. Marks the child as
   * stopping synchronously, before the first await, so a `close` during teardown is classified as
   * requested, not as a crash (L22). Idempotent (later calls share the first call's promise).
   * Never rejects; resolves with the exit record after `close`.
   */
  stop(options?: StopOptions): Promise<ChildExit>;
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
