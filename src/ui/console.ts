import { matchesKey, type Component, type Focusable } from "@earendil-works/pi-tui";
import { errorText } from "../error-text.ts";
import type { ConsolePage, ConsoleSnapshot, TeammateRow } from "./console-model.ts";
import type { TeamConsoleOptions } from "./console-options.ts";
import { nextPage, PAGE_VIEWS } from "./console-pages.ts";
import { confirmQuestion, detailLines, legendText, pad, renderHeader, renderListBody, type TeammateAction } from "./console-render.ts";
import { clamp, ListCursor } from "./cursor.ts";
import { at, fit, oneLine } from "./format.ts";
import { MessageComposer } from "./message-composer.ts";
import { OfferChooser } from "./offer-chooser.ts";
import { TaskForm, taskFormArgs } from "./task-form.ts";
import { modelLabel, ModelPicker, PI_DEFAULT_LABEL } from "./model-picker.ts";
import type { PageRow } from "./page.ts";
import { isLiving, teammateStatus } from "./page-teammates.ts";
import { TranscriptView } from "./transcript-view.ts";
import type { ConsoleKeybinding, UiFg } from "./ports.ts";

export type { TeamConsoleOptions } from "./console-options.ts";

type Mode =
  | { readonly kind: "list" }
  | { readonly kind: "detail"; readonly page: ConsolePage; row: PageRow; readonly transcript?: TranscriptView }
  | { readonly kind: "confirm"; readonly action: TeammateAction; readonly name: string }
  | { readonly kind: "picker"; readonly picker: ModelPicker }
  | { readonly kind: "compose"; readonly composer: MessageComposer }
  | { readonly kind: "form"; readonly form: TaskForm }
  | { readonly kind: "offer"; readonly chooser: OfferChooser };

/**
 * The full-screen `/agent-teams` console (R61): pages Teammates, Roles, Board and Mail (Tab,
 * Shift+Tab), a windowed list with the selection marked `▸` and bold/inverse, a scrolling
 * detail (Enter), in-component y/n for `x` (shut down), `c` (compact) and `a` (interrupt), a
 * message composer (`s`, issue 21), the Board page's hands (`n` new task, `o` offer a pending
 * task to a teammate, `r` one more attempt for a parked one) and a model picker (`m`). Open it as an overlay at `anchor: "top-left", width: "100%", maxHeight: "100%"`:
 * `render(width)` returns exactly `tui.terminal.rows` lines, each at most `width` columns wide
 * (L19). Configurable keys go through `keybindings.matches`, the rest through `matchesKey` (CSI-u
 * safe, pi-tui.md §4). It takes keys only while Pi focuses it, none after `done` (L18).
 */
export class TeamConsole implements Component, Focusable {
  private readonly o: TeamConsoleOptions;
  private snap: ConsoleSnapshot;
  private page: ConsolePage;
  private readonly cursors: Record<ConsolePage, ListCursor>;
  private readonly rowsMemo = new Map<ConsolePage, readonly PageRow[]>();
  private mode: Mode = { kind: "list" };
  private status: { readonly text: string; readonly tone: UiFg } | undefined;
  private result: string | undefined; // the last action's line, for `done`
  private detailTop = 0;
  private detailTotal = 0;
  private wrapMemo = { width: -1, lines: new Map<string, readonly string[]>() }; // see detailLines
  /** Rows of the list or detail window at the last render: the PgUp/PgDn step. */
  private viewHeight: number;
  private version = 0;
  private cache: { readonly key: string; readonly lines: readonly string[] } | undefined;
  private closed = false;
  private disposed = false;
  private isFocused = false;

  /** Takes the first snapshot; nothing is drawn until Pi calls `render`. */
  constructor(options: TeamConsoleOptions) {
    this.o = options;
    this.snap = options.snapshot();
    this.page = options.page ?? "teammates";
    this.viewHeight = Math.max(1, options.tui.terminal.rows - 4); // header, titles, status, legend
    this.cursors = { teammates: new ListCursor(), roles: new ListCursor(), board: new ListCursor(), mail: new ListCursor() };
  }

  /** Focusable: set by the TUI; passed down to the picker's input (its cursor marker). */
  get focused(): boolean {
    return this.isFocused;
  }
  set focused(value: boolean) {
    this.isFocused = value;
    if (this.mode.kind === "picker") this.mode.picker.focused = value;
    if (this.mode.kind === "compose") this.mode.composer.focused = value;
    if (this.mode.kind === "form") this.mode.form.focused = value;
  }

  /**
   * Re-reads the snapshot (call it whenever the team changes, and on the lead's 1 s clock for
   * times in state). The selection keeps its row by key; an open detail follows its row.
   */
  refresh(): void {
    this.snap = this.o.snapshot();
    this.rowsMemo.clear();
    if (this.mode.kind === "detail" && this.mode.transcript) this.mode.transcript.refresh(this.snap.teammates);
    else if (this.mode.kind === "detail") {
      const { key } = this.mode.row;
      const again = this.rows(this.mode.page).find((r) => r.key === key);
      if (again) this.mode.row = again;
    }
    this.changed();
  }

  /** Drops the render cache (theme change). */
  invalidate(): void {
    this.cache = undefined;
  }

  /** Pi calls this after `done` (or instead of it at /reload); the console then ignores input. */
  dispose(): void {
    this.closed = true;
    if (!this.disposed) this.o.onDispose?.();
    this.disposed = true;
  }

  /** Exactly `tui.terminal.rows` lines, each fitted to `width`; cached per size and state. */
  render(width: number): readonly string[] {
    const w = Math.max(0, Math.floor(width));
    const rows = Math.max(0, Math.floor(this.o.tui.terminal.rows));
    const key = `${w}x${rows}:${this.version}`;
    if (this.cache?.key === key) return this.cache.lines;
    const bodyHeight = Math.max(0, rows - 3);
    const lines = [renderHeader(this.o.theme, this.snap, this.page, w), ...this.body(w, bodyHeight), this.statusLine(w), this.legend(w)];
    const out = lines.slice(0, rows);
    this.cache = { key, lines: out };
    return out;
  }

  /** One key (raw terminal input) for the current mode; ignored once closed. */
  handleInput(data: string): void {
    if (this.closed) return;
    if (this.mode.kind === "picker") this.pickerKey(this.mode.picker, data);
    else if (this.mode.kind === "compose") this.composeKey(this.mode.composer, data);
    else if (this.mode.kind === "form") this.formKey(this.mode.form, data);
    else if (this.mode.kind === "offer") this.offerKey(this.mode.chooser, data);
    else if (this.mode.kind === "confirm") this.confirmKey(this.mode, data);
    else if (this.mode.kind === "detail") this.detailKey(data);
    else this.listKey(data);
    this.changed();
  }

  private changed(): void {
    this.version++;
    this.cache = undefined;
    if (!this.closed) this.o.tui.requestRender();
  }

  private rows(page: ConsolePage): readonly PageRow[] {
    let rows = this.rowsMemo.get(page);
    if (!rows) {
      rows = PAGE_VIEWS[page].rows(this.snap);
      this.rowsMemo.set(page, rows);
    }
    return rows;
  }

  private keys(): string[] {
    return this.rows(this.page).map((r) => r.key);
  }

  private selectedRow(): PageRow | undefined {
    const rows = this.rows(this.page);
    const i = this.cursors[this.page].sync(rows.map((r) => r.key));
    return i < 0 ? undefined : rows[i];
  }

  private body(width: number, height: number): string[] {
    const { theme } = this.o;
    if (this.mode.kind === "picker") {
      this.viewHeight = Math.max(1, height - 2);
      return this.mode.picker.render(width, height, theme);
    }
    if (this.mode.kind === "compose") return this.mode.composer.render(width, height, theme);
    if (this.mode.kind === "form") return this.mode.form.render(width, height, theme);
    if (this.mode.kind === "detail") {
      if (this.wrapMemo.width !== width) this.wrapMemo = { width, lines: new Map() }; // wraps are per width
      const lines = detailLines(theme, this.mode.row, width, this.wrapMemo.lines);
      this.detailTotal = lines.length;
      this.viewHeight = Math.max(1, height);
      if (this.mode.transcript?.follow) this.detailTop = Number.MAX_SAFE_INTEGER; // stays at the end as lines arrive
      this.detailTop = clamp(this.detailTop, 0, Math.max(0, lines.length - height));
      return pad(lines.slice(this.detailTop, this.detailTop + height), width, height);
    }
    const list = { view: PAGE_VIEWS[this.page], snapshot: this.snap, rows: this.rows(this.page), cursor: this.cursors[this.page], theme };
    const { lines, listHeight } = renderListBody(list, width, height);
    this.viewHeight = Math.max(1, listHeight);
    return lines;
  }

  private statusLine(width: number): string {
    const { theme } = this.o;
    if (this.mode.kind === "confirm") return fit(` ${theme.bold(theme.fg("warning", confirmQuestion(this.mode.action, this.mode.name)))}`, width);
    if (this.mode.kind === "offer") return fit(` ${this.mode.chooser.line(theme)}`, width);
    return fit(this.status ? ` ${theme.fg(this.status.tone, this.status.text)}` : "", width);
  }

  private legend(width: number): string {
    const position = this.mode.kind === "detail" ? { top: this.detailTop, height: this.viewHeight, total: this.detailTotal } : undefined;
    return fit(` ${this.o.theme.fg("dim", legendText(this.mode.kind, this.page, position, width))}`, width);
  }

  private kb(data: string, id: ConsoleKeybinding): boolean {
    return this.o.keybindings.matches(data, id);
  }

  private listKey(data: string): void {
    const cursor = this.cursors[this.page];
    if (this.kb(data, "tui.select.up") || matchesKey(data, "k")) cursor.move(-1, this.keys());
    else if (this.kb(data, "tui.select.down") || matchesKey(data, "j")) cursor.move(1, this.keys());
    else if (this.kb(data, "tui.select.pageUp")) cursor.move(-this.viewHeight, this.keys());
    else if (this.kb(data, "tui.select.pageDown")) cursor.move(this.viewHeight, this.keys());
    else if (matchesKey(data, "home")) cursor.jump("home", this.keys());
    else if (matchesKey(data, "end")) cursor.jump("end", this.keys());
    else if (this.kb(data, "tui.select.confirm")) this.openDetail();
    else if (this.kb(data, "tui.select.cancel") || matchesKey(data, "q")) this.close();
    else if (matchesKey(data, "shift+tab")) this.page = nextPage(this.page, -1);
    else if (matchesKey(data, "tab")) this.page = nextPage(this.page, 1);
    else if (matchesKey(data, "x")) this.askTeammate("shutdown");
    else if (matchesKey(data, "c")) this.askTeammate("compact");
    else if (matchesKey(data, "m")) this.openPicker();
    else if (matchesKey(data, "t")) this.openTranscript();
    else if (matchesKey(data, "a")) this.askTeammate("interrupt");
    else if (matchesKey(data, "s")) this.openComposer();
    else if (matchesKey(data, "n")) this.openForm();
    else if (matchesKey(data, "o")) this.openOffer();
    else if (matchesKey(data, "r")) this.allowAttempt();
  }

  /** The selected task if `key` may act on it (Board page, `status`), else a status line why not. */
  private taskSelected(key: string, status: string): string | undefined {
    if (this.page !== "board") return void this.setStatus(`${key} acts on the Board page (Tab to it).`, "muted");
    const t = this.selectedRow()?.task;
    if (!t) return void this.setStatus("No task selected.", "muted");
    if (t.status !== status) return void this.setStatus(`#${oneLine(t.id)} is ${t.status}; ${key} acts on a ${status} task.`, "warning");
    return t.id;
  }

  /** `n` (Board page): the new-task form. */
  private openForm(): void {
    if (this.page !== "board") return this.setStatus("n adds a task on the Board page (Tab to it).", "muted");
    const form = new TaskForm();
    form.focused = this.isFocused;
    this.status = undefined; // the last action's line would read as the form's
    this.mode = { kind: "form", form };
  }

  private formKey(form: TaskForm, data: string): void {
    const done = form.key(data);
    if (done === "cancel") {
      this.mode = { kind: "list" };
      return this.setStatus("No task added.", "muted");
    }
    if (done !== "submit") return;
    const args = taskFormArgs(form.values());
    // A refused task keeps the form, with the board's reason (the tool's own words) below it.
    this.setStatus("Adding the task…", "muted");
    this.o.actions.createTask(args).then(
      (line) => {
        if (this.mode.kind === "form" && this.mode.form === form) this.mode = { kind: "list" };
        this.setStatus(oneLine(line), "success");
        this.result = oneLine(line);
      },
      (error: unknown) => this.setStatus(oneLine(errorText(error)), "error"),
    ).finally(() => this.changed());
  }

  /** `o` (Board page): offer the selected pending task to a living teammate, chosen with ←/→. */
  private openOffer(): void {
    const taskId = this.taskSelected("o", "pending");
    if (!taskId) return;
    const names = this.snap.teammates.filter((t) => t.status === "idle").map((t) => t.name);
    if (names.length === 0) return this.setStatus("No idle teammate to offer it to.", "warning");
    this.mode = { kind: "offer", chooser: new OfferChooser(taskId, names) };
  }

  private offerKey(chooser: OfferChooser, data: string): void {
    const choice = chooser.key(data, this.o.keybindings);
    if (choice === undefined) return;
    this.mode = { kind: "list" };
    if (choice === "cancel") return this.setStatus("Not offered.", "muted");
    this.run(`Offering #${oneLine(chooser.taskId)} to ${at(choice.offer)}…`, () => this.o.actions.offer(chooser.taskId, choice.offer));
  }

  /** `r` (Board page): one more review attempt for the selected parked task. */
  private allowAttempt(): void {
    const taskId = this.taskSelected("r", "parked");
    if (taskId) this.run(`Allowing #${oneLine(taskId)} one more attempt…`, () => this.o.actions.allowAttempt(taskId));
  }

  /** `s`: a message to the selected living teammate, from the user (issue 21). */
  private openComposer(): void {
    const t = this.livingSelected("s");
    if (!t) return;
    const composer = new MessageComposer(t.name, this.o.tui, this.o.theme, (text) => {
      this.mode = { kind: "list" };
      this.run(`Sending to ${at(t.name)}…`, () => this.o.actions.send(t.name, text));
      this.changed();
    });
    composer.focused = this.isFocused;
    this.mode = { kind: "compose", composer };
  }

  private composeKey(composer: MessageComposer, data: string): void {
    if (composer.key(data) !== "cancel") return;
    this.mode = { kind: "list" };
    this.setStatus("Not sent.", "muted");
  }

  /** `t`: the selected teammate's transcript, from its session file, at its end (the latest). */
  private openTranscript(): void {
    const t = this.page === "teammates" ? this.selectedRow()?.teammate : undefined;
    if (!t) return this.setStatus(this.page === "teammates" ? "No teammate selected." : "t shows a transcript on the Teammates page (Tab to it).", "muted");
    const transcript = new TranscriptView(t.name, (name) => this.o.actions.transcript(name), () => this.changed());
    this.mode = { kind: "detail", page: this.page, row: transcript.row, transcript };
  }

  private detailKey(data: string): void {
    const step = (n: number): void => {
      this.detailTop = Math.max(0, this.detailTop + n);
    };
    if (this.kb(data, "tui.select.up") || matchesKey(data, "k")) step(-1);
    else if (this.kb(data, "tui.select.down") || matchesKey(data, "j")) step(1);
    else if (this.kb(data, "tui.select.pageUp")) step(-this.viewHeight);
    else if (this.kb(data, "tui.select.pageDown")) step(this.viewHeight);
    else if (matchesKey(data, "home")) this.detailTop = 0;
    else if (matchesKey(data, "end")) this.detailTop = Number.MAX_SAFE_INTEGER; // clamped by render
    else if (this.kb(data, "tui.select.cancel") || matchesKey(data, "q")) this.mode = { kind: "list" };
    if (this.mode.kind === "detail" && this.mode.transcript) this.mode.transcript.follow = this.detailTop >= this.detailTotal - this.viewHeight;
  }

  private confirmKey(mode: Extract<Mode, { kind: "confirm" }>, data: string): void {
    if (matchesKey(data, "y")) {
      this.mode = { kind: "list" };
      const now = this.snap.teammates.find((t) => t.name === mode.name);
      if (!now || !isLiving(now)) return this.setStatus(`${at(mode.name)} is not living any more.`, "warning");
      const { actions } = this.o;
      if (mode.action === "shutdown") this.run(`Shutting down ${at(mode.name)}…`, () => actions.shutdown(mode.name));
      else if (mode.action === "interrupt") this.run(`Interrupting ${at(mode.name)}…`, () => actions.interrupt(mode.name));
      else this.run(`Compacting ${at(mode.name)}'s context…`, () => actions.compact(mode.name));
    } else if (matchesKey(data, "n") || this.kb(data, "tui.select.cancel")) {
      this.mode = { kind: "list" };
      this.setStatus("Cancelled.", "muted");
    }
  }

  private pickerKey(picker: ModelPicker, data: string): void {
    // List keys first; every other key (printable ones included) goes to the filter input.
    if (this.kb(data, "tui.select.cancel")) this.mode = { kind: "list" };
    else if (this.kb(data, "tui.select.up")) picker.move(-1);
    else if (this.kb(data, "tui.select.down")) picker.move(1);
    else if (this.kb(data, "tui.select.pageUp")) picker.move(-this.viewHeight);
    else if (this.kb(data, "tui.select.pageDown")) picker.move(this.viewHeight);
    else if (this.kb(data, "tui.select.confirm")) this.pick(picker);
    else picker.type(data);
  }

  private pick(picker: ModelPicker): void {
    const entry = picker.selected();
    if (!entry) return;
    this.mode = { kind: "list" };
    const label = entry.model ? modelLabel(entry.model) : PI_DEFAULT_LABEL;
    this.run(`Setting the team model to ${oneLine(label)}…`, () => this.o.actions.setTeamModel(entry.model));
  }

  private openDetail(): void {
    const row = this.selectedRow();
    if (!row) return;
    this.detailTop = 0;
    this.mode = { kind: "detail", page: this.page, row };
  }

  private openPicker(): void {
    const picker = new ModelPicker(this.o.models());
    picker.focused = this.isFocused;
    this.mode = { kind: "picker", picker };
  }

  private askTeammate(action: TeammateAction): void {
    const t = this.livingSelected(action === "shutdown" ? "x" : action === "compact" ? "c" : "a");
    if (!t) return;
    if (t.status === "stopping" && action !== "shutdown") return this.setStatus(`${at(t.name)} is stopping.`, "warning");
    this.mode = { kind: "confirm", action, name: t.name };
  }

  /** The selected teammate if `key` may act on it (Teammates page, living), else a status line why not. */
  private livingSelected(key: string): TeammateRow | undefined {
    if (this.page !== "teammates") return void this.setStatus(`${key} acts on the Teammates page (Tab to it).`, "muted");
    const t = this.selectedRow()?.teammate;
    if (!t) return void this.setStatus("No teammate selected.", "muted");
    if (!isLiving(t)) return void this.setStatus(`${at(t.name)} is not living (${teammateStatus(t, this.snap.now).text}).`, "warning");
    return t;
  }

  private run(pending: string, call: () => Promise<string>): void {
    const show = (text: string, tone: UiFg): void => {
      this.setStatus(text, tone);
      this.result = text;
    };
    const settled = (text: string, tone: "success" | "error"): void => {
      if (this.closed && this.result === pending) this.o.lateResult?.(text, tone); // `done` had the "…ing" line
      show(text, tone);
    };
    show(pending, "muted");
    Promise.resolve()
      .then(call)
      .then(
        (line) => settled(oneLine(line), "success"),
        (error: unknown) => settled(oneLine(errorText(error)), "error"),
      )
      .finally(() => this.changed());
  }

  private setStatus(text: string, tone: UiFg): void {
    this.status = { text, tone };
  }

  private close(): void {
    this.closed = true;
    this.o.done(this.result);
  }
}
