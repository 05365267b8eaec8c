/**
 * The words of relayed teammate dialogs (src/leader/dialog-relay.ts): the labelled title shown
 * to the user, the Mail row's body and receipt, and the `PI_TEAMMATE_DIALOG_TIMEOUT_MS` setting.
 * Pure.
 */
import { assertNever } from "../errors.ts";
import type { RpcUiDialogRequest, UiAnswer } from "../process/index.ts";
import { formatDuration } from "../team/heartbeat.ts";

/** Default time a teammate's dialog waits for the user, queue time included: 5 minutes. */
export const DEFAULT_DIALOG_TIMEOUT_MS = 5 * 60_000;
/** At most this many dialogs wait behind the one shown; more are cancelled at once. */
export const MAX_WAITING_DIALOGS = 16;
/** Longest timer Node can arm (2^31 - 1 ms, about 24.8 days); a longer one would fire at once. */
export const MAX_DIALOG_TIMEOUT_MS = 2 ** 31 - 1;
/** Longest answer text quoted in a receipt, in characters. */
const RECEIPT_TEXT_MAX = 80;

/** Why a relayed dialog was cancelled (its receipt says so). */
export type DialogCancel =
  /** Unanswered within its timeout (ms), the time waiting in the queue included. */
  | { why: "timeout"; ms: number }
  /** Its teammate can take no answer any more (stopped, crashed, or its stdin closed). */
  | { why: "teammate_stopped" }
  /** The leader has no UI to show it on (`pi -p`, `--mode json`): Pi's mode name. */
  | { why: "no_ui"; mode: string }
  /** The user dismissed it (Esc), or the editor/select/input came back empty-handed. */
  | { why: "user" }
  /** `MAX_WAITING_DIALOGS` were already waiting. */
  | { why: "queue_full"; limit: number }
  /** The leader's session ended (or had ended) while it waited. */
  | { why: "session_ended" }
  /** A select with no options: nothing the user could choose. */
  | { why: "no_options" }
  /** Showing it failed (the leader's UI threw); the message. */
  | { why: "ui_failed"; error: string };

/** How a relayed dialog ended. */
export type DialogOutcome = { kind: "answered"; answer: Exclude<UiAnswer, { cancelled: true }> } | { kind: "cancelled"; cancel: DialogCancel };

/**
 * Reads `PI_TEAMMATE_DIALOG_TIMEOUT_MS` (a whole number of ms; `0` means no limit). Unset or blank
 * gives the default; a bad value keeps the default and returns a warning naming the variable, the
 * value and what is accepted (shown to the user like the other PI_TEAMMATE_* warnings); a value
 * above `MAX_DIALOG_TIMEOUT_MS` is capped there, with a warning.
 */
export function resolveDialogTimeout(env: NodeJS.ProcessEnv): { timeoutMs: number; warnings: string[] } {
  const key = "PI_TEAMMATE_DIALOG_TIMEOUT_MS";
  const raw = env[key];
  if (raw === undefined || raw.trim() === "") return { timeoutMs: DEFAULT_DIALOG_TIMEOUT_MS, warnings: [] };
  if (!/^\d+$/.test(raw.trim())) {
    return { timeoutMs: DEFAULT_DIALOG_TIMEOUT_MS, warnings: [`${key}="${raw}" is not a whole number of milliseconds (0 means no limit); using ${DEFAULT_DIALOG_TIMEOUT_MS}.`] };
  }
  const ms = Number(raw.trim());
  if (ms > MAX_DIALOG_TIMEOUT_MS) return { timeoutMs: MAX_DIALOG_TIMEOUT_MS, warnings: [`${key}="${raw}" is longer than a timer can wait; using ${MAX_DIALOG_TIMEOUT_MS} (about 24 days).`] };
  return { timeoutMs: ms, warnings: [] };
}

/**
 * The timeout of one dialog in ms: its own `timeout` when that is a positive number, else
 * `fallbackMs`; `undefined` for no limit (`fallbackMs` 0 and no own timeout). An editor has none
 * of its own. Capped at `MAX_DIALOG_TIMEOUT_MS`.
 */
export function dialogTimeoutMs(request: RpcUiDialogRequest, fallbackMs: number): number | undefined {
  const own = request.method === "editor" ? undefined : request.timeout;
  if (own !== undefined && Number.isFinite(own) && own > 0) return Math.min(own, MAX_DIALOG_TIMEOUT_MS);
  return fallbackMs > 0 ? Math.min(fallbackMs, MAX_DIALOG_TIMEOUT_MS) : undefined;
}

/** The title shown to the user: the teammate's name first, e.g. `@gate: Allow rm -rf build?`. */
export function labelledTitle(teammate: string, request: RpcUiDialogRequest): string {
  return `@${teammate}: ${request.title}`;
}

/**
 * The Mail row's body: `<method>: <title>` on the first line (the row's title), then what the
 * dialog showed: the message (confirm), the options (select), the placeholder (input) or the
 * prefilled text (editor).
 */
export function dialogBody(request: RpcUiDialogRequest): string {
  const head = `${request.method}: ${request.title}`;
  switch (request.method) {
    case "confirm":
      return request.message ? `${head}\n${request.message}` : head;
    case "select":
      return `${head}\noptions: ${request.options.length > 0 ? request.options.join(" | ") : "(none)"}`;
    case "input":
      return request.placeholder ? `${head}\nplaceholder: ${request.placeholder}` : head;
    case "editor":
      return request.prefill ? `${head}\nprefill:\n${request.prefill}` : head;
    default:
      return assertNever(request, "dialog method");
  }
}

/**
 * The Mail row's receipt: `answered: yes` / `answered: no` (confirm), `chose: <option>` (select),
 * `answered: "<text>"` (input, editor; quoted, at most 80 characters), or `cancelled (<why>)`, e.g.
 * `cancelled (timeout 5m)`, `cancelled (teammate stopped)`, `cancelled (print mode)`.
 */
export function dialogReceipt(request: RpcUiDialogRequest, outcome: DialogOutcome): string {
  if (outcome.kind === "cancelled") return `cancelled (${cancelText(outcome.cancel)})`;
  const answer = outcome.answer;
  if ("confirmed" in answer) return `answered: ${answer.confirmed ? "yes" : "no"}`;
  if (request.method === "select") return `chose: ${answer.value}`;
  const quoted = JSON.stringify(answer.value);
  return `answered: ${quoted.length > RECEIPT_TEXT_MAX ? `${quoted.slice(0, RECEIPT_TEXT_MAX - 2)}…"` : quoted}`;
}

function cancelText(cancel: DialogCancel): string {
  switch (cancel.why) {
    case "timeout":
      return `timeout ${formatDuration(cancel.ms)}`;
    case "teammate_stopped":
      return "teammate stopped";
    case "no_ui":
      return `${cancel.mode} mode`;
    case "user":
      return "by the user";
    case "queue_full":
      return `${cancel.limit} dialogs already waiting`;
    case "session_ended":
      return "session ended";
    case "no_options":
      return "select without options";
    case "ui_failed":
      return `the leader's UI failed: ${cancel.error}`;
    default:
      return assertNever(cancel, "dialog cancel");
  }
}
