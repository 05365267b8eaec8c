import { visibleWidth, wrapTextWithAnsi } from "@earendil-works/pi-tui";
import { CONSOLE_PAGES, type ConsolePage, type ConsoleSnapshot } from "./console-model.ts";
import { PAGE_VIEWS } from "./console-pages.ts";
import type { ListCursor } from "./cursor.ts";
import { at, clip, fit, oneLine } from "./format.ts";
import type { PageRow, PageView } from "./page.ts";
import type { ThemeLike } from "./ports.ts";
import { columnWidths, renderCells, renderTitles, type Cell } from "./table.ts";

/**
 * The console's frame pieces as pure functions of state (R61). Every line returned is fitted to
 * the width (L19); styles are applied per line here, never stored (pi-tui.md §5.4).
 */

/** Marker of the selected row; under tmux backgrounds vanish, so it is a glyph plus bold/inverse. */
export const SELECTED_MARKER = "▸ ";
const UNSELECTED = "  ";

/** Rows of a page in a snapshot, as the tab counts them. */
function pageCount(page: ConsolePage, s: ConsoleSnapshot): number {
  if (page === "teammates") return s.teammates.length;
  if (page === "roles") return s.roles.length + s.skipped.length;
  if (page === "board") return s.tasks.length;
  return s.mail.length;
}

/**
 * The header: title, the teammate dialogs waiting (if any; right after the title, so that the
 * line's truncation at 80 columns keeps it), page tabs (the current one bracketed and bold) and
 * the team model.
 */
export function renderHeader(theme: ThemeLike, s: ConsoleSnapshot, page: ConsolePage, width: number): string {
  const tabs = CONSOLE_PAGES.map((p) => {
    const label = `${PAGE_VIEWS[p].label} ${pageCount(p, s)}`;
    return p === page ? theme.bold(theme.fg("accent", `[${label}]`)) : theme.fg("muted", ` ${label} `);
  });
  const title = theme.bold(theme.fg("accent", "pi-resident-teams"));
  const waiting = s.dialogsWaiting ? `${theme.bold(theme.fg("warning", `${s.dialogsWaiting} teammate dialog${s.dialogsWaiting === 1 ? "" : "s"} waiting: close to answer`))}  ` : "";
  return fit(`${title}  ${waiting}${tabs.join(" ")}  ${theme.fg("muted", `team model: ${oneLine(s.teamModel)}`)}`, width);
}

/** Cells joined with ` · `, each in its tone. */
function joined(theme: ThemeLike, cells: readonly Cell[], sep = " · "): string {
  return cells.map((c) => (c.tone ? theme.fg(c.tone, c.text) : c.text)).join(theme.fg("dim", sep));
}

/** Plain text of a row, as its cells run (table rows use their widths). */
function plainRow(row: PageRow, widths: readonly number[]): string {
  return row.span ? row.cells.map((c) => c.text).join("  ") : renderCells(row.cells, widths);
}

/** What a list body draws: a page's rows with the selection. */
export interface ListBody {
  readonly view: PageView;
  readonly snapshot: ConsoleSnapshot;
  readonly rows: readonly PageRow[];
  readonly cursor: ListCursor;
  readonly theme: ThemeLike;
}

/**
 * Exactly `height` lines: the page preface (board counts), the column titles (unless only one
 * row would fit), then the window of rows that keeps the selection visible. Returns the height
 * left for rows (for PgUp/PgDn).
 */
export function renderListBody(b: ListBody, width: number, height: number): { lines: string[]; listHeight: number } {
  const { theme, rows } = b;
  const lines = (b.view.preface?.(b.snapshot) ?? []).map((cells) => fit(` ${joined(theme, cells)}`, width));
  if (rows.length === 0) {
    lines.push(fit(` ${theme.fg("muted", b.view.empty)}`, width));
    return { lines: pad(lines, width, height), listHeight: 0 };
  }
  const tableWidth = Math.max(0, width - UNSELECTED.length);
  const widths = columnWidths(
    b.view.columns,
    rows.filter((r) => !r.span).map((r) => r.cells),
    tableWidth,
  );
  // The titles give way to a row when only one row would fit.
  if (height - lines.length > 2) lines.push(fit(UNSELECTED + theme.fg("muted", renderTitles(b.view.columns, widths)), width));
  const listHeight = Math.max(0, height - lines.length);
  const selected = b.cursor.sync(rows.map((r) => r.key));
  const top = b.cursor.windowTop(listHeight, rows.length);
  for (let i = top; i < Math.min(rows.length, top + listHeight); i++) {
    const row = rows[i];
    if (!row) continue;
    if (i === selected) {
      lines.push(theme.bold(theme.inverse(clip(SELECTED_MARKER + plainRow(row, widths), width))));
    } else {
      const body = row.span ? joined(theme, row.cells, "  ") : renderCells(row.cells, widths, theme);
      lines.push(fit(UNSELECTED + body, width));
    }
  }
  return { lines: pad(lines, width, height), listHeight };
}

/**
 * A row's detail wrapped to `width` (pi-tui `wrapTextWithAnsi`): the title line bold, blank
 * lines kept. The console windows these lines. `memo` (source line → its wrapped lines, for this
 * one width) is read and then left holding this render's lines: wrapping is a frame's costly part
 * (50-80 ms for a 60 KB body), so scrolling and refreshes re-wrap only the lines that changed.
 */
export function detailLines(theme: ThemeLike, row: PageRow, width: number, memo?: Map<string, readonly string[]>): string[] {
  const w = Math.max(1, width);
  const used = new Map<string, readonly string[]>();
  const out: string[] = [];
  row.detail().forEach((line, i) => {
    const wrapped = used.get(line) ?? memo?.get(line) ?? (line === "" ? [""] : wrapTextWithAnsi(line, w));
    used.set(line, wrapped);
    for (const l of wrapped) out.push(i === 0 ? theme.bold(theme.fg("accent", l)) : l);
  });
  if (memo) {
    memo.clear();
    for (const [line, wrapped] of used) memo.set(line, wrapped);
  }
  return out;
}

/** `lines` cut or padded with blank lines to exactly `height`, each fitted to `width`. */
export function pad(lines: readonly string[], width: number, height: number): string[] {
  const out = lines.slice(0, Math.max(0, height)).map((l) => fit(l, width));
  while (out.length < height) out.push(fit("", width));
  return out;
}

/** Rows of the console's body in a terminal of `rows` rows: all but the header, status and legend lines. */
export function bodyHeight(rows: number): number {
  return Math.max(0, rows - 3);
}

/** What `x` and `c` ask to do with a teammate. */
export type TeammateAction = "shutdown" | "compact" | "interrupt";

/** The in-component y/n question (a `ctx.ui.confirm` would hide under the overlay, pi-tui.md §6). */
export function confirmQuestion(action: TeammateAction, name: string): string {
  if (action === "interrupt") return `Interrupt ${at(name)}'s run (it stays, idle, with its context and claims)? y/n`;
  return action === "shutdown" ? `Shut down ${at(name)}? y/n` : `Compact ${at(name)}'s context? y/n`;
}

const LEGEND = {
  teammates: "↑↓ move · Enter detail · s send · a interrupt · t transcript · x stop · c compact · Tab page · q close",
  /** The same where the full one does not fit (80 columns). */
  teammatesShort: "s send · a interrupt · t transcript · x stop · c compact · Tab page · q close",
  /** A stopped teammate selected: only what acts on it still. */
  teammatesStopped: "↑↓ move · Enter detail · t transcript · m model · Tab page · q close",
  other: "↑↓/jk move · PgUp/PgDn · Enter detail · m model · Tab page · q close",
  board: "↑↓ move · Enter detail · n new task · o offer · r retry · m model · Tab page · q close",
  boardShort: "Enter detail · n new task · o offer · r retry · m model · Tab page · q close",
  form: "Tab/↑↓ field · Enter next (adds on the last) · Ctrl+S add · Esc cancel",
  offer: "←→ teammate · Enter offer · Esc cancel",
  detail: "↑↓/jk scroll · PgUp/PgDn page · Home/End · Esc/q back",
  confirm: "y yes · n/Esc no",
  picker: "type to filter · ↑↓ move · Enter pick · Esc back",
  compose: "Enter send · Shift+Enter new line · Esc cancel",
} as const;

/**
 * The one-line key legend of a mode (and page) for `width` columns; the detail adds its position
 * `8-14/40`. On the Teammates page, `stopped` (the selected teammate is stopped) leaves out the
 * keys that act on a living one.
 */
export function legendText(mode: "list" | "detail" | "confirm" | "picker" | "compose" | "form" | "offer", page: ConsolePage, view: { position?: { top: number; height: number; total: number }; width?: number; stopped?: boolean } = {}): string {
  const { position, width = Infinity } = view;
  if (mode === "list" && page === "teammates" && view.stopped) return LEGEND.teammatesStopped;
  if (mode === "list" && page === "teammates") return visibleWidth(LEGEND.teammates) + 1 <= width ? LEGEND.teammates : LEGEND.teammatesShort;
  if (mode === "list" && page === "board") return visibleWidth(LEGEND.board) + 1 <= width ? LEGEND.board : LEGEND.boardShort;
  if (mode === "list") return LEGEND.other;
  if (!position) return LEGEND[mode];
  const { top, height, total } = position;
  return `${LEGEND[mode]} · ${Math.min(total, top + 1)}-${Math.min(total, top + height)}/${total}`;
}
