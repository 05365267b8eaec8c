/** The wiring and the lifecycle states of an `RpcChild` (src/process/rpc-client.ts). */
import type { Readable, Writable } from "node:stream";
import type { AnswerUi } from "./ui-dialogs.ts";

/** Options of `new RpcChild(...)`. */
export interface RpcChildOptions {
  /** The child's stdin. Commands are written here; RpcChild never destroys it (`endInput` ends it). */
  input: Writable;
  /** The child's stdout. RpcChild attaches an LF-only reader and detaches it on `close()`. */
  output: Readable;
  /** Names the child in every error message, e.g. `teammate alice (pid 4242)`. Default `pi child`. */
  label?: string;
  /** Returns the tail of the child's stderr for error messages. Must not throw (a throw is caught). */
  stderrTail?: () => string;
  /** Default per-request timeout in ms; `0` disables it. Default 30_000. */
  requestTimeoutMs?: number;
  /** Clock for `lastActivityAt` and UI records, in ms. Default `Date.now`. */
  now?: () => number;
  /** How many UI requests and violations are kept in the logs (oldest dropped first). Default 100. */
  logLimit?: number;
  /**
   * Answers the child's dialogs (see `AnswerUi` in ui-dialogs.ts). Default: none, every dialog is
   * answered `{cancelled:true}` at once so the child never blocks.
   */
  answerUi?: AnswerUi;
}

/** `open`; `input_closed` (stdin broke or `endInput`: sends reject, output still read); `closed`. */
export type RpcChildState = "open" | "input_closed" | "closed";
