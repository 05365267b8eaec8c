import { TASK_STATUSES, type TaskStatus } from "../board/index.ts";
import type { ConsoleSnapshot, TaskRow } from "./console-model.ts";
import { at, formatCost, formatTokens, formatUsage, oneLine, safeLines } from "./format.ts";
import { field, type PageRow, type PageView } from "./page.ts";
import type { UiFg } from "./ports.ts";
import type { Cell, Column } from "./table.ts";

/**
 * The Board page of the console (R61): a counts line per status, then every task with its
 * status, holder, dependencies met (`deps 1/2`), verify state, resources and cost.
 */

/** The id column's widest, `#` included. */
export const ID_MAX = 32;

const COLUMNS: readonly Column[] = [
  // Wide enough for most ids (they are at most 48 characters); a cut one keeps both ends, and
  // never so narrow that two ids read the same (`#add-mu…tion-2` vs `#add-mu…ction`).
  { title: "id", min: 8, max: ID_MAX, rank: 0, distinct: true },
  { title: "status", min: 6, max: 19, rank: 0 },
  { title: "subject", min: 12, max: 12, rank: 1, flex: true },
  { title: "holder", min: 6, max: 22, rank: 2 },
  { title: "deps", min: 6, max: 9, rank: 3 },
  { title: "verify", min: 8, max: 18, rank: 4 },
  { title: "resources", min: 6, max: 20, rank: 5 },
  { title: "cost", min: 6, max: 11, rank: 6 },
];

const STATUS_TONE: Record<TaskStatus, UiFg> = {
  in_review: "accent",
  claimed: "success",
  parked: "warning",
  pending: "text",
  completed: "muted",
  superseded: "dim",
};

/** `pending · failed ×1`: the status, marked with the task's failed submissions (W22). */
export function statusText(t: TaskRow): string {
  return t.failedSubmits ? `${t.status} · failed ×${t.failedSubmits}` : t.status;
}

/** Who holds or completed it; for a pending task, why it waits (W20), e.g. `next notice to @bo in 3m12s`. */
function holderCell(t: TaskRow): Cell {
  if (t.holder) return { text: at(t.holder), tone: "muted" };
  if (t.completedBy) return { text: `by ${at(t.completedBy)}`, tone: "muted" };
  // Unmet dependencies are the deps column's to show; the detail has every wait in full.
  const blocked = t.dependsOn.some((d) => !d.met);
  const waits = t.waitsShort ?? t.waits;
  return waits && !blocked ? { text: oneLine(waits), tone: "warning" } : { text: "—", tone: "muted" };
}

/** Dependencies as `deps met/total`, or "" when the task has none. */
export function depsText(t: TaskRow): string {
  if (t.dependsOn.length === 0) return "";
  return `deps ${t.dependsOn.filter((d) => d.met).length}/${t.dependsOn.length}`;
}

function cells(t: TaskRow): Cell[] {
  const unmet = t.dependsOn.some((d) => !d.met);
  const verifyTone: UiFg = t.verify === "passed" ? "success" : t.verify === "failed once" || t.verify === "parked" ? "warning" : "muted";
  return [
    { text: `#${oneLine(t.id)}`, tone: "accent", cut: "middle" },
    { text: statusText(t), tone: t.failedSubmits ? "warning" : STATUS_TONE[t.status] },
    { text: oneLine(t.subject) },
    holderCell(t),
    { text: depsText(t), tone: unmet ? "warning" : "muted" },
    { text: t.verify === "none" ? "" : `verify ${t.verify}`, tone: verifyTone },
    { text: t.resources.map(oneLine).join(", "), tone: "muted" },
    { text: t.tokens > 0 || t.cost > 0 ? formatUsage(t.tokens, t.cost) : "", tone: "muted" },
  ];
}

/** The counts line: `1 in_review · 2 claimed · ...` for every status, in board order. */
export function countsCells(counts: ConsoleSnapshot["counts"]): Cell[] {
  const total = TASK_STATUSES.reduce((n, s) => n + (counts[s] ?? 0), 0);
  return [
    { text: `${total} ${total === 1 ? "task" : "tasks"}`, tone: "accent" },
    ...TASK_STATUSES.map((s): Cell => ({ text: `${counts[s] ?? 0} ${s}`, tone: (counts[s] ?? 0) > 0 ? STATUS_TONE[s] : "dim" })),
  ];
}

/**
 * The criteria the task is reviewed against (R43): its own verify, else the role default it was
 * or will be reviewed under, labelled as that role's; for a pending task without its own, that
 * its claimer's role decides.
 */
function verifyField(t: TaskRow): string[] {
  const c = t.criteria;
  if (c) return field(c.role ? `verify (role ${oneLine(c.role)}'s default)` : "verify", safeLines(c.text.trim()));
  const open = t.status === "pending";
  return field("verify", open ? "none of its own: its claimer's role default applies, if it has one" : "none: neither the task nor its role has verify");
}

/** The detail lines of one task: every field, with description, result and findings in full. */
export function taskDetail(t: TaskRow): string[] {
  const deps = t.dependsOn.map((d) => `#${oneLine(d.id)} (${d.met ? "met" : "unmet"})`);
  const text = (v: string | undefined): string[] | undefined => (v === undefined || v.trim() === "" ? undefined : safeLines(v.replace(/\s+$/, "")));
  return [
    `#${oneLine(t.id)} ${oneLine(t.subject)}`,
    ...field("status", statusText(t)),
    ...field("waits", t.waits === undefined ? undefined : oneLine(t.waits)),
    ...field("holder", t.holder ? at(t.holder) : t.completedBy ? `none · completed by ${at(t.completedBy)}` : "none"),
    ...field("depends on", deps.length ? `${deps.join(", ")} · ${depsText(t)}` : "nothing"),
    ...field("resources", t.resources.length ? t.resources.map(oneLine).join(", ") : "none"),
    ...field("review", t.verify),
    ...verifyField(t),
    ...field("tokens", `${formatTokens(t.tokens)} · cost ${formatCost(t.cost)}`),
    ...field("description", text(t.description) ?? "(none)"),
    ...field("result", text(t.result)),
    ...field("findings", text(t.findings)),
  ];
}

/** The Board page. */
export const BOARD_PAGE: PageView = {
  id: "board",
  label: "Board",
  columns: COLUMNS,
  empty: "The board is empty. The leader adds tasks with task_create.",
  preface: (s) => [countsCells(s.counts)],
  rows(s: ConsoleSnapshot): PageRow[] {
    return s.tasks.map((t) => ({ key: t.id, cells: cells(t), task: t, detail: () => taskDetail(t) }));
  },
};
