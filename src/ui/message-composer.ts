import { Editor, matchesKey, type EditorTheme, type TUI } from "@earendil-works/pi-tui";
import { pad } from "./console-render.ts";
import { at, fit } from "./format.ts";
import type { ThemeLike, TuiLike } from "./ports.ts";

/**
 * The console's message composer (`s` on the Teammates page, issue 21): Pi's own `Editor`
 * (multi-line, Enter sends, Shift+Enter a new line, its usual editing keys) under a line naming
 * the recipient. The console keeps Esc for itself (cancel) and passes every other key here.
 */
export class MessageComposer {
  /** The teammate the message is for. */
  readonly to: string;
  private readonly editor: Editor;

  /**
   * `onSubmit` gets the text when Enter is pressed on a non-blank message. Pi's `Editor` reads
   * only `terminal.rows` and `requestRender` of its TUI, which `TuiLike` has.
   */
  constructor(to: string, tui: TuiLike, theme: ThemeLike, onSubmit: (text: string) => void) {
    this.to = to;
    const editorTheme: EditorTheme = {
      borderColor: (s) => theme.fg("accent", s),
      selectList: {
        selectedPrefix: (s) => theme.fg("accent", s),
        selectedText: (s) => theme.fg("accent", s),
        description: (s) => theme.fg("muted", s),
        scrollInfo: (s) => theme.fg("dim", s),
        noMatch: (s) => theme.fg("warning", s),
      },
    };
    this.editor = new Editor(tui as unknown as TUI, editorTheme);
    this.editor.onSubmit = (text) => {
      if (text.trim() !== "") onSubmit(text);
    };
  }

  /** Whether the editor shows its cursor (the console passes its own `focused` down). */
  set focused(value: boolean) {
    this.editor.focused = value;
  }

  /** One key: Esc is `cancel`; anything else goes to the editor (Enter sends through `onSubmit`). */
  key(data: string): "cancel" | undefined {
    if (matchesKey(data, "escape")) return "cancel";
    this.editor.handleInput(data);
    return undefined;
  }

  /** Exactly `height` lines of `width` columns: who it is for, then the editor. */
  render(width: number, height: number, theme: ThemeLike): string[] {
    const title = fit(` ${theme.bold(`Message to ${at(this.to)}`)} ${theme.fg("muted", "(from you, with your authority; the leader is told with its next turn)")}`, width);
    return pad([title, "", ...this.editor.render(width)], width, height);
  }
}
