import { CONSOLE_PAGES, type ConsoleSnapshot } from "./console-model.ts";
import { PAGE_VIEWS } from "./console-pages.ts";
import { oneLine } from "./format.ts";
import type { Cell } from "./table.ts";

/** Rows shown per page in the summary before `+N more`. */
export const SUMMARY_ROWS_PER_PAGE = 20;

function plain(cells: readonly Cell[], sep: string): string {
  return cells
    .map((c) => c.text)
    .filter((t) => t !== "")
    .join(sep);
}

/**
 * The console's four pages as plain text (no ANSI) for RPC and print modes, where `custom()`
 * cannot draw (R61, pi-tui.md §9): a title line with the team model, then per page a heading
 * `Teammates (3)` and its rows as ` · `-joined cells (the same cells the console draws), at most
 * {@link SUMMARY_ROWS_PER_PAGE} per page and then `+N more`.
 */
export function consoleSummary(snapshot: ConsoleSnapshot): string {
  const out = [`pi-resident-teams · team model: ${oneLine(snapshot.teamModel)}`];
  for (const page of CONSOLE_PAGES) {
    const view = PAGE_VIEWS[page];
    const rows = view.rows(snapshot);
    out.push("", `${view.label} (${rows.length})`);
    for (const cells of view.preface?.(snapshot) ?? []) out.push(`  ${plain(cells, " · ")}`);
    if (rows.length === 0) out.push(`  ${view.empty}`);
    for (const row of rows.slice(0, SUMMARY_ROWS_PER_PAGE)) out.push(`  ${plain(row.cells, row.span ? "  " : " · ")}`);
    if (rows.length > SUMMARY_ROWS_PER_PAGE) out.push(`  +${rows.length - SUMMARY_ROWS_PER_PAGE} more`);
  }
  return out.join("\n");
}
