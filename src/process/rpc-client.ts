/**
 * `RpcChild`: the JSONL RPC client for ONE running `pi --mode rpc` child (W1, W4, L3, L21;
 * style practices 7, 10, 15). Transport only: it does not spawn, signal or stop processes
 * (spawner.ts owns the process and calls `close()` when the child's `close` event fires).
 */
import type { Writable } from "node:stream";
import { TeamError } from "../errors.ts";
import { ChildExitedError, RpcCommandError, describeExit, withStderr, type ChildExit } from "./child-errors.ts";
import { attachJsonlReader, serializeJsonLine } from "./jsonl.ts";
import { Listeners } from "./listeners.ts";
import { PendingRequests } from "./pending-requests.ts";
import { parseResponseData } from "./rpc-response-data.ts";
import { parseRpcLine, violation } from "./rpc-parse.ts";
import type { ProtocolViolation, RpcCommand, RpcEvent, RpcResponse, RpcResponseData } from "./rpc-types.ts";
import { RpcChildRecorder, type RpcChildStats, type RpcDiagnostic, type UiRequestRecord } from "./rpc-recorder.ts";
import { RpcCommands, type SendOptions } from "./rpc-commands.ts";
import type { RpcChildOptions, RpcChildState } from "./rpc-child-options.ts";
import { UiDialogs } from "./ui-dialogs.ts";

export type { RpcChildOptions, RpcChildState } from "./rpc-child-options.ts";

const DEFAULT_TIMEOUT_MS = 30_000;
const STREAMING_BEHAVIORS: ReadonlySet<string> = new Set(["steer", "followUp"]);

/**
 * Client for one running Pi RPC child. Typed helpers (`prompt`, `getState`, `nextEvent`, ...) are
 * inherited from `RpcCommands`.
 *
 * Requests are correlated by a unique `id`; responses are awaited, never assumed (W1). When the
 * child ends or its stdin breaks, every pending request rejects at once with one
 * `ChildExitedError` (code `child_exited`) naming the exit status and the stderr tail. After
 * `close()` no event, response or UI request is delivered any more (generation guard: late
 * output of this child never reaches the owner of its successor).
 */
export class RpcChild extends RpcCommands {
  readonly label: string;
  #input: Writable;
  #state: RpcChildState = "open";
  #endError: ChildExitedError | undefined;
  #exit: ChildExit | undefined;
  #seq = 0;
  #pending = new PendingRequests();
  #detachReader: () => void;
  #stderrTail: () => string;
  #timeoutMs: number;
  #now: () => number;
  #lastActivityAt: number;
  #recorder: RpcChildRecorder;
  #events = new Listeners<RpcEvent>();
  #ends = new Listeners<ChildExitedError>();
  #endNotified = false;
  #dialogs: UiDialogs;

  constructor(options: RpcChildOptions) {
    super();
    this.label = options.label ?? "pi child";
    this.#input = options.input;
    this.#stderrTail = options.stderrTail ?? (() => "");
    this.#timeoutMs = options.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#now = options.now ?? Date.now;
    this.#lastActivityAt = this.#now();
    this.#recorder = new RpcChildRecorder(options.logLimit ?? 100);
    this.#dialogs = new UiDialogs({
      answerUi: options.answerUi,
      recorder: this.#recorder,
      now: this.#now,
      state: () => this.#state,
      write: (record) => this.#write(record),
      label: this.label,
    });
    // Kept for the child's whole life: an EPIPE on an unlistened stdin would crash the leader.
    this.#input.on("error", (error: Error) => this.#inputFailed(error));
    this.#detachReader = attachJsonlReader(options.output, (line) => this.#onLine(line));
  }

  /** Lifecycle state, see `RpcChildState`. */
  get state(): RpcChildState {
    return this.#state;
  }

  /** How the child ended, once `close()` was called. */
  get exit(): ChildExit | undefined {
    return this.#exit;
  }

  /** Number of requests awaiting a response. */
  get pendingCount(): number {
    return this.#pending.size;
  }

  /** The default request timeout in ms (also the default of `nextEvent`). */
  get requestTimeoutMs(): number {
    return this.#timeoutMs;
  }

  /** Time of the last stdout line (ms, injected clock); the construction time before any output. */
  get lastActivityAt(): number {
    return this.#lastActivityAt;
  }

  /** A snapshot of the counters. */
  get stats(): RpcChildStats {
    return this.#recorder.stats();
  }

  /** The most recent UI requests (at most `logLimit`), oldest first. */
  get uiRequests(): readonly UiRequestRecord[] {
    return this.#recorder.uiRequests();
  }

  /** The most recent protocol violations (at most `logLimit`), oldest first. */
  get violations(): readonly ProtocolViolation[] {
    return this.#recorder.violations();
  }

  /**
   * Send one command and resolve with its typed `data` once the matching response arrives.
   * @throws (rejects) `RpcCommandError` (code `invalid_input`) when Pi answers `success:false`;
   *   `ChildExitedError` (code `child_exited`) when the child ended or stdin broke first;
   *   `TeamError` `timeout` after `timeoutMs` without a response (the timer is cleared on settle);
   *   `TeamError` `protocol_violation` when the response does not fit the command;
   *   `TeamError` `invalid_input` for a `prompt` without a valid `streamingBehavior` (L3).
   */
  send<C extends RpcCommand>(command: C, options: SendOptions = {}): Promise<RpcResponseData[C["type"]]> {
    if (this.#state !== "open") return Promise.reject(this.#endError ?? this.#notOpenError(command.type));
    if (command.type === "prompt" && !STREAMING_BEHAVIORS.has(command.streamingBehavior)) {
      const got = String(command.streamingBehavior);
      const message = `${this.label}: prompt needs streamingBehavior "steer" or "followUp" (got ${got}); Pi rejects a prompt without it while the child is busy (L3).`;
      return Promise.reject(new TeamError("invalid_input", message));
    }
    const id = `r${++this.#seq}`;
    const timeoutMs = options.timeoutMs ?? this.#timeoutMs;
    return new Promise<RpcResponseData[C["type"]]>((resolve, reject) => {
      const settle = (response: RpcResponse): void => {
        if (!response.success) return reject(new RpcCommandError(this.label, command.type, id, response.error));
        const data = parseResponseData<C["type"]>(command.type, response.data);
        if (data.ok) return resolve(data.value);
        this.#report(violation("bad_response_data", data.message, JSON.stringify(response)));
        reject(new TeamError("protocol_violation", `${this.label}: response to ${command.type} (id ${id}) has unexpected data: ${data.message}`));
      };
      const stuck = `${this.label}: no response to ${command.type} (id ${id}) within ${timeoutMs} ms. The child may be stuck or overloaded: check get_state, or stop and respawn it.`;
      const onTimeout = (): TeamError => new TeamError("timeout", withStderr(stuck, this.#safeStderrTail()));
      this.#pending.add({ id, command: command.type, settle, reject }, timeoutMs, onTimeout);
      this.#write({ ...command, id });
    });
  }

  /** Subscribe to session events (not responses or UI requests), in stdout order. @returns unsubscribe. */
  onEvent(listener: (event: RpcEvent) => void): () => void {
    return this.#events.add(listener);
  }

  /**
   * Subscribe to recorded extension UI requests: fire-and-forget ones as they arrive, dialogs once
   * answered (at once, or when the `answerUi` answerer answered). @returns unsubscribe.
   */
  onUiRequest(listener: (record: UiRequestRecord) => void): () => void {
    return this.#recorder.onUiRequest(listener);
  }

  /** Subscribe to protocol violations and listener errors. @returns unsubscribe. */
  onDiagnostic(listener: (diagnostic: RpcDiagnostic) => void): () => void {
    return this.#recorder.onDiagnostic(listener);
  }

  /**
   * Called once with the `ChildExitedError` when the child can no longer answer (stdin broke, or
   * `close()`); called at once if that already happened. @returns unsubscribe.
   */
  onEnd(listener: (error: ChildExitedError) => void): () => void {
    if (this.#endNotified && this.#endError) {
      listener(this.#endError);
      return () => undefined;
    }
    return this.#ends.add(listener);
  }

  /**
   * Close the child's stdin (Pi's orderly shutdown request). Later `send`s reject with
   * `child_exited` naming `why`; requests already pending stay pending, since Pi finishes pending
   * work before it exits, and are rejected by `close()` if unanswered. Idempotent.
   */
  endInput(why: string): void {
    if (this.#state !== "open") return;
    this.#state = "input_closed";
    this.#endError = new ChildExitedError(`${this.label}: ${why}; it accepts no more commands.`, undefined, "");
    this.#dialogs.end();
    try {
      this.#input.end();
    } catch {
      // Already destroyed: the close event will follow and settle everything.
    }
  }

  /**
   * The child ended: the owner calls this on the process `close` event (L21), not on `exit`.
   * Rejects every pending request (and `nextEvent` waiter) with one `ChildExitedError`, detaches
   * the stdout reader and drops all later output. Idempotent: only the first call counts.
   */
  close(exit: ChildExit): void {
    if (this.#state === "closed") return;
    const pending = this.#pending.summary();
    this.#state = "closed";
    this.#exit = exit;
    this.#detachReader();
    const stderr = this.#safeStderrTail();
    const message = withStderr(
      `${this.label} exited (${describeExit(exit)})${pending ? ` with requests pending: ${pending}` : ""}. ` +
        "Respawn it to continue; its stderr log has the details.",
      stderr,
    );
    this.#end(new ChildExitedError(message, exit, stderr));
  }

  #inputFailed(error: Error): void {
    if (this.#state === "closed") return;
    if (this.#state === "input_closed" && this.#pending.size === 0) return;
    this.#state = "input_closed";
    const pending = this.#pending.summary();
    const stderr = this.#safeStderrTail();
    const message = withStderr(
      `${this.label}: writing to its stdin failed (${error.message})${pending ? `; requests pending: ${pending}` : ""}. ` +
        "The child has probably exited; wait for its exit status, then respawn it.",
      stderr,
    );
    this.#end(new ChildExitedError(message, undefined, stderr, { cause: error }));
  }

  #end(error: ChildExitedError): void {
    this.#endError = error; // close() replaces a stdin failure: later sends see the exit status
    this.#pending.rejectAll(error);
    this.#dialogs.end();
    if (this.#endNotified) return;
    this.#endNotified = true;
    this.#ends.emit(error, (e) => this.#recorder.listenerFailed("end", e));
  }

  #notOpenError(what: string): ChildExitedError {
    return new ChildExitedError(`${this.label}: cannot send ${what}, the child is ${this.#state}.`, this.#exit, this.#safeStderrTail());
  }

  #safeStderrTail(): string {
    try {
      return this.#stderrTail();
    } catch {
      return "(stderr tail unavailable)";
    }
  }

  #write(record: object): boolean {
    if (this.#input.destroyed || this.#input.writableEnded) {
      this.#inputFailed(new Error("stdin is already closed"));
      return false;
    }
    try {
      // Backpressure is left to the stream's buffer: commands are small and rare.
      this.#input.write(serializeJsonLine(record), (error) => {
        if (error) this.#inputFailed(error);
      });
      return true;
    } catch (error) {
      this.#inputFailed(error instanceof Error ? error : new Error(String(error)));
      return false;
    }
  }

  #onLine(line: string): void {
    if (this.#state === "closed") return;
    this.#recorder.lineRead();
    this.#lastActivityAt = this.#now();
    const parsed = parseRpcLine(line);
    if (!parsed.ok) {
      if (parsed.uiRequest) this.#dialogs.onMalformed(parsed.uiRequest);
      return this.#report(parsed.violation);
    }
    const record = parsed.record;
    if (record.kind === "response") return this.#onResponse(record.response, line);
    if (record.kind === "ui_request") return this.#dialogs.onRequest(record.request);
    this.#events.emit(record.event, (e) => this.#recorder.listenerFailed("event", e));
  }

  #onResponse(response: RpcResponse, line: string): void {
    if (response.id === undefined) {
      const detail = response.success ? "success response without id" : `failure without id: ${response.error}`;
      return this.#report(violation("uncorrelated_error", `${response.command}: ${detail}`, line));
    }
    const request = this.#pending.take(response.id);
    if (!request) return this.#report(violation("unmatched_response", `no pending request with id ${response.id}`, line));
    if (response.command !== request.command) {
      const message = `response id ${response.id} names command ${response.command}, but ${request.command} was sent`;
      this.#report(violation("bad_response_data", message, line));
      return request.reject(new TeamError("protocol_violation", `${this.label}: ${message}.`));
    }
    request.settle(response);
  }

  #report(found: ProtocolViolation): void {
    this.#recorder.violation(found);
  }
}
