import type { MailKind } from "../mail/index.ts";
import type { ConsoleSnapshot, MailRow } from "./console-model.ts";
import { formatDuration, oneLine, safeLines } from "./format.ts";
import { field, type PageRow, type PageView } from "./page.ts";
import type { UiFg } from "./ports.ts";
import type { Cell, Column } from "./table.ts";

/**
 * The Mail page of the console (R61): traffic newest first (the snapshot's order) with its age,
 * kind, `from → to`, title (R32) and receipt; the detail shows the full body.
 */

const COLUMNS: readonly Column[] = [
  { title: "age", min: 4, max: 9, rank: 0 },
  { title: "kind", min: 4, max: 6, rank: 2 },
  { title: "route", min: 8, max: 26, rank: 0 },
  { title: "title", min: 8, max: 8, rank: 1, flex: true },
  { title: "receipt", min: 8, max: 26, rank: 3 },
];

const KIND_TONE: Record<MailKind, UiFg> = { report: "success", peer: "accent", leader: "accent", user: "warning", board: "muted", dialog: "warning", note: "dim" };

/** The route of a message: `from → to`, names as they are (`leader`, `alice`). */
export function mailRoute(m: MailRow): string {
  return `${oneLine(m.from)} → ${oneLine(m.to)}`;
}

function ago(m: MailRow, now: number): string {
  return `${formatDuration(now - m.at)} ago`;
}

function cells(m: MailRow, now: number): Cell[] {
  return [
    { text: ago(m, now), tone: "muted" },
    { text: m.kind, tone: KIND_TONE[m.kind] },
    { text: mailRoute(m) },
    { text: oneLine(m.title) || "(no content)" },
    { text: oneLine(m.receipt), tone: "dim" },
  ];
}

/** The detail lines of one message: kind, route, time, receipt, then the full body. */
export function mailDetail(m: MailRow, now: number): string[] {
  return [
    `${m.kind} · ${mailRoute(m)}`,
    ...field("sent", `${ago(m, now)} (${new Date(m.at).toISOString()})`),
    ...field("receipt", oneLine(m.receipt)),
    ...field("title", oneLine(m.title)),
    "",
    ...(m.body.trim() === "" ? ["(no content)"] : safeLines(m.body.replace(/\s+$/, ""))),
  ];
}

/**
 * Row keys that survive new mail arriving at the top and old rows leaving: the row's `id`; for a
 * row without one, time, sender and recipient, plus a counter of equal ones from the oldest end.
 */
function mailKeys(mail: readonly MailRow[]): string[] {
  const seen = new Map<string, number>();
  const keys: string[] = [];
  for (let i = mail.length - 1; i >= 0; i--) {
    const m = mail[i];
    if (!m) continue;
    if (m.id !== undefined) {
      keys[i] = `id:${m.id}`;
      continue;
    }
    const base = `${m.at}:${m.from}:${m.to}`;
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    keys[i] = `${base}:${n}`;
  }
  return keys;
}

/** The Mail page. */
export const MAIL_PAGE: PageView = {
  id: "mail",
  label: "Mail",
  columns: COLUMNS,
  empty: "No mail yet.",
  rows(s: ConsoleSnapshot): PageRow[] {
    const keys = mailKeys(s.mail);
    return s.mail.map((m, i) => ({ key: keys[i] ?? String(i), cells: cells(m, s.now), detail: () => mailDetail(m, s.now) }));
  },
};
