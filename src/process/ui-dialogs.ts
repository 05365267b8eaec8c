/**
 * How an `RpcChild` answers its child's extension UI dialogs (W4). A dialog blocks the child until
 * an `extension_ui_response` arrives, so every dialog gets exactly one answer or, when the child
 * can no longer take one, is recorded `unanswered`: at once `{cancelled:true}` (the default), or
 * what the owner's answerer gives, whenever it gives it.
 */
import { errorText } from "../error-text.ts";
import type { RpcChildState } from "./rpc-child-options.ts";
import type { RpcChildRecorder, UiRequestRecord } from "./rpc-recorder.ts";
import { UI_DIALOG_METHODS, type RpcUiDialogRequest, type RpcUiRequest, type RpcUiResponse, type UiAnswer } from "./rpc-types.ts";

/**
 * Answers one dialog of the child (select, confirm, input, editor; never an unknown method, which
 * is cancelled at once). Called once per dialog, synchronously when the request arrives.
 *
 * Return `undefined` to cancel the dialog at once (as without an answerer), or a promise of the
 * answer: while it is pending the child stays blocked in that dialog. A promise resolving to
 * `undefined` or `{ cancelled: true }` cancels; an answer that does not fit the method (`confirmed`
 * for a select, `value` for a confirm) cancels too and is reported as a diagnostic, as is a throw
 * or a rejection. `signal` aborts once the child can take no answer any more (its stdin was ended
 * or broke, or it exited): drop the dialog then; a later answer is only recorded, `unanswered`.
 */
export type AnswerUi = (request: RpcUiDialogRequest, signal: AbortSignal) => Promise<UiAnswer | undefined> | undefined;

/** What `UiDialogs` needs from its `RpcChild`. */
export interface UiDialogsDeps {
  answerUi: AnswerUi | undefined;
  recorder: RpcChildRecorder;
  now: () => number;
  state: () => RpcChildState;
  /** Writes one record to the child's stdin; false when it could not (stdin closed or broken). */
  write: (record: RpcUiResponse) => boolean;
  /** Names the child in diagnostics. */
  label: string;
}

/**
 * The wire response for `answer` to `request`, and whether the answer fitted the method.
 * `undefined` and `{cancelled:true}` are a cancellation (fits). Pure.
 */
export function dialogResponse(request: RpcUiDialogRequest, answer: UiAnswer | undefined): { response: RpcUiResponse; fits: boolean } {
  const base = { type: "extension_ui_response", id: request.id } as const;
  const cancelled = { response: { ...base, cancelled: true }, fits: true } as const;
  if (answer === undefined || "cancelled" in answer) return cancelled;
  if (request.method === "confirm") {
    return "confirmed" in answer && typeof answer.confirmed === "boolean" ? { response: { ...base, confirmed: answer.confirmed }, fits: true } : { ...cancelled, fits: false };
  }
  return "value" in answer && typeof answer.value === "string" ? { response: { ...base, value: answer.value }, fits: true } : { ...cancelled, fits: false };
}

/** The dialogs of one child: answers each one once and records it. See {@link AnswerUi}. */
export class UiDialogs {
  readonly #d: UiDialogsDeps;
  /** Aborted when the child can take no more answers; every answerer gets this signal. */
  readonly #ended = new AbortController();

  constructor(deps: UiDialogsDeps) {
    this.#d = deps;
  }

  /** The child can take no more answers (stdin ended or broke, or it closed). Idempotent. */
  end(): void {
    this.#ended.abort();
  }

  /** One UI request as it arrives: recorded, and a dialog answered now or once the answerer answers. */
  onRequest(request: RpcUiRequest): void {
    const at = this.#d.now();
    // An unknown method might be a dialog of a newer Pi: cancel it (Pi ignores an answer to a non-dialog).
    if (request.method === "unknown") return this.#respond(at, request, { type: "extension_ui_response", id: request.id, cancelled: true });
    if (!UI_DIALOG_METHODS.has(request.method)) return this.#d.recorder.uiRequest({ at, request, answer: "none" });
    const dialog = request as RpcUiDialogRequest;
    const pending = this.#d.state() === "open" ? this.#ask(dialog) : undefined;
    if (pending === undefined) return this.#settle(at, dialog, undefined);
    pending.then(
      (answer) => this.#settle(at, dialog, answer),
      (error: unknown) => {
        this.#failed(`rejected for dialog ${dialog.id} (${dialog.method})`, error);
        this.#settle(at, dialog, undefined);
      },
    );
  }

  /**
   * A UI request whose fields did not parse (already reported as a violation): it may be a dialog
   * the child blocks on, so it is cancelled and recorded as an unknown method.
   */
  onMalformed({ id, method }: { id: string; method: string }): void {
    this.#respond(this.#d.now(), { type: "extension_ui_request", id, method: "unknown", rawMethod: method }, { type: "extension_ui_response", id, cancelled: true });
  }

  #ask(request: RpcUiDialogRequest): Promise<UiAnswer | undefined> | undefined {
    if (!this.#d.answerUi) return undefined;
    try {
      return this.#d.answerUi(request, this.#ended.signal);
    } catch (error) {
      this.#failed(`threw for dialog ${request.id} (${request.method})`, error);
      return undefined;
    }
  }

  /** Writes the answer (or a cancellation), reporting an answer that does not fit the method. */
  #settle(at: number, request: RpcUiDialogRequest, answer: UiAnswer | undefined): void {
    const { response, fits } = dialogResponse(request, answer);
    if (!fits) this.#failed(`gave ${JSON.stringify(answer)}, which does not answer a ${request.method} dialog (${request.id}); it was cancelled`, undefined);
    this.#respond(at, request, response);
  }

  /** Writes `response` if the child still takes one, and records the outcome. */
  #respond(at: number, request: RpcUiRequest, response: RpcUiResponse): void {
    const state = this.#d.state();
    const sent = state === "open" && this.#d.write(response);
    const outcome: UiRequestRecord["answer"] = !sent ? "unanswered" : "value" in response ? { value: response.value } : "confirmed" in response ? { confirmed: response.confirmed } : "cancelled";
    this.#d.recorder.uiRequest({ at, request, answer: outcome, answeredAt: this.#d.now() }, state !== "closed");
  }

  #failed(what: string, error: unknown): void {
    const detail = error === undefined ? "" : `: ${errorText(error)}`;
    this.#d.recorder.listenerFailed("ui_request", new Error(`${this.#d.label}: the dialog answerer ${what}${detail}`, { cause: error }));
  }
}
