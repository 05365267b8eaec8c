/**
 * What an RpcChild records about its child: counters, the recent UI requests and protocol
 * violations, and the listeners for both. Nothing here is thrown into the app.
 */
import { Listeners } from "./listeners.ts";
import type { ProtocolViolation, ProtocolViolationReason, RpcUiRequest } from "./rpc-types.ts";

/** One extension UI request of the child, as recorded (a dialog once its answer was written). */
export interface UiRequestRecord {
  /** When it arrived (ms, from the injected clock). */
  at: number;
  request: RpcUiRequest;
  /**
   * `cancelled`: a dialog (or unknown method) we answered `{cancelled:true}`, at once or after
   * the answerer gave no answer. `{ value }` / `{ confirmed }`: the answer the answerer gave and we
   * wrote (src/process/ui-dialogs.ts). `unanswered`: a dialog we could not answer because stdin
   * was closed by then. `none`: fire-and-forget (notify, setStatus, setWidget, setTitle,
   * set_editor_text).
   */
  answer: "cancelled" | "unanswered" | "none" | { value: string } | { confirmed: boolean };
  /** When a dialog's answer was written or given up (ms); absent for fire-and-forget requests. */
  answeredAt?: number;
}

/** Something went wrong that is reported, never thrown into the app. */
export type RpcDiagnostic =
  | { kind: "protocol_violation"; violation: ProtocolViolation }
  | { kind: "listener_error"; channel: "event" | "ui_request" | "end"; error: unknown };

/** Counters since the child started. */
export interface RpcChildStats {
  linesRead: number;
  protocolViolations: number;
  violationsByReason: Partial<Record<ProtocolViolationReason, number>>;
  dialogsCancelled: number;
  /** Dialogs answered with a value or a confirmation from the answerer. */
  dialogsAnswered: number;
  listenerErrors: number;
}

/** Bounded logs plus counters of one child. `limit` caps each log (oldest dropped first). */
export class RpcChildRecorder {
  #limit: number;
  #ui: UiRequestRecord[] = [];
  #violations: ProtocolViolation[] = [];
  #uiListeners = new Listeners<UiRequestRecord>();
  #diagnosticListeners = new Listeners<RpcDiagnostic>();
  #stats: RpcChildStats = { linesRead: 0, protocolViolations: 0, violationsByReason: {}, dialogsCancelled: 0, dialogsAnswered: 0, listenerErrors: 0 };

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** A copy of the counters. */
  stats(): RpcChildStats {
    return { ...this.#stats, violationsByReason: { ...this.#stats.violationsByReason } };
  }

  /** A copy of the UI request log, oldest first. */
  uiRequests(): readonly UiRequestRecord[] {
    return [...this.#ui];
  }

  /** A copy of the violation log, oldest first. */
  violations(): readonly ProtocolViolation[] {
    return [...this.#violations];
  }

  /** @returns unsubscribe. */
  onUiRequest(listener: (record: UiRequestRecord) => void): () => void {
    return this.#uiListeners.add(listener);
  }

  /** @returns unsubscribe. */
  onDiagnostic(listener: (diagnostic: RpcDiagnostic) => void): () => void {
    return this.#diagnosticListeners.add(listener);
  }

  /** Count one stdout line. */
  lineRead(): void {
    this.#stats.linesRead++;
  }

  /**
   * Record a UI request (already answered or not) and, unless `emit` is false (the child has
   * closed: nothing is delivered any more), notify listeners.
   */
  uiRequest(record: UiRequestRecord, emit = true): void {
    if (record.answer === "cancelled") this.#stats.dialogsCancelled++;
    else if (typeof record.answer === "object") this.#stats.dialogsAnswered++;
    pushBounded(this.#ui, record, this.#limit);
    if (emit) this.#uiListeners.emit(record, (error) => this.listenerFailed("ui_request", error));
  }

  /** Count, log and report a protocol violation. */
  violation(found: ProtocolViolation): void {
    this.#stats.protocolViolations++;
    this.#stats.violationsByReason[found.reason] = (this.#stats.violationsByReason[found.reason] ?? 0) + 1;
    pushBounded(this.#violations, found, this.#limit);
    this.#diagnostic({ kind: "protocol_violation", violation: found });
  }

  /** Count and report a listener that threw. */
  listenerFailed(channel: "event" | "ui_request" | "end", error: unknown): void {
    this.#stats.listenerErrors++;
    this.#diagnostic({ kind: "listener_error", channel, error });
  }

  #diagnostic(diagnostic: RpcDiagnostic): void {
    // A failing diagnostic listener is only counted: reporting it would recurse.
    this.#diagnosticListeners.emit(diagnostic, () => this.#stats.listenerErrors++);
  }
}

function pushBounded<T>(log: T[], item: T, limit: number): void {
  log.push(item);
  if (log.length > limit) log.splice(0, log.length - limit);
}
