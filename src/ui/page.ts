import type { ConsolePage, ConsoleSnapshot, TaskRow, TeammateRow } from "./console-model.ts";
import type { Cell, Column } from "./table.ts";

/**
 * What one console page shows (R61): its table columns, the rows of a snapshot, and per row the
 * full detail text. The console lays rows out and styles them; the plain-text summary joins the
 * same cells, so both say the same thing. All text here is plain (no ANSI) and made safe with
 * `oneLine`/`safeLines`.
 */
export interface PageView {
  readonly id: ConsolePage;
  /** The tab label, e.g. `Teammates`. */
  readonly label: string;
  readonly columns: readonly Column[];
  /** Rows in display order, each with a key that survives a refresh (name, task id, ...). */
  rows(snapshot: ConsoleSnapshot): readonly PageRow[];
  /** Lines above the table (the board's counts), as cells joined with ` · `; none when absent. */
  preface?(snapshot: ConsoleSnapshot): readonly (readonly Cell[])[];
  /** Shown when there are no rows. */
  readonly empty: string;
}

/** One selectable row of a page. */
export interface PageRow {
  /** Stable identity for keeping the selection across refreshes, unique within the page. */
  readonly key: string;
  /** One cell per page column, or free cells when `span` is set. */
  readonly cells: readonly Cell[];
  /** A row outside the table (a skipped role): its cells run across the width, two spaces apart. */
  readonly span?: boolean;
  /** The teammate the row is (Teammates page), for `x` and `c`. */
  readonly teammate?: TeammateRow;
  /** The task the row is (Board page), for `o` and `r`. */
  readonly task?: TaskRow;
  /** The full detail: a title line, then every field, wrapped by the console. */
  detail(): readonly string[];
}

/** A labelled detail field: `label: value` lines, or `label:` then the value's lines indented. */
export function field(label: string, value: string | readonly string[] | undefined): string[] {
  if (value === undefined) return [];
  const lines = typeof value === "string" ? [value] : value;
  if (lines.length === 0) return [`${label}: (none)`];
  if (lines.length === 1) return [`${label}: ${lines[0] ?? ""}`];
  return [`${label}:`, ...lines.map((l) => `  ${l}`)];
}
