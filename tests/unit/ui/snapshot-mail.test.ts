import { KeybindingsManager, TUI_KEYBINDINGS } from "@earendil-works/pi-tui";
import { describe, expect, it, vi } from "vitest";
import { createBoard } from "../../../src/board/board.ts";
import { NoteLog } from "../../../src/feed/notes.ts";
import { TaskCosts } from "../../../src/feed/task-costs.ts";
import { MAIL_ROWS, TeamFeed } from "../../../src/feed/team-feed.ts";
import { TeamConsole } from "../../../src/ui/console.ts";
import { buildSnapshot, NOTE_ROWS } from "../../../src/ui/snapshot.ts";
import { ansiTheme, KEY, plain } from "./fixture.ts";

const AT = 1_700_000_000_000;

/** A snapshot of a team with no members: only the feed's rows and the notes. */
function snapshotOf(feed: TeamFeed, notes: NoteLog, now = AT + 1000) {
  return buildSnapshot({ now, members: [], feed, board: createBoard(), costs: new TaskCosts(), discovery: undefined, notes: notes.entries(), teamModel: "Pi default", teamModelRef: undefined });
}

/** A batch delivered into one turn: every row has the delivery's time (feed-hooks.ts). */
function batch(feed: TeamFeed, from: number, count: number, at = AT): void {
  for (let i = from; i < from + count; i++) feed.mail({ kind: "leader", from: "leader", to: "hal", body: `Mail ${i}`, receipt: "delivered into turn", at });
}

/** The console over live sources, on the Mail page; `title()` is the selected row's title. */
function mailConsole(snapshot: () => ReturnType<typeof snapshotOf>) {
  const tui = { terminal: { rows: 20, columns: 100 }, requestRender: vi.fn() };
  const c = new TeamConsole({ tui, theme: ansiTheme, keybindings: new KeybindingsManager(TUI_KEYBINDINGS), snapshot, actions: {} as never, models: () => [], done: vi.fn(), page: "mail" });
  const title = () => /▸.*leader → hal\s+(Mail \d+|Note \d+)/.exec(plain(c.render(100)).find((l) => l.startsWith("▸")) ?? "")?.[1] ?? /▸.*harness → log\s+(Note \d+)/.exec(plain(c.render(100)).find((l) => l.startsWith("▸")) ?? "")?.[1];
  return { c, title };
}

describe("Mail page rows from the feed and the notes", () => {
  it("are newest first also within one batch delivered in the same millisecond", () => {
    const feed = new TeamFeed(() => AT);
    const notes = new NoteLog();
    batch(feed, 1, 3);
    notes.add("Note 1", AT - 5);
    notes.add("Note 2", AT - 5);
    const titles = snapshotOf(feed, notes).mail.map((m) => m.title);
    expect(titles).toEqual(["Mail 3", "Mail 2", "Mail 1", "Note 2", "Note 1"]);
  });

  it("keep the selected row while the feed drops its oldest rows", () => {
    const feed = new TeamFeed(() => AT);
    const notes = new NoteLog();
    batch(feed, 1, MAIL_ROWS);
    const { c, title } = mailConsole(() => snapshotOf(feed, notes));
    for (let i = 0; i < 40; i++) c.handleInput(KEY.down);
    const selected = title();
    expect(selected).toMatch(/^Mail \d+$/);
    batch(feed, MAIL_ROWS + 1, 30, AT + 500); // 30 newer rows: the 30 oldest leave the feed
    c.refresh();
    expect(title()).toBe(selected);
  });

  it("keep the selected note while the window of shown notes slides", () => {
    const feed = new TeamFeed(() => AT);
    const notes = new NoteLog();
    for (let i = 1; i <= NOTE_ROWS; i++) notes.add(`Note ${i}`, AT);
    const { c, title } = mailConsole(() => snapshotOf(feed, notes));
    for (let i = 0; i < 40; i++) c.handleInput(KEY.down);
    const selected = title();
    expect(selected).toMatch(/^Note \d+$/);
    for (let i = 1; i <= 10; i++) notes.add(`Note ${NOTE_ROWS + i}`, AT + 500);
    c.refresh();
    expect(title()).toBe(selected);
  });
});
