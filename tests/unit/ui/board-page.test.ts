import { describe, expect, it } from "vitest";
import type { AgentDefinition } from "../../../src/agents/index.ts";
import { gateOutcome, type Board } from "../../../src/board/index.ts";
import { TaskCosts } from "../../../src/feed/task-costs.ts";
import { TeamFeed } from "../../../src/feed/team-feed.ts";
import { Member } from "../../../src/team/member.ts";
import type { ConsoleSnapshot, TaskRow } from "../../../src/ui/console-model.ts";
import { buildSnapshot } from "../../../src/ui/snapshot.ts";
import { add, finish, mate, newBoard, take } from "../board/fixture.ts";
import { columnWidths, renderCells, type Cell, type Column } from "../../../src/ui/table.ts";
import { fixtureSnapshot, KEY, makeConsole } from "./fixture.ts";

function task(t: Partial<TaskRow> & Pick<TaskRow, "id" | "status">): TaskRow {
  return { subject: `Subject of ${t.id}`, dependsOn: [], resources: [], verify: "none", tokens: 0, cost: 0, ...t };
}

/** A board whose ids share long prefixes: a task and its `-2` sibling, and a long neighbour. */
const SIBLINGS: TaskRow[] = [
  task({ id: "add-multiply-function", status: "completed", subject: "Add a multiply function" }),
  task({ id: "add-multiply-function-2", status: "claimed", holder: "ada", subject: "Add a multiply function" }),
  task({ id: "add-multiply-function-tests-for-negative-numbers", status: "pending", subject: "Test negatives" }),
  task({ id: "add-multiply-function-tests-for-negative-number-2", status: "pending", subject: "Test negatives again" }),
];

function board(tasks: readonly TaskRow[]): () => ConsoleSnapshot {
  return () => ({ ...fixtureSnapshot(), tasks, counts: { in_review: 0, claimed: 1, parked: 0, pending: 2, completed: 1, superseded: 0 } });
}

/** The id each task row of the board page shows (the first cell after the marker). */
function shownIds(lines: readonly string[]): string[] {
  return lines.flatMap((l) => {
    const m = /^[ ▸] (#\S+)/.exec(l);
    return m?.[1] ? [m[1]] : [];
  });
}

describe("Board page: task ids stay distinguishable (issue 17)", () => {
  for (const width of [80, 120]) {
    it(`at ${width} columns every id reads differently, the short ones whole`, () => {
      const ids = shownIds(makeConsole({ page: "board", snapshot: board(SIBLINGS) }).screen(width));
      expect(ids).toHaveLength(SIBLINGS.length);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toContain("#add-multiply-function");
      expect(ids).toContain("#add-multiply-function-2");
      // The 48-character ids are cut in the middle, so both ends stay: `-number-2` vs `-numbers`.
      expect(ids.find((i) => i.includes("…") && i.endsWith("-2"))).toBeDefined();
    });
  }

  it("a column of ids never shrinks to a width where two cuts read the same", () => {
    const cols: Column[] = [{ title: "id", min: 3, max: 40, rank: 0, distinct: true }, { title: "s", min: 4, max: 4, rank: 0, flex: true }];
    const rows: Cell[][] = ["#add-multiply-function", "#add-multiply-function-2", "#add-multiply-functions"].map((text) => [{ text, cut: "middle" }, { text: "x" }]);
    const widths = columnWidths(cols, rows, 20);
    const cuts = rows.map((r) => renderCells(r, widths).slice(0, widths[0]));
    expect(new Set(cuts).size).toBe(3);
  });
});

/** A member of role `agent` (with `verify`, if any) for the snapshot; its mail cursors are unused here. */
function member(name: string, spawnId: string, agent: string, verify: string | undefined, startedAt = 500): Member {
  const def: AgentDefinition = { name: agent, description: "", tools: undefined, model: undefined, worktree: false, prompt: "You work.", scope: "project", source: `/p/${agent}.md`, gitManaged: true, ...(verify ? { verify } : {}) } as AgentDefinition;
  return new Member({ name, agent: def, spawnId, tools: [], resources: [], model: undefined, startedAt, log: `/tmp/${name}.log`, outbox: {} as never, inbox: {} as never });
}

function snapshotOf(board: Board, members: Member[]): ConsoleSnapshot {
  return buildSnapshot({ now: 10_000, members, feed: new TeamFeed(() => 10_000), board, costs: new TaskCosts(), discovery: undefined, notes: [], teamModel: "Pi default", teamModelRef: undefined });
}

/** A board where @cy completed `add-multiply` under its role's default verify (reviewer passed), and @ada holds `docs` (no verify anywhere). */
function reviewedBoard(): { board: Board; members: Member[] } {
  const board = newBoard();
  const members = [member("cy", "cy-1", "coder", "Run npm test; it must pass."), member("ada", "ada-1", "writer", undefined)];
  add(board, "Add multiply");
  add(board, "Docs");
  add(board, "Later");
  take(board, mate("cy"), "add-multiply");
  const submitted = finish(board, mate("cy"), "add-multiply", "completed", "Run npm test; it must pass.");
  const start = submitted.effects.find((e) => e.type === "start_reviewer");
  if (start?.type !== "start_reviewer") throw new Error("no reviewer started");
  const passed = gateOutcome(board, { token: start.token, text: "VERDICT: PASS" }, 4_000);
  if (!passed.ok) throw new Error(passed.message);
  take(board, mate("ada"), "docs");
  return { board, members };
}

function consoleOf(s: ConsoleSnapshot) {
  return makeConsole({ page: "board", snapshot: () => s });
}

/** The detail of the task `id`: Home, then Down until it is selected, then Enter. */
function detailOf(s: ConsoleSnapshot, id: string, width: number): string {
  const c = consoleOf(s);
  c.press(KEY.home);
  for (let i = 0; i < s.tasks.length && !c.screen(width).some((l) => l.startsWith(`▸ #${id} `)); i++) c.press(KEY.down);
  c.press(KEY.enter);
  return c.screen(width).join("\n");
}

describe("Board page: who completed a task, and the criteria it was reviewed against (issue 17)", () => {
  for (const width of [80, 120]) {
    it(`at ${width} columns a completed task shows its completer where a held one shows its holder`, () => {
      const { board, members } = reviewedBoard();
      const lines = consoleOf(snapshotOf(board, members)).screen(width);
      expect(lines.find((l) => l.includes("#add-multiply "))).toMatch(/completed .* by @cy/);
      expect(lines.find((l) => l.includes("#docs "))).toMatch(/claimed .* @ada/);
      expect(detailOf(snapshotOf(board, members), "add-multiply", width)).toContain("holder: none · completed by @cy");
    });

    it(`at ${width} columns the detail shows the role default a task was reviewed under, labelled as the role's`, () => {
      const { board, members } = reviewedBoard();
      const s = snapshotOf(board, members);
      const done = detailOf(s, "add-multiply", width);
      expect(done).toContain("verify (role coder's default): Run npm test; it must pass.");
      expect(done).toContain("review: passed");
      expect(done).not.toMatch(/verify: none/);
      expect(detailOf(s, "docs", width)).toContain("verify: none: neither the task nor its role has verify");
      expect(detailOf(s, "later", width)).toContain("verify: none of its own: its claimer's role default applies, if it has one");
    });
  }

  it("a task's own verify is shown as its own, also while a holder whose role has another is reviewed", () => {
    const board = newBoard();
    add(board, { subject: "Own", verify: "Check the README." });
    take(board, mate("cy"), "own");
    const s = snapshotOf(board, [member("cy", "cy-1", "coder", "Run npm test.")]);
    expect(s.tasks[0]?.criteria).toEqual({ text: "Check the README." });
    finish(board, mate("cy"), "own", "completed", "Run npm test.");
    expect(snapshotOf(board, [member("cy", "cy-1", "coder", "Run npm test.")]).tasks[0]).toMatchObject({ verify: "reviewing", criteria: { text: "Check the README." } });
  });
});

describe("Board page: failures and waits are seen (W20, W22)", () => {
  const FLOW: TaskRow[] = [
    task({ id: "build", status: "pending", subject: "Build", failedSubmits: 1, findings: "the build is broken", waits: "next notice to @bo in 3m12s", waitsShort: "notice @bo in 3m12s" }),
    task({ id: "docs", status: "pending", subject: "Docs", waits: "no teammate can take it: all hold a direct assignment", waitsShort: "nobody: all assigned" }),
    task({ id: "flaky", status: "parked", holder: "ann", subject: "Flaky", failedSubmits: 2 }),
  ];
  for (const width of [80, 120]) {
    it(`at ${width} columns a failed task is marked and a pending one says why it waits`, () => {
      const lines = makeConsole({ page: "board", snapshot: board(FLOW) }).screen(width);
      const row = (id: string) => lines.find((l) => l.includes(`#${id}`)) ?? "";
      expect(row("build")).toContain("pending · failed ×1");
      expect(row("flaky")).toContain("parked · failed ×2");
      expect(row("build")).toContain("notice @bo in 3m12s");
      expect(row("docs")).toContain("nobody: all assigned");
      for (const l of lines) expect(l.length).toBeLessThanOrEqual(width);
    });
  }

  it("the detail of a waiting task names the wait in full, and its status mark", () => {
    const c = makeConsole({ page: "board", snapshot: board(FLOW) });
    c.press(KEY.home, KEY.enter);
    const text = c.screen(120).join("\n");
    expect(text).toContain("status: pending · failed ×1");
    expect(text).toContain("waits: next notice to @bo in 3m12s");
  });
});
