import { matchesKey, type Component, type Focusable } from "@earendil-works/pi-tui";
import { ActionLine } from "./action-line.ts";
import type { ConsolePage, ConsoleSnapshot, TeammateRow } from "./console-model.ts";
import { ComposeMode, ConfirmMode, DetailMode, FormMode, OfferMode, PickerMode, type ConsoleMode, type ModeHost } from "./console-modes.ts";
import type { TeamConsoleOptions } from "./console-options.ts";
import { nextPage, PAGE_VIEWS } from "./console-pages.ts";
import { bodyHeight, legendText, renderHeader, renderListBody, type TeammateAction } from "./console-render.ts";
import { ListCursor } from "./cursor.ts";
import { at, fit, oneLine } from "./format.ts";
import { MessageComposer } from "./message-composer.ts";
import { ModelPicker } from "./model-picker.ts";
import { OfferChooser } from "./offer-chooser.ts";
import type { PageRow } from "./page.ts";
import { isLiving, teammateStatus } from "./page-teammates.ts";
import { TaskForm } from "./task-form.ts";
import { TranscriptView } from "./transcript-view.ts";
import type { ConsoleKeybinding, UiFg } from "./ports.ts";

export type { TeamConsoleOptions } from "./console-options.ts";

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
  /** The open mode (console-modes.ts); undefined: the list. */
  private mode: ConsoleMode | undefined;
  private readonly host: ModeHost;
  /** The status line and the last action's result, for `done`. */
  private readonly line: ActionLine;
  /** Rows of the list window at the last render: the PgUp/PgDn step. */
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
    this.line = new ActionLine(() => this.changed(), (text, tone) => options.lateResult?.(text, tone), () => this.closed);
    this.host = {
      o: options,
      snapshot: () => this.snap,
      rows: (page) => this.rows(page),
      back: (from, status) => {
        if (this.mode === from) this.mode = undefined;
        if (status) this.line.set(status.text, status.tone);
      },
      run: (pending, call) => this.line.run(pending, call),
      setStatus: (text, tone, result) => this.line.set(text, tone, result),
      changed: () => this.changed(),
    };
  }

  /** Focusable: set by the TUI; passed down to an open mode's input (its cursor marker). */
  get focused(): boolean {
    return this.isFocused;
  }
  set focused(value: boolean) {
    this.isFocused = value;
    this.mode?.focus?.(value);
  }

  /**
   * Re-reads the snapshot (call it whenever the team changes, and on the lead's 1 s clock for
   * times in state). The selection keeps its row by key; an open detail follows its row.
   */
  refresh(): void {
    this.snap = this.o.snapshot();
    this.rowsMemo.clear();
    this.mode?.refresh?.();
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
    const lines = [renderHeader(this.o.theme, this.snap, this.page, w), ...this.body(w, bodyHeight(rows)), this.statusLine(w), this.legend(w)];
    const out = lines.slice(0, rows);
    this.cache = { key, lines: out };
    return out;
  }

  /** One key (raw terminal input) for the open mode, else the list; ignored once closed. */
  handleInput(data: string): void {
    if (this.closed) return;
    if (this.mode) this.mode.key(data);
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
    const own = this.mode?.body?.(width, height);
    if (own) return own;
    const list = { view: PAGE_VIEWS[this.page], snapshot: this.snap, rows: this.rows(this.page), cursor: this.cursors[this.page], theme: this.o.theme };
    const { lines, listHeight } = renderListBody(list, width, height);
    this.viewHeight = Math.max(1, listHeight);
    return lines;
  }

  private statusLine(width: number): string {
    const own = this.mode?.statusLine?.();
    if (own !== undefined) return fit(` ${own}`, width);
    const { shown } = this.line;
    return fit(shown ? ` ${this.o.theme.fg(shown.tone, shown.text)}` : "", width);
  }

  private legend(width: number): string {
    const selected = this.page === "teammates" && !this.mode ? this.selectedRow()?.teammate : undefined;
    const where = { width, stopped: selected !== undefined && !isLiving(selected), ...(this.mode?.position ? { position: this.mode.position() } : {}) };
    return fit(` ${this.o.theme.fg("dim", legendText(this.mode?.kind ?? "list", this.page, where))}`, width);
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
    else if (matchesKey(data, "m")) this.open(new PickerMode(this.host, new ModelPicker(this.o.models())));
    else if (matchesKey(data, "t")) this.openTranscript();
    else if (matchesKey(data, "a")) this.askTeammate("interrupt");
    else if (matchesKey(data, "s")) this.openComposer();
    else if (matchesKey(data, "n")) this.openForm();
    else if (matchesKey(data, "o")) this.openOffer();
    else if (matchesKey(data, "r")) this.allowAttempt();
  }

  private open(mode: ConsoleMode): void {
    mode.focus?.(this.isFocused);
    this.mode = mode;
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
    this.line.clear(); // the last action's line would read as the form's
    this.open(new FormMode(this.host, new TaskForm()));
  }

  /** `o` (Board page): offer the selected pending task to a living teammate, chosen with ←/→. */
  private openOffer(): void {
    const taskId = this.taskSelected("o", "pending");
    if (!taskId) return;
    const names = this.snap.teammates.filter((t) => t.status === "idle").map((t) => t.name);
    if (names.length === 0) return this.setStatus("No idle teammate to offer it to.", "warning");
    this.open(new OfferMode(this.host, new OfferChooser(taskId, names)));
  }

  /** `r` (Board page): one more review attempt for the selected parked task. */
  private allowAttempt(): void {
    const taskId = this.taskSelected("r", "parked");
    if (taskId) this.line.run(`Allowing #${oneLine(taskId)} one more attempt…`, () => this.o.actions.allowAttempt(taskId));
  }

  /** `s`: a message to the selected living teammate, from the user (issue 21). */
  private openComposer(): void {
    const t = this.livingSelected("s");
    if (!t) return;
    const composer = new MessageComposer(t.name, this.o.tui, this.o.theme, (text) => {
      this.host.back(mode);
      this.line.run(`Sending to ${at(t.name)}…`, () => this.o.actions.send(t.name, text));
      this.changed();
    });
    const mode = new ComposeMode(this.host, composer);
    this.open(mode);
  }

  /** `t`: the selected teammate's transcript, from its session file, at its end (the latest). */
  private openTranscript(): void {
    const t = this.page === "teammates" ? this.selectedRow()?.teammate : undefined;
    if (!t) return this.setStatus(this.page === "teammates" ? "No teammate selected." : "t shows a transcript on the Teammates page (Tab to it).", "muted");
    const transcript = new TranscriptView(t.name, (name) => this.o.actions.transcript(name), () => this.changed());
    this.open(new DetailMode(this.host, this.page, transcript.row, transcript));
  }

  private openDetail(): void {
    const row = this.selectedRow();
    if (row) this.open(new DetailMode(this.host, this.page, row));
  }

  private askTeammate(action: TeammateAction): void {
    const t = this.livingSelected(action === "shutdown" ? "x" : action === "compact" ? "c" : "a");
    if (!t) return;
    if (t.status === "stopping" && action !== "shutdown") return this.setStatus(`${at(t.name)} is stopping.`, "warning");
    this.open(new ConfirmMode(this.host, action, t.name));
  }

  /** The selected teammate if `key` may act on it (Teammates page, living), else a status line why not. */
  private livingSelected(key: string): TeammateRow | undefined {
    if (this.page !== "teammates") return void this.setStatus(`${key} acts on the Teammates page (Tab to it).`, "muted");
    const t = this.selectedRow()?.teammate;
    if (!t) return void this.setStatus("No teammate selected.", "muted");
    if (!isLiving(t)) return void this.setStatus(`${at(t.name)} is not living (${teammateStatus(t, this.snap.now).text}).`, "warning");
    return t;
  }

  private setStatus(text: string, tone: UiFg): void {
    this.line.set(text, tone);
  }

  private close(): void {
    this.closed = true;
    this.o.done(this.line.result);
  }
}
