import type { ConsoleSnapshot, TeammateRow } from "./console-model.ts";
import { at, formatCost, formatDuration, formatGauge, formatTokens, formatUsage, oneLine, safeLines } from "./format.ts";
import { field, type PageRow, type PageView } from "./page.ts";
import type { UiFg } from "./ports.ts";
import type { Cell, Column } from "./table.ts";

/**
 * The Teammates page of the console (R61): one row per teammate with its status and time in
 * state, context gauge, usage, model, work, branch and activity. At 40 columns a row keeps name,
 * status and gauge.
 */

const COLUMNS: readonly Column[] = [
  { title: "name", min: 4, max: 16, rank: 0 },
  { title: "status", min: 8, max: 22, rank: 0 },
  { title: "context", min: 12, max: 14, rank: 0 },
  { title: "usage", min: 6, max: 12, rank: 4 },
  { title: "model", min: 8, max: 22, rank: 5 },
  { title: "work", min: 8, max: 24, rank: 3 },
  { title: "branch", min: 8, max: 24, rank: 6 },
  { title: "activity", min: 16, max: 16, rank: 2, flex: true },
];

/** Whether a teammate's process is living, i.e. can be shut down or compacted. */
export function isLiving(t: TeammateRow): boolean {
  return t.status !== "stopped";
}

/**
 * A teammate's status with its time in state, from `now` (ms): `working 12s`, `idle 3m`,
 * `stalled 31m` / `stalled · silent 31m` while the heartbeat flags it, `stopped (exit 137)` or
 * `stopped (SIGKILL)` once ended.
 */
export function teammateStatus(t: TeammateRow, now: number): Cell {
  if (t.status === "stopped") {
    const e = t.exit;
    if (e?.signal) return { text: `stopped (${e.signal})`, tone: "error" };
    if (e && e.code !== null) return { text: `stopped (exit ${e.code})`, tone: e.code === 0 ? "muted" : "error" };
    return { text: "stopped", tone: "muted" };
  }
  if (t.stall) {
    const kind = t.stall.kind === "silent" ? "stalled · silent" : "stalled";
    return { text: `${kind} ${formatDuration(now - t.stall.since)}`, tone: "warning" };
  }
  const tone: Record<TeammateRow["status"], UiFg> = { starting: "dim", idle: "muted", working: "success", stopping: "warning", stopped: "muted" };
  return { text: `${t.status} ${formatDuration(now - t.since)}`, tone: tone[t.status] };
}

function gaugeCell(t: TeammateRow): Cell {
  const text = formatGauge(t.context, t.compaction);
  const p = t.context?.percent ?? 0;
  const tone: UiFg = t.compaction?.state === "running" ? "accent" : p >= 90 ? "error" : p >= 75 ? "warning" : "text";
  return { text, tone };
}

/** The work cell: claimed board tasks (`#id subject`), else the direct assignment's first line. */
export function teammateWork(t: TeammateRow): string {
  if (t.tasks.length > 0) return t.tasks.map((k) => `#${oneLine(k.id)} ${oneLine(k.subject)}`).join(", ");
  return oneLine(t.assignment ?? "");
}

/** The model cell: the label without its `provider/` prefix (the detail shows it in full). */
export function shortModel(label: string): string {
  const l = oneLine(label);
  const slash = l.indexOf("/");
  return slash > 0 && !l.slice(0, slash).includes(" ") ? l.slice(slash + 1) : l;
}

function cells(t: TeammateRow, now: number): Cell[] {
  return [
    { text: at(t.name), tone: "accent" },
    teammateStatus(t, now),
    gaugeCell(t),
    { text: formatUsage(t.tokens, t.cost), tone: "muted" },
    { text: shortModel(t.model), tone: "muted" },
    { text: teammateWork(t) },
    { text: oneLine(t.branch ?? ""), tone: "muted" },
    { text: oneLine(t.activity ?? ""), tone: "dim" },
  ];
}

function compactionText(c: TeammateRow["compaction"], now: number): string | undefined {
  if (!c) return undefined;
  const when = `${formatDuration(now - c.at)} ago`;
  if (c.state === "running") return `running (by ${c.by}, started ${when})`;
  if (c.state === "failed") return `failed ${when} (by ${c.by}): ${oneLine(c.error ?? "no reason given")}`;
  const sizes = c.tokensBefore !== undefined && c.tokensAfter !== undefined ? `, ${formatTokens(c.tokensBefore)} → ${formatTokens(c.tokensAfter)}` : "";
  return `done ${when} (by ${c.by}${sizes})`;
}

function exitText(t: TeammateRow): string | undefined {
  if (!t.exit) return undefined;
  return t.exit.signal ? `signal ${t.exit.signal}` : `code ${t.exit.code ?? "?"}`;
}

/** The detail lines of one teammate: every field, then recent activity and the stderr tail. */
export function teammateDetail(t: TeammateRow, now: number): string[] {
  const stderr = t.stderrTail.trim() === "" ? [] : safeLines(t.stderrTail.replace(/\s+$/, ""));
  return [
    `${at(t.name)} · role ${oneLine(t.agent)}`,
    ...field("status", teammateStatus(t, now).text),
    ...(t.stall ? field("health", `${t.stall.kind} for ${formatDuration(now - t.stall.since)}`) : []),
    ...field("exit", exitText(t)),
    ...field("model", oneLine(t.model)),
    ...field("context", formatGauge(t.context, t.compaction)),
    ...field("compaction", compactionText(t.compaction, now)),
    ...field("tokens", `${formatTokens(t.tokens)} · cost ${formatCost(t.cost)}`),
    ...field("assignment", t.assignment === undefined ? undefined : safeLines(t.assignment)),
    ...field("tasks", t.tasks.map((k) => `#${oneLine(k.id)} ${oneLine(k.subject)}`)),
    ...field("branch", t.branch === undefined ? undefined : oneLine(t.branch)),
    ...field("activity", oneLine(t.activity ?? "") || "(none)"),
    ...field("recent", t.recent.map(oneLine)),
    ...field("stderr", stderr),
  ];
}

/** The Teammates page. */
export const TEAMMATES_PAGE: PageView = {
  id: "teammates",
  label: "Teammates",
  columns: COLUMNS,
  empty: "No teammates. The leader spawns them with teammate_spawn.",
  rows(s: ConsoleSnapshot): PageRow[] {
    return s.teammates.map((t) => ({ key: t.name, cells: cells(t, s.now), teammate: t, detail: () => teammateDetail(t, s.now) }));
  },
};
