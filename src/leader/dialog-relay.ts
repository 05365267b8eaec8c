/**
 * Teammate dialogs reach the user (issue 8, item 4). A dialog an extension raises inside a
 * teammate (a permission gate's `confirm`, a `select`, `input` or `editor`) is shown with the
 * leader's own `ctx.ui`, its title labelled with the teammate's name, and the answer goes back to
 * the teammate. The leader's model is never woken by a dialog: every dialog and its outcome only
 * becomes a Mail row (kind `dialog`, from the teammate, to `user`).
 */
import type { ExtensionUIContext, ExtensionUIDialogOptions } from "@earendil-works/pi-coding-agent";
import { errorText } from "../error-text.ts";
import type { RpcUiDialogRequest, UiAnswer } from "../process/index.ts";
import type { MailKind } from "../mail/index.ts";
import { DEFAULT_DIALOG_TIMEOUT_MS, MAX_WAITING_DIALOGS, dialogBody, dialogReceipt, dialogTimeoutMs, labelledTitle, type DialogCancel, type DialogOutcome } from "./dialog-text.ts";

/** The dialogs of the leader's `ctx.ui` the relay uses. */
export type DialogUi = Pick<ExtensionUIContext, "select" | "confirm" | "input" | "editor">;

/** Where the relay's rows and notes go (a `TeamFeed`, the harness note log). */
export interface DialogRelayOptions {
  /** Receives one Mail row per dialog, once it ended. Must not throw (a throw is caught). */
  feed: { mail(row: { kind: MailKind; from: string; to: string; body: string; receipt: string }): void };
  /** Notes for the harness log (a full queue, a failing UI). Must not throw (a throw is caught). */
  note?: (text: string) => void;
  /** Timeout of a dialog without its own, in ms, queue time included; 0 for none. Default 300000. */
  timeoutMs?: number;
  /** Dialogs that may wait behind the one shown. Default 16. */
  maxWaiting?: number;
  /** Clock in ms. Default `Date.now`. */
  now?: () => number;
}

/** One dialog from its arrival until its answer went back. */
interface Pending {
  teammate: string;
  request: RpcUiDialogRequest;
  /** Epoch ms by which it must be answered; undefined for no limit. */
  deadline: number | undefined;
  timeoutMs: number | undefined;
  /** Closes the dialog on the leader's screen (timeout, teammate stopped, session end). */
  close: AbortController;
  settled: boolean;
  resolve: (answer: UiAnswer | undefined) => void;
  /** Clears the timer and the teammate-signal listener. */
  release: () => void;
}

/**
 * Shows teammates' dialogs to the user one at a time, in arrival order (FIFO), with the leader's
 * `ctx.ui` (`attach`). A dialog waits while another is shown; at most `maxWaiting` wait, and one
 * beyond that is cancelled at once. Each is cancelled when unanswered by its deadline: its own
 * `timeout`, else `timeoutMs`, counted from its arrival (time in the queue included). A dialog
 * whose teammate can take no answer any more (its signal aborted) is dropped and its dialog closed
 * on the leader's screen. Without a UI (`pi -p`, json mode) every dialog is cancelled at once.
 * Holds no module state; one relay per leader session. Never throws and never rejects.
 */
export class DialogRelay {
  readonly #o: Required<Omit<DialogRelayOptions, "note">> & Pick<DialogRelayOptions, "note">;
  #ui: DialogUi | undefined;
  #mode = "no UI yet";
  #closed = false;
  readonly #queue: Pending[] = [];
  #showing: Pending | undefined;
  /** Holders that keep dialogs waiting (the open console, which would hide them). */
  #holds = 0;

  constructor(options: DialogRelayOptions) {
    this.#o = { timeoutMs: DEFAULT_DIALOG_TIMEOUT_MS, maxWaiting: MAX_WAITING_DIALOGS, now: Date.now, ...options };
  }

  /**
   * The leader's UI, from `session_start`: `ctx.ui` when `ctx.hasUI` (the TUI, or an RPC-mode
   * leader, whose client is its UI), else `undefined` with Pi's `ctx.mode` (`print`, `json`): its
   * dialogs stay cancelled. Call again after a session replacement; a closed relay ignores it.
   */
  attach(ui: DialogUi | undefined, mode: string): void {
    if (this.#closed) return;
    this.#ui = ui;
    this.#mode = mode;
    this.#pump();
  }

  /**
   * Keeps dialogs waiting (their deadlines still run) until the returned release is called: a
   * dialog opened under the full-screen console would take keys the user cannot see it take.
   */
  hold(): () => void {
    this.#holds += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#holds -= 1;
      this.#pump();
    };
  }

  /** Dialogs waiting behind the one shown. */
  get waiting(): number {
    return this.#queue.length;
  }

  /** The teammate whose dialog is on the leader's screen, if any. */
  get showing(): string | undefined {
    return this.#showing?.teammate;
  }

  /**
   * One dialog of `teammate` (the `answerUi` of its RpcChild). Returns `undefined` to cancel it at
   * once (no UI, relay closed, queue full, a select without options, `signal` already aborted),
   * else a promise of the user's answer; `undefined` from it means cancelled (timeout, dismissed,
   * teammate stopped, session end). `signal` aborts when the teammate can take no answer any more.
   */
  ask(teammate: string, request: RpcUiDialogRequest, signal?: AbortSignal): Promise<UiAnswer | undefined> | undefined {
    const refuse = (cancel: DialogCancel): undefined => {
      this.#row(teammate, request, { kind: "cancelled", cancel });
      return undefined;
    };
    if (this.#closed) return refuse({ why: "session_ended" });
    if (!this.#ui) return refuse({ why: "no_ui", mode: this.#mode });
    if (signal?.aborted) return refuse({ why: "teammate_stopped" });
    if (request.method === "select" && request.options.length === 0) return refuse({ why: "no_options" });
    if (this.#queue.length >= this.#o.maxWaiting) {
      this.#note(`@${teammate}: its ${request.method} dialog "${request.title}" was cancelled: ${this.#o.maxWaiting} dialogs were already waiting for the user.`);
      return refuse({ why: "queue_full", limit: this.#o.maxWaiting });
    }
    const timeoutMs = dialogTimeoutMs(request, this.#o.timeoutMs);
    return new Promise<UiAnswer | undefined>((resolve) => {
      const p: Pending = {
        teammate,
        request,
        timeoutMs,
        deadline: timeoutMs === undefined ? undefined : this.#o.now() + timeoutMs,
        close: new AbortController(),
        settled: false,
        resolve,
        release: () => undefined,
      };
      const timer = timeoutMs === undefined ? undefined : setTimeout(() => this.#cancel(p, { why: "timeout", ms: timeoutMs }), timeoutMs);
      const onStop = (): void => this.#cancel(p, { why: "teammate_stopped" });
      signal?.addEventListener("abort", onStop, { once: true });
      p.release = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onStop);
      };
      this.#queue.push(p);
      this.#pump();
    });
  }

  /**
   * The session ended: every waiting and shown dialog is cancelled (`session ended`), the UI is
   * dropped (a captured ctx is stale after session_shutdown), and later dialogs are cancelled at
   * once. Idempotent.
   */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#ui = undefined;
    for (const p of [...this.#queue, ...(this.#showing ? [this.#showing] : [])]) this.#cancel(p, { why: "session_ended" });
  }

  /** Cancels `p`: out of the queue, or closed on the screen; the teammate gets `cancelled` now. */
  #cancel(p: Pending, cancel: DialogCancel): void {
    if (p.settled) return;
    const at = this.#queue.indexOf(p);
    if (at >= 0) this.#queue.splice(at, 1);
    // An editor has no signal: it stays on the screen until the user closes it, but the teammate
    // is released now and whatever the user writes there is dropped.
    p.close.abort();
    this.#finish(p, { kind: "cancelled", cancel });
  }

  #finish(p: Pending, outcome: DialogOutcome): void {
    if (p.settled) return;
    p.settled = true;
    p.release();
    p.resolve(outcome.kind === "answered" ? outcome.answer : undefined);
    this.#row(p.teammate, p.request, outcome);
  }

  /** Shows the next waiting dialog, if none is shown. */
  #pump(): void {
    const ui = this.#ui;
    if (this.#showing || !ui || this.#holds > 0) return;
    let p = this.#queue.shift();
    while (p?.settled) p = this.#queue.shift(); // defensive: a cancelled dialog leaves the queue at once
    if (!p) return;
    this.#showing = p;
    void this.#show(ui, p)
      .then(
        (outcome) => this.#finish(p, outcome),
        (error: unknown) => {
          const message = errorText(error);
          this.#note(`@${p.teammate}: showing its ${p.request.method} dialog failed: ${message}`);
          this.#finish(p, { kind: "cancelled", cancel: { why: "ui_failed", error: message } });
        },
      )
      .finally(() => {
        this.#showing = undefined;
        this.#pump();
      });
  }

  /** One dialog on the leader's screen, until answered, dismissed, or closed by `p.close`. */
  async #show(ui: DialogUi, p: Pending): Promise<DialogOutcome> {
    const { request } = p;
    const left = p.deadline === undefined ? undefined : Math.max(1, p.deadline - this.#o.now());
    // Pi's own timeout shows a countdown; our timer (armed first, on arrival) fires no later.
    const opts: ExtensionUIDialogOptions = { signal: p.close.signal, ...(left === undefined ? {} : { timeout: left }) };
    const title = labelledTitle(p.teammate, request);
    let answer: UiAnswer | undefined;
    if (request.method === "confirm") answer = { confirmed: await ui.confirm(title, request.message, opts) };
    else {
      const value =
        request.method === "select" ? await ui.select(title, request.options, opts)
        : request.method === "input" ? await ui.input(title, request.placeholder, opts)
        : await ui.editor(title, request.prefill);
      answer = typeof value === "string" ? { value } : undefined;
    }
    const expired = p.deadline !== undefined && this.#o.now() >= p.deadline;
    const empty = answer === undefined || ("confirmed" in answer && !answer.confirmed);
    if (expired && empty) return { kind: "cancelled", cancel: { why: "timeout", ms: p.timeoutMs ?? 0 } };
    return answer === undefined ? { kind: "cancelled", cancel: { why: "user" } } : { kind: "answered", answer };
  }

  #row(teammate: string, request: RpcUiDialogRequest, outcome: DialogOutcome): void {
    try {
      this.#o.feed.mail({ kind: "dialog", from: teammate, to: "user", body: dialogBody(request), receipt: dialogReceipt(request, outcome) });
    } catch (error) {
      this.#note(`@${teammate}: could not record its dialog: ${String(error)}`);
    }
  }

  #note(text: string): void {
    try {
      this.#o.note?.(text);
    } catch {
      // A failing note log must not break a dialog.
    }
  }
}
