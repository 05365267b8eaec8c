import { errorText } from "../error-text.ts";
import { oneLine } from "./format.ts";
import type { UiFg } from "./ports.ts";

/**
 * The console's status line and the last action's result (R61): a hint ("No teammate
 * selected."), or an action's "…ing" line and then its outcome. `result` is what the console
 * hands to `done` when it closes; an action still running then reports through `late`.
 */
export class ActionLine {
  /** The line shown, if any. */
  shown: { readonly text: string; readonly tone: UiFg } | undefined;
  /** The last action's line (its "…ing" line while it runs); hints do not change it. */
  result: string | undefined;
  readonly #changed: () => void;
  readonly #late: (text: string, tone: "success" | "error") => void;
  readonly #closed: () => boolean;

  /**
   * `changed` is called when an action settles (a redraw); `late(text, tone)` gets its outcome
   * when the console had closed on its "…ing" line (`closed` is asked then).
   */
  constructor(changed: () => void, late: (text: string, tone: "success" | "error") => void, closed: () => boolean) {
    this.#changed = changed;
    this.#late = late;
    this.#closed = closed;
  }

  /** Shows `text`; with `result`, it is also the last action's line. */
  set(text: string, tone: UiFg, result = false): void {
    this.shown = { text, tone };
    if (result) this.result = text;
  }

  /** Clears the line (the result stays). */
  clear(): void {
    this.shown = undefined;
  }

  /** Runs an action: `pending` now, then its one-line outcome, or the error's text. Never rejects. */
  run(pending: string, call: () => Promise<string>): void {
    const settled = (text: string, tone: "success" | "error"): void => {
      if (this.#closed() && this.result === pending) this.#late(text, tone); // `done` had the "…ing" line
      this.set(text, tone, true);
    };
    this.set(pending, "muted", true);
    Promise.resolve()
      .then(call)
      .then(
        (line) => settled(oneLine(line), "success"),
        (error: unknown) => settled(oneLine(errorText(error)), "error"),
      )
      .finally(() => this.#changed());
  }
}
