import { fuzzyFilter, fuzzyMatch, Input } from "@earendil-works/pi-tui";
import type { ModelChoice } from "./console-model.ts";
import { ListCursor } from "./cursor.ts";
import { clip, fit, oneLine } from "./format.ts";
import type { ThemeLike } from "./ports.ts";

/**
 * The console's team-model picker (`m`, R61): pi-tui's `Input` as a fuzzy filter over
 * `provider/id` (`fuzzyFilter`; `SelectList` only matches prefixes, pi-tui.md §0) and a list
 * whose first entry, "Pi default", clears the team model. The console routes every key that is
 * not a list key here first, so typing `q` filters and never closes (pi-tui.md §11.16).
 */

/** The label of the entry that clears the team model. */
export const PI_DEFAULT_LABEL = "Pi default";

/** One pickable entry: a model, or `model: undefined` for "Pi default". */
export interface PickerEntry {
  readonly label: string;
  readonly model: ModelChoice | undefined;
}

/** A model as the picker shows and filters it: `provider/id`. */
export function modelLabel(m: ModelChoice): string {
  return `${m.provider}/${m.id}`;
}

/**
 * The entries for `query`: with no query, "Pi default" then every model in the given order;
 * with one, the fuzzy matches best first, and "Pi default" last when it matches too.
 */
export function pickerEntries(models: readonly ModelChoice[], query: string): PickerEntry[] {
  const piDefault: PickerEntry = { label: PI_DEFAULT_LABEL, model: undefined };
  const q = query.trim();
  if (q === "") return [piDefault, ...models.map((m) => ({ label: modelLabel(m), model: m }))];
  const matches = fuzzyFilter([...models], q, modelLabel).map((m) => ({ label: modelLabel(m), model: m }));
  return fuzzyMatch(q, PI_DEFAULT_LABEL).matches ? [...matches, piDefault] : matches;
}

/** The picker's state: the filter input, the filtered entries and the selection. */
export class ModelPicker {
  private readonly input = new Input({ placeholder: "type to filter models" });
  private readonly models: readonly ModelChoice[];
  private readonly cursor = new ListCursor();
  private entries: PickerEntry[];

  /** `models` is read once, when the picker opens. */
  constructor(models: readonly ModelChoice[]) {
    this.models = models;
    this.entries = pickerEntries(models, "");
  }

  /** Whether the input shows its cursor (the console passes its own `focused` down, pi-tui.md §1). */
  set focused(value: boolean) {
    this.input.focused = value;
  }

  /** Feeds one key to the filter input; a changed query refilters and selects the best match. */
  type(data: string): void {
    const before = this.input.getValue();
    this.input.handleInput(data);
    const query = this.input.getValue();
    if (query === before) return;
    this.entries = pickerEntries(this.models, query);
    this.cursor.reset();
  }

  /** Moves the selection by `delta` entries, clamped. */
  move(delta: number): void {
    this.cursor.move(delta, this.keys());
  }

  /** The selected entry; undefined when nothing matches. */
  selected(): PickerEntry | undefined {
    const i = this.cursor.sync(this.keys());
    return i < 0 ? undefined : this.entries[i];
  }

  /**
   * Exactly `height` lines of `width` columns: the input line, a count line, then the window of
   * entries with the selection marked `▸` and bold/inverse (backgrounds vanish under tmux, pi-tui.md §5).
   */
  render(width: number, height: number, theme: ThemeLike): string[] {
    const keys = this.keys();
    const selected = this.cursor.sync(keys);
    const lines = [fit(this.input.render(Math.max(1, width))[0] ?? "", width)];
    const count = this.entries.length === 0 ? "No matching models." : `${this.entries.length} of ${this.models.length + 1}`;
    lines.push(fit(theme.fg("muted", count), width));
    const listHeight = Math.max(0, height - lines.length);
    const top = this.cursor.windowTop(listHeight, keys.length);
    for (let i = top; i < Math.min(keys.length, top + listHeight); i++) {
      const e = this.entries[i];
      if (!e) continue;
      const label = e.model ? oneLine(e.label) : `${PI_DEFAULT_LABEL} (clear the team model)`;
      lines.push(i === selected ? theme.bold(theme.inverse(clip(`▸ ${label}`, width))) : fit(`  ${label}`, width));
    }
    while (lines.length < height) lines.push(" ".repeat(Math.max(0, width)));
    return lines.slice(0, Math.max(0, height));
  }

  private keys(): string[] {
    return this.entries.map((e, i) => `${i}:${e.label}`);
  }
}
