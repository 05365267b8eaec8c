import type { ConsoleActions, ConsolePage, ConsoleSnapshot, ModelChoice } from "./console-model.ts";
import type { KeybindingsLike, ThemeLike, TuiLike } from "./ports.ts";

/** What the lead passes to `TeamConsole` (console.ts); see the class docs there. */
export interface TeamConsoleOptions {
  readonly tui: TuiLike;
  readonly theme: ThemeLike;
  readonly keybindings: KeybindingsLike;
  /** The team as it is now; read by the constructor and by `refresh()` only. */
  readonly snapshot: () => ConsoleSnapshot;
  readonly actions: ConsoleActions;
  /** Models the picker offers; read when the picker opens. */
  readonly models: () => readonly ModelChoice[];
  /**
   * Closes the console (q, Esc, Ctrl+C); receives the last action's result (or its "…ing" line
   * while it still runs), undefined when no action ran: hints and "Cancelled." stay in the console.
   * Called at most once.
   */
  readonly done: (summary?: string) => void;
  /**
   * The result of an action that was still running when the console closed (`done` had its
   * "…ing" line), with its tone, once it settles. Not called for results shown before closing.
   */
  readonly lateResult?: (line: string, tone: "success" | "error") => void;
  /** The page shown first; default `teammates`. */
  readonly page?: ConsolePage;
  /** Called once when Pi disposes the console: after `done`, or without it at /reload. */
  readonly onDispose?: () => void;
}
