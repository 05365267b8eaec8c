import { Input, matchesKey } from "@earendil-works/pi-tui";
import type { TaskCreateArgs } from "../board/index.ts";
import { pad } from "./console-render.ts";
import { fit } from "./format.ts";
import type { ThemeLike } from "./ports.ts";

/** The fields of the console's new-task form, in order, with their hints. */
export const TASK_FORM_FIELDS = [
  { key: "subject", label: "Subject", hint: "short imperative subject; the task id is made from it" },
  { key: "description", label: "Description", hint: "what to do and where (optional)" },
  { key: "dependsOn", label: "Depends on", hint: "task ids, comma or space separated (optional)" },
  { key: "resources", label: "Resources", hint: "path-like tags it changes, e.g. src/api (optional)" },
  { key: "verify", label: "Verify", hint: "acceptance criteria a reviewer checks, not commands (optional)" },
  { key: "supersedes", label: "Supersedes", hint: "ids of obsolete tasks it replaces (optional)" },
] as const;

type FieldKey = (typeof TASK_FORM_FIELDS)[number]["key"];

/** A list field's text as ids or tags: split at commas and white space, blanks dropped. */
function list(text: string): string[] {
  return text.split(/[\s,]+/).filter((s) => s !== "");
}

/**
 * The `task_create` arguments the form's texts make: the same shape the leader's tool takes, so
 * the board answers with the tool's own errors (src/boardhost/board-host.ts `create`). Empty
 * optional fields are left out. Pure.
 */
export function taskFormArgs(values: Readonly<Record<FieldKey, string>>): TaskCreateArgs {
  const text = (k: FieldKey): string => values[k].trim();
  const ids = (k: FieldKey): string[] => list(values[k]);
  return {
    subject: text("subject"),
    ...(text("description") ? { description: text("description") } : {}),
    ...(ids("dependsOn").length ? { dependsOn: ids("dependsOn") } : {}),
    ...(ids("resources").length ? { resources: ids("resources") } : {}),
    ...(text("verify") ? { verify: text("verify") } : {}),
    ...(ids("supersedes").length ? { supersedes: ids("supersedes") } : {}),
  };
}

/**
 * The console's new-task form (`n` on the Board page, issue 21): one of pi-tui's `Input` per
 * field. ↑/↓ or Tab/Shift+Tab move between fields, Enter on the last field (or Ctrl+S on any)
 * submits, Esc cancels (the console handles Esc). A refused task keeps the form and its text.
 */
export class TaskForm {
  private readonly inputs = TASK_FORM_FIELDS.map(() => new Input());
  private field = 0;
  private focus = false;

  /** Whether the focused field shows its cursor (the console passes its own `focused` down). */
  set focused(value: boolean) {
    this.focus = value;
    this.inputs.forEach((input, i) => (input.focused = value && i === this.field));
  }

  /** The field texts now. */
  values(): Record<FieldKey, string> {
    return Object.fromEntries(TASK_FORM_FIELDS.map((f, i) => [f.key, this.inputs[i]!.getValue()])) as Record<FieldKey, string>;
  }

  private move(delta: number): void {
    this.field = (this.field + delta + TASK_FORM_FIELDS.length) % TASK_FORM_FIELDS.length;
    this.focused = this.focus;
  }

  /**
   * One key: Esc `cancel`; Ctrl+S, or Enter on the last field, `submit`; Tab/↓ and Enter the next
   * field, Shift+Tab/↑ the previous; anything else goes to the focused field.
   */
  key(data: string): "cancel" | "submit" | undefined {
    if (matchesKey(data, "escape")) return "cancel";
    if (matchesKey(data, "ctrl+s") || (matchesKey(data, "enter") && this.field === TASK_FORM_FIELDS.length - 1)) return "submit";
    if (matchesKey(data, "tab") || matchesKey(data, "down") || matchesKey(data, "enter")) this.move(1);
    else if (matchesKey(data, "shift+tab") || matchesKey(data, "up")) this.move(-1);
    else this.inputs[this.field]!.handleInput(data);
    return undefined;
  }

  /** Exactly `height` lines of `width` columns: a title, then label, input and hint per field. */
  render(width: number, height: number, theme: ThemeLike): string[] {
    const labelWidth = 13;
    const lines = [fit(` ${theme.bold("New task")} ${theme.fg("muted", "(from you: the same rules as the leader's task_create)")}`, width), ""];
    TASK_FORM_FIELDS.forEach((f, i) => {
      const label = f.label.padEnd(labelWidth - 2); // padded as plain text, then styled
      const input = this.inputs[i]!.render(Math.max(1, width - labelWidth - 1))[0] ?? "";
      lines.push(fit(i === this.field ? `${theme.fg("accent", "▸")} ${theme.bold(label)} ${input}` : `  ${label} ${input}`, width));
      lines.push(fit(`${" ".repeat(labelWidth + 1)}${theme.fg("dim", f.hint)}`, width));
    });
    return pad(lines, width, height);
  }
}
