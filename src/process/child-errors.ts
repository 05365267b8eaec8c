/**
 * Typed errors and the end-of-life record of one RPC child. Callers branch on `TeamError.code`;
 * the subclasses only add fields for messages and diagnostics (style practices 8, 10).
 */
import { TeamError } from "../errors.ts";
import type { RpcCommandType } from "./rpc-types.ts";

/**
 * Why a child ended.
 * - `stopped`: it exited after our `stop()` asked it to (stdin EOF, abort, or SIGTERM).
 * - `timeout` / `aborted`: like `stopped`, but `stop()` was called with that reason (the owner
 *   gave up waiting, or the spawn's AbortSignal fired).
 * - `killed`: `stop()` had to escalate to SIGKILL.
 * - `exited`: it exited with code 0 on its own, unasked.
 * - `crashed`: it exited non-zero or by a signal we did not send, unasked.
 * - `spawn_failed`: the process could not be started.
 */
export type TerminationReason = "stopped" | "timeout" | "aborted" | "killed" | "exited" | "crashed" | "spawn_failed";

/** How a child ended. `code` and `signal` as Node reports them on `close` (at most one is non-null). */
export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  reason: TerminationReason;
}

/** "code 1", "signal SIGKILL", or "no exit status". */
export function describeExit(exit: ChildExit | undefined): string {
  if (!exit) return "exit status unknown";
  const status = exit.signal ? `signal ${exit.signal}` : exit.code === null ? "no exit status" : `code ${exit.code}`;
  return `${status}, ${exit.reason}`;
}

/** Append a stderr tail to a message, or say there was none. */
export function withStderr(message: string, stderrTail: string): string {
  const tail = stderrTail.trim();
  return tail ? `${message}\nStderr tail:\n${tail}` : `${message} (stderr was empty)`;
}

/**
 * code `child_exited`: the child ended (observed `close`, L21) or its stdin broke, so a request
 * can never be answered. One instance rejects every pending request of that child at once
 * (practice 7). `exit` is undefined when stdin failed before the exit status was known.
 */
export class ChildExitedError extends TeamError {
  readonly exit: ChildExit | undefined;
  readonly stderrTail: string;

  constructor(message: string, exit: ChildExit | undefined, stderrTail: string, options?: { cause?: unknown }) {
    super("child_exited", message, options);
    this.exit = exit;
    this.stderrTail = stderrTail;
  }
}

/**
 * code `invalid_input`: Pi answered a command with `success:false` (for example "Model not found:
 * x/y", or "Agent is already processing..."). `piError` is Pi's text verbatim; the message also
 * names the child, the command and the request id.
 */
export class RpcCommandError extends TeamError {
  readonly command: RpcCommandType;
  readonly requestId: string;
  readonly piError: string;

  constructor(label: string, command: RpcCommandType, requestId: string, piError: string) {
    super("invalid_input", `${label}: Pi rejected command ${command} (id ${requestId}): ${piError}`);
    this.command = command;
    this.requestId = requestId;
    this.piError = piError;
  }
}
