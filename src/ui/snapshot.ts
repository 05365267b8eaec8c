/**
 * Builds the console's `ConsoleSnapshot` (R61) from what the leader holds in memory: the
 * harness's members, the feed, the board, the last discovery and the note log. Reads no file.
 */
import { holderOf, unmetDependencies, type Board, type Wait } from "../board/index.ts";
import { TASK_STATUSES, type Task, type TaskStatus } from "../board/types.ts";
import type { AgentDefinition, AgentDiscovery } from "../agents/index.ts";
import type { Note } from "../feed/index.ts";
import type { TaskCosts, Usage } from "../feed/index.ts";
import { titleOf, type TeamFeed } from "../feed/index.ts";
import { LEADER_NAME, TASK_BOARD, USER_NAME } from "../mail/index.ts";
import type { Member } from "../team/member.ts";
import type { ConsoleSnapshot, MailRow, RoleRow, SkippedRole, TaskRow, TeammateRow, VerifyState } from "./console-model.ts";

/** Notes shown on the Mail page (the newest). */
export const NOTE_ROWS = 200;

/** What a snapshot is built from. */
export interface SnapshotSources {
  readonly now: number;
  readonly members: readonly Member[];
  readonly feed: TeamFeed;
  readonly board: Board;
  readonly costs: TaskCosts;
  /** The last discovery (agent files plus session roles); undefined before the first. */
  readonly discovery: AgentDiscovery | undefined;
  readonly notes: readonly Note[];
  /** e.g. `team model: Pi default`. */
  readonly teamModel: string;
  /** The team default model when one is set, for the role model chains. */
  readonly teamModelRef: { provider: string; id: string } | undefined;
  readonly dialogsWaiting?: number;
  /** Why a pending task waits (the board's notice rules, W20); none without a board host. */
  readonly waiting?: (taskId: string) => Wait | undefined;
}

/** The whole snapshot. Pure over its sources; O(members + tasks + mail). */
export function buildSnapshot(s: SnapshotSources): ConsoleSnapshot {
  const usageOf = (spawnId: string): Usage | undefined => {
    const f = s.feed.get(spawnId);
    return f ? { tokens: f.tokens, cost: f.cost } : undefined;
  };
  const counts = Object.fromEntries(TASK_STATUSES.map((st) => [st, 0])) as Record<TaskStatus, number>;
  for (const t of s.board.tasks.values()) counts[t.state.status] += 1;
  return {
    now: s.now,
    // Spawn order, not registration order: parallel spawns register in any order.
    teammates: [...s.members].sort((a, b) => a.startedAt - b.startedAt || a.name.localeCompare(b.name)).map((m) => teammateRow(s, m)),
    roles: (s.discovery?.agents ?? []).map((a) => roleRow(a, s)),
    skipped: skippedRoles(s.discovery),
    tasks: [...s.board.tasks.values()].sort((a, b) => a.seq - b.seq).map((t) => taskRow(s.board, t, s.costs.of(t.id, usageOf), s.members, s.waiting)),
    counts,
    mail: mailRows(s),
    teamModel: s.teamModel,
    ...(s.dialogsWaiting ? { dialogsWaiting: s.dialogsWaiting } : {}),
  };
}

/** The heartbeat's flag (R52, R53): noticed silence; `silent` when no model output ever came. */
function stallOf(m: Member): TeammateRow["stall"] {
  if (!("life" in m.state)) return undefined;
  const a = m.state.life.activity;
  return a.noticed ? { kind: a.modelOutput ? "stalled" : "silent", since: a.lastOutputAt } : undefined;
}

/** One Teammates row (also the widget's source, for starting and working teammates). */
export function teammateRow(s: Pick<SnapshotSources, "feed" | "board">, m: Member): TeammateRow {
  const f = s.feed.mate(m);
  const stall = stallOf(m);
  const tasks = [...s.board.tasks.values()].filter((t) => holderOf(t.state)?.spawnId === m.spawnId).map((t) => ({ id: t.id, subject: t.subject }));
  const branch = m.worktree?.branch ?? m.kept?.name;
  return {
    name: m.name,
    agent: m.agent.name,
    status: m.state.phase === "capturing" ? "stopped" : m.state.phase,
    since: f.since,
    ...(stall ? { stall } : {}),
    ...(!("life" in m.state) ? { exit: m.state.exit } : {}),
    ...(f.activity ? { activity: f.activity } : {}),
    model: m.modelLabel,
    ...(f.context ? { context: f.context } : {}),
    ...(f.compaction ? { compaction: f.compaction } : {}),
    tokens: f.tokens,
    cost: f.cost,
    ...(m.openAssignment !== undefined ? { assignment: titleOf(m.openAssignment) } : {}),
    tasks,
    ...(branch ? { branch } : {}),
    recent: [...f.recent],
    stderrTail: m.proc?.stderrTail(2048).trim() ?? "",
  };
}

function modelChain(a: AgentDefinition, teamModel: SnapshotSources["teamModelRef"]): string {
  if (a.model?.kind === "pin") return `${a.model.provider}/${a.model.id} (role pin)`;
  if (a.model?.kind === "inherit") return "leader's model (inherit)";
  return teamModel ? `${teamModel.provider}/${teamModel.id} (team default)` : "Pi default (no role or team model)";
}

function roleRow(a: AgentDefinition, s: SnapshotSources): RoleRow {
  return {
    name: a.name,
    description: a.description,
    scope: a.scope,
    gitManaged: a.gitManaged,
    source: a.source,
    tools: a.tools,
    modelChain: modelChain(a, s.teamModelRef),
    ...(a.verify ? { verify: a.verify } : {}),
    worktree: a.worktree,
    ...(a.extensions?.length ? { extensions: a.extensions.map((e) => e.path) } : {}),
    instances: s.members.filter((m) => m.living && m.agent.name === a.name).map((m) => m.name),
  };
}

function skippedRoles(d: AgentDiscovery | undefined): SkippedRole[] {
  if (!d) return [];
  const errors = d.diagnostics.filter((x) => x.severity === "error").map((x) => ({ source: x.source, reason: x.message }));
  const untrusted = d.skipped.filter((x) => x.reason === "project not trusted").map((x) => ({ source: x.source, reason: "project not trusted (start pi with -a or /trust)" }));
  return [...errors, ...untrusted];
}

function verifyState(t: Task, gated: boolean): VerifyState {
  const st = t.state;
  if (st.status === "in_review") return st.holding.failures > 0 ? "failed once" : "reviewing";
  if (st.status === "parked") return "parked";
  if (st.status === "claimed" && st.holding.failures > 0) return "failed once";
  // Gated by the task's own verify or by its holder's (completer's) role default.
  if (st.status === "completed") return gated ? "passed" : "none";
  return gated ? "pending" : "none";
}

/**
 * The role whose verify default applies to `t` (R43): its holder's, or for a completed task its
 * completer's (the latest incarnation of that name started before the completion).
 */
function reviewRole(t: Task, members: readonly Member[]): Member["agent"] | undefined {
  const st = t.state;
  const holder = holderOf(st);
  if (holder) return members.find((m) => m.spawnId === holder.spawnId)?.agent;
  if (st.status !== "completed" || !st.by) return undefined;
  const by = st.by.toLowerCase();
  return members.filter((m) => m.name.toLowerCase() === by && m.startedAt <= st.completedAt).sort((a, b) => b.startedAt - a.startedAt)[0]?.agent;
}

/** The criteria `t` is reviewed against: the gate's, its own verify, else its role's default. */
function criteriaOf(t: Task, members: readonly Member[]): TaskRow["criteria"] {
  const role = t.verify === undefined ? reviewRole(t, members) : undefined;
  const text = t.state.status === "in_review" ? t.state.gate.criteria : t.verify ?? role?.verify;
  if (text === undefined || text.trim() === "") return undefined;
  return t.verify === undefined && role ? { text, role: role.name } : { text };
}

function taskRow(board: Board, t: Task, cost: Usage, members: readonly Member[], waiting: SnapshotSources["waiting"]): TaskRow {
  const waits = t.state.status === "pending" ? waiting?.(t.id) : undefined;
  const unmet = new Set(unmetDependencies(board, t));
  const holder = holderOf(t.state);
  const criteria = criteriaOf(t, members);
  return {
    id: t.id,
    subject: t.subject,
    status: t.state.status,
    ...(holder ? { holder: holder.name } : {}),
    ...(t.state.status === "completed" && t.state.by ? { completedBy: t.state.by } : {}),
    dependsOn: t.dependsOn.map((id) => ({ id, met: !unmet.has(id) })),
    resources: t.resources,
    verify: verifyState(t, criteria !== undefined),
    ...(criteria ? { criteria } : {}),
    tokens: cost.tokens,
    cost: cost.cost,
    ...(t.description ? { description: t.description } : {}),
    ...(t.lastResult ? { result: t.lastResult } : {}),
    ...(t.lastError ? { findings: t.lastError } : {}),
    ...(t.failedSubmits ? { failedSubmits: t.failedSubmits } : {}),
    ...(waits ? { waits: waits.text, waitsShort: waits.short } : {}),
  };
}

/** Feed rows, mail read and not yet delivered (`queued`), and harness notes; newest first. */
function mailRows(s: SnapshotSources): MailRow[] {
  const queued = s.members.flatMap((m) => m.pendingMail.map((r): MailRow => ({
    id: `queued:${m.spawnId}:${r.from}:${r.id}`,
    at: r.at,
    kind: r.from === LEADER_NAME ? "leader" : r.from === USER_NAME ? "user" : r.from === TASK_BOARD ? "board" : "peer",
    from: r.from,
    to: m.name,
    title: titleOf(r.body),
    body: r.body,
    receipt: "queued",
  })));
  const notes = s.notes.slice(-NOTE_ROWS).map((n): MailRow => ({ id: `note:${n.seq}`, at: n.at, kind: "note", from: "harness", to: "log", title: titleOf(n.text), body: n.text, receipt: "noted" }));
  // Reversed first: rows of one batch share a millisecond, and the stable sort keeps them newest first.
  return [...s.feed.mailRows(), ...queued, ...notes].reverse().sort((a, b) => b.at - a.at);
}
