/**
 * What `spawnPiChild` (src/process/spawner.ts) takes and gives: the command, the spawn and stop
 * options, and the handle of a running child.
 */
import type { ChildExit, TerminationReason } from "./child-errors.ts";
import type { RpcChild } from "./rpc-client.ts";
import type { RpcSessionState } from "./rpc-types.ts";
import type { AnswerUi } from "./ui-dialogs.ts";

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
 * Starts a Pi child: `spawnPiChild` in production, a fake over in-memory pipes in unit tests
 * (tests/support/fake-pi-child.ts). @throws as `spawnPiChild`.
 */
export type Spawner = (options: SpawnPiChildOptions) => Promise<PiChild>;
