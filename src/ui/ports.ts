/**
 * The narrow shapes of Pi's theme, keybindings manager and TUI that the console, the widget and
 * the renderers use. Pi's real objects satisfy them (checked in tests/unit/ui/ports.test.ts), and
 * tests pass small fakes. Theme lesson L16: call the methods on the theme object
 * (`theme.fg("accent", s)`), never destructured, and only with tokens Pi's theme has (an
 * unknown token throws `Unknown theme color`).
 */

/** Every foreground token the UI uses; each one exists in Pi's theme (pi-tui.md §5). */
export const UI_FG_TOKENS = ["accent", "muted", "dim", "success", "warning", "error", "text", "borderMuted"] as const;
/** A foreground token of {@link UI_FG_TOKENS}. */
export type UiFg = (typeof UI_FG_TOKENS)[number];

/** Every background token the UI uses (only with `bg()`). */
export const UI_BG_TOKENS = ["customMessageBg"] as const;
/** A background token of {@link UI_BG_TOKENS}. */
export type UiBg = (typeof UI_BG_TOKENS)[number];

/** The part of Pi's `Theme` the UI calls. Each method returns `text` wrapped in SGR codes. */
export interface ThemeLike {
  fg(token: UiFg, text: string): string;
  bg(token: UiBg, text: string): string;
  bold(text: string): string;
  inverse(text: string): string;
}

/** The configurable keybinding ids the console matches (Pi's `tui.select.*`). */
export type ConsoleKeybinding =
  | "tui.select.up"
  | "tui.select.down"
  | "tui.select.pageUp"
  | "tui.select.pageDown"
  | "tui.select.confirm"
  | "tui.select.cancel";

/** The part of Pi's keybindings manager the console uses: does raw input `data` trigger `id`? */
export interface KeybindingsLike {
  matches(data: string, id: ConsoleKeybinding): boolean;
}

/** The part of Pi's `TUI` the components use: the terminal size (cells) and a render request. */
export interface TuiLike {
  readonly terminal: { readonly rows: number; readonly columns: number };
  requestRender(): void;
}
