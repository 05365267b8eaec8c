import { matchesKey } from "@earendil-works/pi-tui";
import { errorText } from "../error-text.ts";
import type { ConsolePage, ConsoleSnapshot } from "./console-model.ts";
import type { TeamConsoleOptions } from "./console-options.ts";
import { bodyHeight, confirmQuestion, detailLines, pad, type TeammateAction } from "./console-render.ts";
import { clamp } from "./cursor.ts";
import { at, oneLine } from "./format.ts";
import type { MessageComposer } from "./message-composer.ts";
import { modelLabel, PI_DEFAULT_LABEL, type ModelPicker } from "./model-picker.ts";
import type { OfferChooser } from "./offer-chooser.ts";
import type { PageRow } from "./page.ts";
import { isLiving } from "./page-teammates.ts";
import { taskFormArgs, type TaskForm } from "./task-form.ts";
import type { TranscriptView } from "./transcript-view.ts";
import type { ThemeLike, UiFg } from "./ports.ts";

/**
 * The console's modes besides its list (console.ts): each takes the keys while it is open and
 * draws the body or the status line it owns. The console keeps the list, the frame and the
 * switch between modes.
 */

/** What a mode may do to the console that opened it. */
export interface ModeHost {
  readonly o: TeamConsoleOptions;
  /** The snapshot the console shows now. */
  snapshot(): ConsoleSnapshot;
  /** A page's rows in that snapshot. */
  rows(page: ConsolePage): readonly PageRow[];
  /** Back to the list if `from` is still the open mode, with `status` on the status line. */
  back(from: ConsoleMode, status?: { readonly text: string; readonly tone: UiFg }): void;
  /** Runs an action: `pending` on the status line, then its result line (or error). */
  run(pending: string, call: () => Promise<string>): void;
  setStatus(text: string, tone: UiFg, result?: boolean): void;
  /** A redraw. */
  changed(): void;
}

/** Names the legend (console-render.ts `legendText`) knows. */
export type ModeKind = "detail" | "confirm" | "picker" | "compose" | "form" | "offer";

/** A console mode: keys in, a body (`undefined`: the list) and a status line out. */
export interface ConsoleMode {
  readonly kind: ModeKind;
  key(data: string): void;
  /** Exactly `height` lines of `width` columns; absent when the list stays drawn under the mode. */
  body?(width: number, height: number): string[];
  /** The status line's text (unfitted); absent for the console's own status. */
  statusLine?(): string;
  /** The legend's position figures (a scrolled body). */
  position?(): { top: number; height: number; total: number };
  /** Pi's focus, passed down to an input's cursor. */
  focus?(value: boolean): void;
  /** The snapshot changed. */
  refresh?(): void;
}

/** A row's detail (Enter), or a teammate's transcript (`t`), scrolled with the list keys. */
export class DetailMode implements ConsoleMode {
  readonly kind = "detail";
  #row: PageRow;
  #top = 0;
  #total = 0;
  #height: number; // rows at the last render, a PgUp/PgDn step; before it, the terminal's
  #wraps = { width: -1, lines: new Map<string, readonly string[]>() }; // see detailLines
  readonly #host: ModeHost;
  readonly #page: ConsolePage;
  readonly #transcript: TranscriptView | undefined;

  constructor(host: ModeHost, page: ConsolePage, row: PageRow, transcript?: TranscriptView) {
    this.#host = host;
    this.#page = page;
    this.#row = row;
    this.#transcript = transcript;
    this.#height = Math.max(1, bodyHeight(host.o.tui.terminal.rows));
  }

  /** A transcript reads again; another detail follows its row by key. */
  refresh(): void {
    if (this.#transcript) return this.#transcript.refresh(this.#host.snapshot().teammates);
    const again = this.#host.rows(this.#page).find((r) => r.key === this.#row.key);
    if (again) this.#row = again;
  }

  body(width: number, height: number): string[] {
    if (this.#wraps.width !== width) this.#wraps = { width, lines: new Map() }; // wraps are per width
    const lines = detailLines(this.#host.o.theme, this.#row, width, this.#wraps.lines);
    this.#total = lines.length;
    this.#height = Math.max(1, height);
    if (this.#transcript?.follow) this.#top = Number.MAX_SAFE_INTEGER; // stays at the end as lines arrive
    this.#top = clamp(this.#top, 0, Math.max(0, lines.length - height));
    return pad(lines.slice(this.#top, this.#top + height), width, height);
  }

  position(): { top: number; height: number; total: number } {
    return { top: this.#top, height: this.#height, total: this.#total };
  }

  key(data: string): void {
    const kb = this.#host.o.keybindings;
    const step = (n: number): void => {
      this.#top = Math.max(0, this.#top + n);
    };
    if (kb.matches(data, "tui.select.up") || matchesKey(data, "k")) step(-1);
    else if (kb.matches(data, "tui.select.down") || matchesKey(data, "j")) step(1);
    else if (kb.matches(data, "tui.select.pageUp")) step(-this.#height);
    else if (kb.matches(data, "tui.select.pageDown")) step(this.#height);
    else if (matchesKey(data, "home")) this.#top = 0;
    else if (matchesKey(data, "end")) this.#top = Number.MAX_SAFE_INTEGER; // clamped by render
    else if (kb.matches(data, "tui.select.cancel") || matchesKey(data, "q")) return this.#host.back(this);
    if (this.#transcript) this.#transcript.follow = this.#top >= this.#total - this.#height;
  }
}

/** y/n on the status line for `x` (shut down), `c` (compact) and `a` (interrupt). */
export class ConfirmMode implements ConsoleMode {
  readonly kind = "confirm";
  readonly #host: ModeHost;
  readonly #action: TeammateAction;
  readonly #name: string;

  constructor(host: ModeHost, action: TeammateAction, name: string) {
    this.#host = host;
    this.#action = action;
    this.#name = name;
  }

  statusLine(): string {
    const { theme } = this.#host.o;
    return theme.bold(theme.fg("warning", confirmQuestion(this.#action, this.#name)));
  }

  key(data: string): void {
    const host = this.#host;
    const name = this.#name;
    if (matchesKey(data, "y")) {
      host.back(this);
      const now = host.snapshot().teammates.find((t) => t.name === name);
      if (!now || !isLiving(now)) return host.setStatus(`${at(name)} is not living any more.`, "warning");
      const { actions } = host.o;
      if (this.#action === "shutdown") host.run(`Shutting down ${at(name)}…`, () => actions.shutdown(name));
      else if (this.#action === "interrupt") host.run(`Interrupting ${at(name)}…`, () => actions.interrupt(name));
      else host.run(`Compacting ${at(name)}'s context…`, () => actions.compact(name));
    } else if (matchesKey(data, "n") || host.o.keybindings.matches(data, "tui.select.cancel")) {
      host.back(this, { text: "Cancelled.", tone: "muted" });
    }
  }
}

/** A mode whose body is one input component, which gets Pi's focus (its cursor marker). */
abstract class InputMode<C extends { focused: boolean; render(width: number, height: number, theme: ThemeLike): string[] }> implements ConsoleMode {
  abstract readonly kind: ModeKind;
  protected readonly host: ModeHost;
  protected readonly input: C;

  constructor(host: ModeHost, input: C) {
    this.host = host;
    this.input = input;
  }

  focus(value: boolean): void {
    this.input.focused = value;
  }

  body(width: number, height: number): string[] {
    return this.input.render(width, height, this.host.o.theme);
  }

  abstract key(data: string): void;
}

/** `m`: the team model picker; list keys move, every other key filters. */
export class PickerMode extends InputMode<ModelPicker> {
  readonly kind = "picker";
  #height = Math.max(1, bodyHeight(this.host.o.tui.terminal.rows) - 2); // a PgUp/PgDn step, as rendered below

  override body(width: number, height: number): string[] {
    this.#height = Math.max(1, height - 2); // the filter line and a blank
    return super.body(width, height);
  }

  key(data: string): void {
    const kb = this.host.o.keybindings;
    const picker = this.input;
    if (kb.matches(data, "tui.select.cancel")) this.host.back(this);
    else if (kb.matches(data, "tui.select.up")) picker.move(-1);
    else if (kb.matches(data, "tui.select.down")) picker.move(1);
    else if (kb.matches(data, "tui.select.pageUp")) picker.move(-this.#height);
    else if (kb.matches(data, "tui.select.pageDown")) picker.move(this.#height);
    else if (kb.matches(data, "tui.select.confirm")) this.#pick();
    else picker.type(data);
  }

  #pick(): void {
    const entry = this.input.selected();
    if (!entry) return;
    this.host.back(this);
    const label = entry.model ? modelLabel(entry.model) : PI_DEFAULT_LABEL;
    this.host.run(`Setting the team model to ${oneLine(label)}…`, () => this.host.o.actions.setTeamModel(entry.model));
  }
}

/** `s`: a message to a teammate in Pi's editor; the composer's own submit sends it. */
export class ComposeMode extends InputMode<MessageComposer> {
  readonly kind = "compose";

  key(data: string): void {
    if (this.input.key(data) === "cancel") this.host.back(this, { text: "Not sent.", tone: "muted" });
  }
}

/** `n` (Board page): the new-task form; a refused task keeps the form, the board's reason below it. */
export class FormMode extends InputMode<TaskForm> {
  readonly kind = "form";

  key(data: string): void {
    const host = this.host;
    const done = this.input.key(data);
    if (done === "cancel") return host.back(this, { text: "No task added.", tone: "muted" });
    if (done !== "submit") return;
    host.setStatus("Adding the task…", "muted");
    host.o.actions.createTask(taskFormArgs(this.input.values())).then(
      (line) => {
        host.back(this);
        host.setStatus(oneLine(line), "success", true);
      },
      (error: unknown) => host.setStatus(oneLine(errorText(error)), "error"),
    ).finally(() => host.changed());
  }
}

/** `o` (Board page): which idle teammate gets the pending task, chosen on the status line. */
export class OfferMode implements ConsoleMode {
  readonly kind = "offer";
  readonly #host: ModeHost;
  readonly #chooser: OfferChooser;

  constructor(host: ModeHost, chooser: OfferChooser) {
    this.#host = host;
    this.#chooser = chooser;
  }

  statusLine(): string {
    return this.#chooser.line(this.#host.o.theme);
  }

  key(data: string): void {
    const host = this.#host;
    const { taskId } = this.#chooser;
    const choice = this.#chooser.key(data, host.o.keybindings);
    if (choice === undefined) return;
    if (choice === "cancel") return host.back(this, { text: "Not offered.", tone: "muted" });
    host.back(this);
    host.run(`Offering #${oneLine(taskId)} to ${at(choice.offer)}…`, () => host.o.actions.offer(taskId, choice.offer));
  }
}
