import type { ConsoleSnapshot, RoleRow, SkippedRole } from "./console-model.ts";
import { at, oneLine, safeLines } from "./format.ts";
import { field, type PageRow, type PageView } from "./page.ts";
import type { Cell, Column } from "./table.ts";

/**
 * The Roles page of the console (R61): every discovered role (agent definition) with scope,
 * git state, tools, model chain, verify, worktree and living instances; then each definition
 * discovery skipped, marked `✗ skipped` with its source and reason.
 */

const COLUMNS: readonly Column[] = [
  { title: "role", min: 4, max: 18, rank: 0 },
  { title: "scope", min: 5, max: 13, rank: 1 },
  { title: "git", min: 3, max: 10, rank: 5 },
  { title: "tools", min: 8, max: 28, rank: 3 },
  { title: "model", min: 10, max: 10, rank: 0, flex: true },
  { title: "verify", min: 6, max: 10, rank: 4 },
  { title: "worktree", min: 8, max: 12, rank: 6 },
  { title: "instances", min: 6, max: 20, rank: 2 },
];

/** The tools cell: the tool names, or `Pi defaults` when the role has no `tools` field. */
export function roleTools(r: RoleRow): string {
  if (r.tools === undefined) return "Pi defaults";
  return r.tools.length === 0 ? "(no tools)" : r.tools.map(oneLine).join(", ");
}

function instances(r: RoleRow): string {
  return r.instances.length === 0 ? "none" : r.instances.map(at).join(" ");
}

function roleCells(r: RoleRow): Cell[] {
  return [
    { text: oneLine(r.name), tone: "accent" },
    { text: r.scope, tone: "muted" },
    { text: r.gitManaged ? "git" : "not git", tone: r.gitManaged ? "muted" : "warning" },
    { text: roleTools(r) },
    { text: oneLine(r.modelChain), tone: "muted" },
    { text: r.verify === undefined ? "verify no" : "verify yes", tone: r.verify === undefined ? "dim" : "text" },
    { text: r.worktree ? "worktree yes" : "worktree no", tone: r.worktree ? "text" : "dim" },
    { text: instances(r), tone: r.instances.length ? "success" : "dim" },
  ];
}

/** The detail lines of one role: every field of the definition. */
export function roleDetail(r: RoleRow): string[] {
  return [
    `role ${oneLine(r.name)} · ${r.scope}`,
    ...field("description", safeLines(r.description || "(none)")),
    ...field("source", oneLine(r.source)),
    ...field("git-managed", r.gitManaged ? "yes" : "no (not tracked by git)"),
    ...field("tools", roleTools(r)),
    ...field("model", oneLine(r.modelChain)),
    ...field("verify", r.verify === undefined ? "no" : `yes: ${oneLine(r.verify)}`),
    ...field("worktree", r.worktree ? "yes (each instance works in its own git worktree)" : "no (works in the leader's checkout)"),
    ...field("extensions", r.extensions?.length ? r.extensions.map(oneLine).join(", ") : "none"),
    ...field("instances", instances(r)),
  ];
}

/** The detail lines of one skipped definition. */
export function skippedDetail(k: SkippedRole): string[] {
  return ["skipped definition (not loaded)", ...field("source", oneLine(k.source)), ...field("reason", safeLines(k.reason))];
}

/** The Roles page. */
export const ROLES_PAGE: PageView = {
  id: "roles",
  label: "Roles",
  columns: COLUMNS,
  empty: "No roles found. Define one in .pi/agents/<name>.md or ~/.pi/agent/agents/<name>.md.",
  rows(s: ConsoleSnapshot): PageRow[] {
    const roles: PageRow[] = s.roles.map((r) => ({ key: `role:${r.scope}:${r.name}`, cells: roleCells(r), detail: () => roleDetail(r) }));
    const skipped: PageRow[] = s.skipped.map((k, i) => ({
      key: `skipped:${k.source}:${i}`,
      span: true,
      cells: [{ text: "✗ skipped", tone: "warning" }, { text: oneLine(k.source) }, { text: oneLine(k.reason), tone: "muted" }],
      detail: () => skippedDetail(k),
    }));
    return [...roles, ...skipped];
  },
};
