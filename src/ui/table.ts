import { visibleWidth } from "@earendil-works/pi-tui";
import { clip, clipMiddle } from "./format.ts";
import type { ThemeLike, UiFg } from "./ports.ts";

/**
 * Column layout of the console's list pages (R61, L19): each column takes the width of its
 * widest cell within `min..max`; when the row is too wide, the columns with the highest `rank`
 * are dropped first (rank 0 is never dropped; the `flex` column not while shrinking the others to
 * their floor would make room for it), then the widest columns shrink toward their floor (`min`,
 * or for a `distinct` column the width at which its cut cells still differ); the `flex` column
 * takes what is left. Rows never exceed the width they were laid out for.
 */

/** One column of a page's table. */
export interface Column {
  readonly title: string;
  /** Narrowest width it shrinks to (columns). */
  readonly min: number;
  /** Widest it grows to from its content; a flex column grows past it into the free space. */
  readonly max: number;
  /** Drop order when the width is short: higher goes first; 0 is always kept. */
  readonly rank: number;
  readonly flex?: boolean;
  /**
   * Its cells name distinct things (task ids): it never shrinks below the width at which every
   * cell, cut as it is drawn, still reads differently from every other (nor below `min`).
   */
  readonly distinct?: boolean;
}

/**
 * One cell: plain text (already made safe with `oneLine`), an optional foreground tone, and how
 * it is cut when too wide: at the end (the default) or in the `middle`, keeping both ends.
 */
export interface Cell {
  readonly text: string;
  readonly tone?: UiFg;
  readonly cut?: "middle";
}

/** A cell's text cut (and padded) to `width` columns, as it is drawn. */
export function cellText(cell: Cell | undefined, width: number): string {
  const text = cell?.text ?? "";
  return cell?.cut === "middle" ? clipMiddle(text, width) : clip(text, width);
}

/**
 * The narrowest width in `min..widest` at which the cells of column `i`, cut as drawn, are
 * pairwise different whenever their texts are (two equal texts stay equal). `widest` always
 * works: nothing is cut there.
 */
function distinctWidth(rows: readonly (readonly Cell[])[], i: number, min: number, widest: number): number {
  const cells = rows.map((r) => r[i]).filter((c): c is Cell => c !== undefined);
  const texts = new Set(cells.map((c) => c.text)).size;
  for (let w = min; w < widest; w++) {
    if (new Set(cells.map((c) => cellText(c, w))).size === texts) return w;
  }
  return widest;
}

/** Gap between two columns. */
export const COLUMN_GAP = 1;

/**
 * Widths of `columns` for `rows` in `width` columns; 0 marks a dropped column. The header titles
 * count toward the natural widths.
 */
export function columnWidths(columns: readonly Column[], rows: readonly (readonly Cell[])[], width: number): number[] {
  const natural = columns.map((c, i) => {
    if (c.flex) return c.min;
    const widest = Math.max(visibleWidth(c.title), ...rows.map((r) => visibleWidth(r[i]?.text ?? "")));
    return Math.min(c.max, Math.max(c.min, widest));
  });
  // How far each column may shrink: its min, or for a distinct column where its cuts stay apart
  // (worked out only when something must shrink: it cuts every cell at each width it tries).
  let floorsMemo: number[] | undefined;
  const floors = (): number[] => (floorsMemo ??= columns.map((c, i) => (c.distinct ? distinctWidth(rows, i, c.min, Math.max(c.min, natural[i] ?? c.min)) : c.min)));
  const shown = columns.map(() => true);
  const total = (): number => {
    const kept = natural.filter((_, i) => shown[i]);
    return kept.reduce((a, b) => a + b, 0) + COLUMN_GAP * Math.max(0, kept.length - 1);
  };
  while (total() > width) {
    const drop = dropCandidate(columns, shown);
    if (drop < 0) break;
    // The flex column (a title, a subject) stays while the others, shrunk to their min, leave it its own.
    if (columns[drop]?.flex && atMin(floors(), shown) <= width) break;
    shown[drop] = false;
  }
  let excess = total() - width;
  while (excess > 0) {
    const i = shrinkCandidate(floors(), natural, shown);
    if (i < 0) break;
    natural[i] = (natural[i] ?? 0) - 1;
    excess--;
  }
  const flex = columns.findIndex((c, i) => c.flex && shown[i]);
  if (flex >= 0 && excess < 0) natural[flex] = (natural[flex] ?? 0) - excess;
  return natural.map((w, i) => (shown[i] ? w : 0));
}

/** The width of the shown columns, each at its floor, with the gaps. */
function atMin(floors: readonly number[], shown: readonly boolean[]): number {
  const kept = floors.filter((_, i) => shown[i]);
  return kept.reduce((a, f) => a + f, 0) + COLUMN_GAP * Math.max(0, kept.length - 1);
}

function dropCandidate(columns: readonly Column[], shown: readonly boolean[]): number {
  let best = -1;
  columns.forEach((c, i) => {
    if (shown[i] && c.rank > 0 && (best < 0 || c.rank >= (columns[best]?.rank ?? 0))) best = i;
  });
  return best;
}

function shrinkCandidate(floors: readonly number[], natural: readonly number[], shown: readonly boolean[]): number {
  let best = -1;
  let slack = 0;
  floors.forEach((floor, i) => {
    const s = (natural[i] ?? 0) - floor;
    if (shown[i] && s > slack) {
      best = i;
      slack = s;
    }
  });
  return best;
}

/**
 * One table row as a line of exactly the summed widths: each kept cell clipped to its width,
 * styled with its tone when `theme` is given (omit it for a plain line, e.g. the selected row
 * that is styled as a whole).
 */
export function renderCells(cells: readonly Cell[], widths: readonly number[], theme?: ThemeLike): string {
  const parts: string[] = [];
  widths.forEach((w, i) => {
    if (w <= 0) return;
    const cell = cells[i];
    const text = cellText(cell, w);
    parts.push(theme && cell?.tone ? theme.fg(cell.tone, text) : text);
  });
  return parts.join(" ".repeat(COLUMN_GAP));
}

/** The header line of a table: the column titles, clipped like the cells. */
export function renderTitles(columns: readonly Column[], widths: readonly number[]): string {
  return renderCells(
    columns.map((c) => ({ text: c.title })),
    widths,
  );
}
