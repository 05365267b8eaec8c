import { KeybindingsManager, stripTerminalSequences, TUI_KEYBINDINGS, visibleWidth } from "@earendil-works/pi-tui";
import { expect, vi } from "vitest";
import type { TaskCreateArgs } from "../../../src/board/index.ts";
import type { ConsoleActions, ConsolePage, ConsoleSnapshot, MailRow, ModelChoice, TaskRow, TeammateRow } from "../../../src/ui/console-model.ts";
import { TeamConsole } from "../../../src/ui/console.ts";
import type { ThemeLike, UiFg } from "../../../src/ui/ports.ts";

/** The fixture's clock (ms). */
export const NOW = 1_700_000_000_000;
const S = 1000;
const M = 60 * S;

const LONG_ACTIVITY =
  "bash npm test -- --run tests/unit/ui --reporter verbose and then a very long tail of arguments that no terminal is wide enough to show on one line";

function mate(t: Partial<TeammateRow> & Pick<TeammateRow, "name" | "status">): TeammateRow {
  return { agent: "worker", since: NOW - 10 * S, model: "anthropic/claude-sonnet-4 (role)", tokens: 0, cost: 0, tasks: [], recent: [], stderrTail: "", ...t };
}

const TEAMMATES: TeammateRow[] = [
  mate({ name: "scout", status: "starting", since: NOW - 2 * S, model: "Pi default" }),
  mate({
    name: "alice",
    status: "working",
    since: NOW - 12 * S,
    activity: LONG_ACTIVITY,
    context: { tokens: 45_000, window: 200_000, percent: 22 },
    tokens: 12_345,
    cost: 0.12,
    tasks: [{ id: "ui-console", subject: "Build the console" }],
    branch: "pi-team/alice-1234abcd",
    recent: ["read src/ui/console-model.ts", "edit src/ui/console.ts", "RECENT-LAST bash npm run typecheck"],
    stderrTail: "warn: something odd\nSTDERR-LAST line",
  }),
  mate({ name: "bob", agent: "reviewer", status: "idle", since: NOW - 3 * M, assignment: "Review the auth module\nthen report", context: { tokens: 120_000, window: 200_000, percent: 60 } }),
  mate({ name: "carol", status: "working", since: NOW - 40 * M, stall: { kind: "stalled", since: NOW - 31 * M }, activity: "bash sleep 9999" }),
  mate({ name: "dave", status: "working", since: NOW - 35 * M, stall: { kind: "silent", since: NOW - 31 * M } }),
  mate({ name: "erin", status: "stopping", since: NOW - 5 * S }),
  mate({ name: "frank", status: "stopped", since: NOW - 2 * M, exit: { code: 137, signal: null }, branch: "pi-team/frank-feedbeef" }),
  mate({ name: "grace", status: "stopped", since: NOW - 1 * M, exit: { code: null, signal: "SIGKILL" } }),
  mate({
    name: "研究者",
    agent: "researcher",
    status: "working",
    since: NOW - 90 * S,
    activity: "compacting its context",
    context: { tokens: null, window: 200_000, percent: null },
    compaction: { at: NOW - 3 * S, state: "running", by: "user" },
  }),
];

function task(t: Partial<TaskRow> & Pick<TaskRow, "id" | "status">): TaskRow {
  return { subject: `Subject of ${t.id}`, dependsOn: [], resources: [], verify: "none", tokens: 0, cost: 0, ...t };
}

const TASKS: TaskRow[] = [
  task({
    id: "ui-console",
    status: "in_review",
    holder: "alice",
    subject: "Build the console",
    dependsOn: [{ id: "ui-model", met: true }],
    resources: ["src/ui"],
    verify: "reviewing",
    tokens: 30_000,
    cost: 0.4,
    description: "Write the full-screen console.\nDESC-LAST line of the description",
    result: "Done; RESULT-LAST see the commit",
    findings: "FINDINGS-LAST none yet",
  }),
  task({ id: "ui-widget", status: "claimed", holder: "bob", dependsOn: [{ id: "ui-model", met: true }, { id: "ui-console", met: false }], verify: "pending" }),
  task({ id: "auth-fix", status: "parked", holder: "carol", resources: ["src/auth", "db"], verify: "parked", findings: "Tests fail twice in a row." }),
  task({ id: "docs", status: "pending", dependsOn: [{ id: "ui-widget", met: false }] }),
  task({ id: "ui-model", status: "completed", verify: "passed", tokens: 8_000, cost: 0.05, result: "console-model.ts written" }),
  task({ id: "old-plan", status: "superseded", verify: "failed once" }),
];

const LONG_BODY = Array.from({ length: 40 }, (_, i) => `Body line ${i + 1} with enough words to wrap at narrow widths of the console.`).join("\n");

function mail(m: Partial<MailRow> & Pick<MailRow, "kind" | "from" | "to" | "title">): MailRow {
  return { at: NOW - 60 * S, body: `${m.title}\n${LONG_BODY}\nBODY-LAST line`, receipt: "delivered into turn", ...m };
}

const MAIL: MailRow[] = [
  mail({ at: NOW - 5 * S, kind: "report", from: "alice", to: "leader", title: "Console done, tests green", receipt: "reported (completed)" }),
  mail({ at: NOW - 20 * S, kind: "peer", from: "bob", to: "alice", title: "Can you look at the widget?", receipt: "queued" }),
  mail({ at: NOW - 60 * S, kind: "leader", from: "leader", to: "bob", title: "Review the auth module", receipt: "steered" }),
  mail({ at: NOW - 2 * M, kind: "board", from: "leader", to: "carol", title: "Task auth-fix parked", receipt: "delivered into turn" }),
  mail({ at: NOW - 3 * M, kind: "dialog", from: "dave", to: "leader", title: "May I delete the build dir?", receipt: "answered: yes" }),
  mail({ at: NOW - 4 * M, kind: "note", from: "leader", to: "leader", title: "(no content)", body: "", receipt: "dropped" }),
];

/** A populated snapshot: every teammate status, role scope, task status, verify state and mail kind. */
export function fixtureSnapshot(): ConsoleSnapshot {
  return {
    now: NOW,
    teammates: TEAMMATES,
    roles: [
      { name: "scratch", description: "A session role.", scope: "session", gitManaged: false, source: "session:scratch", tools: ["read", "grep"], modelChain: "team default → Pi default", worktree: false, instances: [] },
      { name: "worker", description: "Writes code.\nSecond line.", scope: "project", gitManaged: true, source: "/repo/.pi/agents/worker.md", tools: undefined, modelChain: "role pin anthropic/claude-sonnet-4", verify: "reviewer", worktree: true, instances: ["alice", "scout"] },
      { name: "reviewer", description: "Reviews.", scope: "user", gitManaged: false, source: "/home/u/.pi/agent/agents/reviewer.md", tools: ["read", "bash"], modelChain: "team default anthropic/claude-haiku-4", worktree: false, instances: ["bob"] },
      { name: "researcher", description: "Researches.", scope: "project-local", gitManaged: false, source: "/repo/.pi/agents/researcher.local.md", tools: ["read", "web_search"], modelChain: "inherit → leader model", worktree: false, extensions: ["/repo/.pi/extensions/gate.ts"], instances: ["研究者"] },
    ],
    skipped: [
      { source: "/repo/.pi/agents/broken.md", reason: "/model is 42; expected a string provider/id or inherit" },
      { source: "/repo/.pi/agents", reason: "project not trusted: its agent definitions are ignored (run pi with --approve to trust it)" },
    ],
    tasks: TASKS,
    counts: { in_review: 1, claimed: 1, parked: 1, pending: 1, completed: 1, superseded: 1 },
    mail: MAIL,
    teamModel: "anthropic/claude-sonnet-4",
  };
}

/** Models offered by the picker. */
export const MODELS: readonly ModelChoice[] = [
  { provider: "anthropic", id: "claude-sonnet-4" },
  { provider: "anthropic", id: "claude-haiku-4" },
  { provider: "openai", id: "gpt-5" },
  { provider: "google", id: "gemini-2.5-pro" },
];

/** A theme that emits real (zero-width) SGR codes, so widths are measured as in Pi. */
export const ansiTheme: ThemeLike = {
  fg: (token: UiFg, s: string) => `\x1b[3${token.length % 8}m${s}\x1b[39m`,
  bg: (_token, s: string) => `\x1b[44m${s}\x1b[49m`,
  bold: (s: string) => `\x1b[1m${s}\x1b[22m`,
  inverse: (s: string) => `\x1b[7m${s}\x1b[27m`,
};

/** Raw terminal input of the keys the tests press. */
export const KEY = {
  up: "\x1b[A",
  down: "\x1b[B",
  enter: "\r",
  esc: "\x1b",
  tab: "\t",
  shiftTab: "\x1b[Z",
  pageUp: "\x1b[5~",
  pageDown: "\x1b[6~",
  home: "\x1b[H",
  end: "\x1b[F",
  ctrlC: "\x03",
} as const;

/** Lines without SGR codes. */
export function plain(lines: readonly string[]): string[] {
  return lines.map((l) => stripTerminalSequences(l));
}

/** Asserts the console contract: exactly `rows` lines, none wider than `width`. */
export function expectFrame(lines: readonly string[], width: number, rows: number): void {
  expect(lines).toHaveLength(rows);
  lines.forEach((l, i) => expect(visibleWidth(l), `line ${i} ${JSON.stringify(stripTerminalSequences(l))}`).toBeLessThanOrEqual(width));
}

/** A console over the fixture with recording fakes. */
export function makeConsole(o: { rows?: number; columns?: number; page?: ConsolePage; snapshot?: () => ConsoleSnapshot } = {}) {
  const tui = { terminal: { rows: o.rows ?? 30, columns: o.columns ?? 120 }, requestRender: vi.fn() };
  const actions = {
    shutdown: vi.fn(async (name: string) => `Shut down @${name}.`),
    compact: vi.fn(async (name: string) => `Compacted @${name}: 120K → 30K.`),
    setTeamModel: vi.fn(async (m: ModelChoice | undefined) => (m ? `Team model set to ${m.provider}/${m.id}.` : "Team model cleared (Pi default).")),
    send: vi.fn(async (name: string, text: string) => `@${name}: steered (${text.length} chars)`),
    interrupt: vi.fn(async (name: string) => `@${name} interrupted: idle, with its context and claims`),
    createTask: vi.fn(async (args: TaskCreateArgs) => `Created task \`${args.subject.toLowerCase().replace(/\W+/g, "-")}\``),
    offer: vi.fn(async (taskId: string, name: string) => `Offered \`${taskId}\` to @${name}: a board notice woke it.`),
    allowAttempt: vi.fn(async (taskId: string) => `Board: one more review attempt allowed for \`${taskId}\``),
    transcript: vi.fn(async (name: string): Promise<readonly string[]> => ["", "user:", `  hello ${name}`, "", "assistant:", ...Array.from({ length: 60 }, (_, i) => `  line ${i + 1} of ${name}`)]),
  } satisfies ConsoleActions;
  const done = vi.fn();
  const late = vi.fn();
  const snapshot = vi.fn(o.snapshot ?? fixtureSnapshot);
  const console = new TeamConsole({
    tui,
    theme: ansiTheme,
    keybindings: new KeybindingsManager(TUI_KEYBINDINGS),
    snapshot,
    actions,
    models: () => MODELS,
    done,
    lateResult: late,
    ...(o.page ? { page: o.page } : {}),
  });
  const screen = (width = tui.terminal.columns): string[] => plain(console.render(width));
  const press = (...keys: string[]): void => keys.forEach((k) => console.handleInput(k));
  return { console, tui, actions, done, late, snapshot, screen, press };
}

/** Lets pending action promises settle. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}
