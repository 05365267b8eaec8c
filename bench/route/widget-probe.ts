/**
 * The leader's console feed and widget, loaded into the benchmark's harness as the TUI leader
 * loads them (src/leader/team-ui.ts installWidget): the feed's hooks, and a widget whose TUI counts
 * the redraws it asks for. An idle team must ask for none.
 */
import { createBoard } from "../../src/board/index.ts";
import { feedSignals, fetchStats } from "../../src/feed/feed-hooks.ts";
import type { LeaderHarness } from "../../src/harness/harness.ts";
import type { MailDelivery } from "../../src/team/leader-delivery.ts";
import { TeamFeed } from "../../src/feed/team-feed.ts";
import { teammateRow } from "../../src/ui/snapshot.ts";
import { TeamWidget, widgetRows } from "../../src/ui/widget.ts";

const plain = { fg: (_t: string, s: string) => s, bg: (_t: string, s: string) => s, bold: (s: string) => s, inverse: (s: string) => s };

/** The feed and widget of one benchmark team, with counters of what they asked for. */
export class WidgetProbe {
  readonly feed = new TeamFeed();
  /** `requestRender` calls of the widget (each is a TUI frame in a real leader). */
  redraws = 0;
  /** Feed changes heard (each would refresh an open console). */
  feedChanges = 0;
  #widget: TeamWidget | undefined;

  /** Feeds the console from the harness's signals, after the benchmark's own mail probe `also`. */
  hooks(harness: LeaderHarness, also: (e: MailDelivery) => void): void {
    harness.on("mail_delivered", ({ delivery }) => also(delivery));
    feedSignals(harness, this.feed);
  }

  /** Installs the widget on a started harness, refreshed like the TUI leader's. */
  install(harness: LeaderHarness): void {
    const board = createBoard();
    const tui = { terminal: { rows: 40, columns: 120 }, requestRender: () => void (this.redraws += 1) };
    const rows = () => widgetRows(harness.members().filter((m) => m.status === "starting" || m.status === "working").map((m) => teammateRow({ feed: this.feed, board }, m)), Date.now());
    const widget = new TeamWidget({ tui, theme: plain, rows });
    this.#widget = widget;
    this.feed.subscribe(() => {
      this.feedChanges += 1;
      widget.changed();
    });
    harness.subscribe(() => {
      for (const m of this.feed.phases(harness.members())) fetchStats(this.feed, m);
      widget.changed();
    });
  }

  dispose(): void {
    this.#widget?.dispose();
  }
}
