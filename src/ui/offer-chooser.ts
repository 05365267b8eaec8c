import { matchesKey } from "@earendil-works/pi-tui";
import { at, oneLine } from "./format.ts";
import type { KeybindingsLike, ThemeLike } from "./ports.ts";

/**
 * The Board page's offer (`o`, issue 21): which idle teammate gets pending `taskId`, chosen with
 * ←/→ (or Tab) on the status line; Enter offers, Esc cancels.
 */
export class OfferChooser {
  /** The pending task on offer. */
  readonly taskId: string;
  private readonly names: readonly string[];
  private i = 0;

  /** `names`: the idle teammates, in the order shown; the first is chosen at first. */
  constructor(taskId: string, names: readonly string[]) {
    this.taskId = taskId;
    this.names = names;
  }

  /** One key: the teammate to offer to, `cancel`, or undefined (the choice moved, or an unknown key). */
  key(data: string, keybindings: KeybindingsLike): { offer: string } | "cancel" | undefined {
    if (keybindings.matches(data, "tui.select.cancel")) return "cancel";
    if (keybindings.matches(data, "tui.select.confirm")) return { offer: this.names[this.i]! };
    if (matchesKey(data, "left") || matchesKey(data, "shift+tab")) this.i = (this.i - 1 + this.names.length) % this.names.length;
    else if (matchesKey(data, "right") || matchesKey(data, "tab")) this.i = (this.i + 1) % this.names.length;
    return undefined;
  }

  /** The status line: `Offer #id to:` and the names, the chosen one inverse. */
  line(theme: ThemeLike): string {
    const choices = this.names.map((n, j) => (j === this.i ? theme.inverse(` ${at(n)} `) : ` ${at(n)} `)).join(" ");
    return `${theme.bold(`Offer #${oneLine(this.taskId)} to:`)} ${choices}`;
  }
}
