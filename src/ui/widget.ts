import { truncateToWidth, type Component } from "@earendil-works/pi-tui";
import type { Board } from "../board/index.ts";
import { isActive } from "../team/lifecycle-state.ts";
import type { TeammateRow, WidgetRow } from "./console-model.ts";
import { oneLine } from "./format.ts";
import { teammateStatus } from "./page-teammates.ts";
import type { ThemeLike, TuiLike } from "./ports.ts";

/** Spinner frames, one per tick. */
export const SPINNER_FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"] as const;
/** Spinner tick in ms: at most four redraws a second. */
export const SPINNER_INTERVAL_MS = 250;
/** Rows shown before `+N more`. */
export const WIDGET_MAX_ROWS = 5;

/** A verify review in progress (R44): the task in review and whose submission it judges. */
export interface ReviewInProgress {
  readonly taskId: string;
  readonly holder: string;
}

/** The verify reviews running on `board` (its tasks in review, in board order), for the widget. */
export function reviewsInProgress(board: Board): ReviewInProgress[] {
  return [...board.tasks.values()]
    .sort((a, b) => a.seq - b.seq)
    .flatMap((t) => (t.state.status === "in_review" ? [{ taskId: t.id, holder: t.state.holding.holder.name }] : []));
}

/**
 * The widget rows of a team (R62): its starting and working teammates in order, with their
 * activity (or `starting…`/`working…`) and, when the heartbeat flagged one, the same stall text
 * the console shows (`stalled 31m`, `stalled · silent 31m`), timed from `now` (ms); then one
 * `reviewer · reviewing #id for @holder` row per verify review running, so the team does not
 * look idle while only reviewers work.
 */
export function widgetRows(teammates: readonly TeammateRow[], now: number, reviews: readonly ReviewInProgress[] = []): WidgetRow[] {
  const mates = teammates
    .filter((t) => isActive(t.status))
    .map((t) => {
      const activity = oneLine(t.activity ?? "") || `${t.status}…`;
      return t.stall ? { name: t.name, activity, stall: teammateStatus(t, now).text } : { name: t.name, activity };
    });
  return [...mates, ...reviews.map((r) => ({ name: "reviewer", activity: `reviewing #${oneLine(r.taskId)} for @${oneLine(r.holder)}` }))];
}

/** What the lead passes to {@link TeamWidget}. */
export interface TeamWidgetOptions {
  readonly tui: TuiLike;
  readonly theme: ThemeLike;
  /** The starting or working teammates now, read from memory on every render (cheap). */
  readonly rows: () => readonly WidgetRow[];
}

/**
 * The passive widget under the editor (R62): one line per starting or working teammate,
 * `⠋ name · activity` plus ` · stalled · silent 31m` when flagged, and per running reviewer, at most
 * {@link WIDGET_MAX_ROWS} then `+N more`; no lines at all (hidden) when nobody works. Its
 * spinner timer (every {@link SPINNER_INTERVAL_MS} ms, unref'd) runs only while there are rows,
 * so an idle team causes no redraws; `dispose()` clears it. It only displays: no input (L18).
 * Install it with
 * `ctx.ui.setWidget(key, (tui, theme) => new TeamWidget({ tui, theme, rows }), { placement: "belowEditor" })`.
 */
export class TeamWidget implements Component {
  private readonly o: TeamWidgetOptions;
  private timer: ReturnType<typeof setInterval> | undefined;
  private frame = 0;
  private disposed = false;

  /** Starts the spinner at once when `rows()` is already non-empty. */
  constructor(options: TeamWidgetOptions) {
    this.o = options;
    this.sync(this.o.rows().length > 0);
  }

  /**
   * Call when the team may have changed: starts or stops the timer, and redraws only when the
   * widget appears or goes away. Other changes (a new activity line) show at the next tick, so
   * a streaming teammate costs at most four redraws a second, and a change that adds or removes no
   * row (queue steps, board bookkeeping) costs none.
   */
  changed(): void {
    const was = this.timer !== undefined;
    const busy = this.o.rows().length > 0;
    this.sync(busy);
    if (!this.disposed && busy !== was) this.o.tui.requestRender();
  }

  /** Lines fitted to `width`; `[]` when there are no rows. */
  render(width: number): readonly string[] {
    const rows = this.o.rows();
    this.sync(rows.length > 0);
    if (rows.length === 0 || width <= 0) return [];
    const { theme } = this.o;
    const spin = SPINNER_FRAMES[this.frame % SPINNER_FRAMES.length] ?? "·";
    const lines = rows.slice(0, WIDGET_MAX_ROWS).map((r) => {
      const activity = oneLine(r.activity);
      const parts = [`${theme.fg("accent", spin)} ${theme.bold(oneLine(r.name))}`];
      if (activity) parts.push(theme.fg("muted", activity));
      if (r.stall) parts.push(theme.fg("warning", oneLine(r.stall)));
      return truncateToWidth(parts.join(theme.fg("dim", " · ")), width, "…");
    });
    if (rows.length > WIDGET_MAX_ROWS) lines.push(truncateToWidth(theme.fg("dim", `  +${rows.length - WIDGET_MAX_ROWS} more`), width, "…"));
    return lines;
  }

  /** Nothing cached: `render` reads the rows each time. */
  invalidate(): void {}

  /** Stops the timer for good; Pi calls this when the widget is replaced or cleared. */
  dispose(): void {
    this.disposed = true;
    this.sync(false);
  }

  /** Whether the spinner timer is running (for tests and diagnostics). */
  get animating(): boolean {
    return this.timer !== undefined;
  }

  private sync(busy: boolean): void {
    if (busy && !this.disposed && !this.timer) {
      this.timer = setInterval(() => this.tick(), SPINNER_INTERVAL_MS);
      this.timer.unref?.();
    } else if ((!busy || this.disposed) && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private tick(): void {
    if (this.o.rows().length === 0) {
      // The rows went away without `changed()`: one last redraw hides the widget.
      this.sync(false);
      this.o.tui.requestRender();
      return;
    }
    this.frame = (this.frame + 1) % SPINNER_FRAMES.length;
    this.o.tui.requestRender();
  }
}
