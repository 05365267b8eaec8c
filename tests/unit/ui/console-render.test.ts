import { describe, expect, it } from "vitest";
import type { ConsolePage } from "../../../src/ui/console-model.ts";
import { expectFrame, fixtureSnapshot, KEY, makeConsole } from "./fixture.ts";

const ROWS = 30;
const PAGES: ConsolePage[] = ["teammates", "roles", "board", "mail"];

function text(lines: readonly string[]): string {
  return lines.join("\n");
}

describe("TeamConsole render: every page fits (R61, L19)", () => {
  for (const width of [120, 80, 40, 10]) {
    for (const page of PAGES) {
      it(`${page} list, detail, confirm and picker at ${width} columns: ${ROWS} lines, none wider`, () => {
        const c = makeConsole({ rows: ROWS, page });
        expectFrame(c.console.render(width), width, ROWS);
        c.press(KEY.down, KEY.enter);
        expectFrame(c.console.render(width), width, ROWS);
        c.press(KEY.pageDown);
        expectFrame(c.console.render(width), width, ROWS);
        c.press(KEY.esc, "x");
        expectFrame(c.console.render(width), width, ROWS);
        c.press("n", "m", "c", "l");
        expectFrame(c.console.render(width), width, ROWS);
      });
    }
  }

  it("survives tiny and degenerate sizes", () => {
    for (const [width, rows] of [
      [10, 5],
      [1, 1],
      [0, 3],
      [5, 0],
      [3, 2],
    ] as const) {
      const c = makeConsole({ rows, page: "board" });
      expectFrame(c.console.render(width), width, rows);
      c.press(KEY.enter);
      expectFrame(c.console.render(width), width, rows);
      c.press(KEY.esc, "m");
      expectFrame(c.console.render(width), width, rows);
    }
  });
});

describe("TeamConsole render: content", () => {
  it("header: title, tabs with the current one marked, team model", () => {
    const c = makeConsole({ page: "board" });
    const head = c.screen(120)[0] ?? "";
    expect(head).toContain("pi-resident-teams");
    expect(head).toContain("[Board 6]");
    expect(head).toContain(" Teammates 9 ");
    expect(head).toContain("team model: anthropic/claude-sonnet-4");
  });

  it("header: waiting teammate dialogs are named right after the title, so 80 columns still show them", () => {
    for (const [n, text] of [[1, "1 teammate dialog waiting: close to answer"], [2, "2 teammate dialogs waiting: close to answer"]] as const) {
      const c = makeConsole({ snapshot: () => ({ ...fixtureSnapshot(), dialogsWaiting: n }) });
      const head = c.screen(80)[0] ?? "";
      expect(head).toContain(text);
      expect(head.indexOf(text)).toBeLessThan(head.indexOf("Teammates"));
      expect(c.screen(40)[0]).toContain(`${n} teammate dialog`);
    }
    expect(makeConsole().screen(200)[0]).not.toContain("waiting");
  });

  it("teammates at 120: statuses with time in state, gauge, usage, model, work, activity", () => {
    const s = text(makeConsole().screen(120));
    for (const t of ["@scout", "@alice", "@bob", "@carol", "@dave", "@erin", "@frank", "@grace", "@研究者"]) expect(s).toContain(t);
    for (const st of ["starting 2s", "working 12s", "idle 3m", "stalled 31m", "stalled · silent 31m", "stopping 5s", "stopped (exit 137)", "stopped (SIGKILL)"]) {
      expect(s).toContain(st);
    }
    expect(s).toContain("45K/200K 22%");
    expect(s).toContain("compacting…");
    expect(s).toContain("12K $0.12");
    expect(s).toContain("claude-sonnet-4 (role)");
    expect(s).toContain("#ui-console Build the c");
    expect(s).toContain("bash npm test");
    expect(s).toMatch(/@erin +stopping 5s +— /);
  });

  it("teammates at 80 keeps name, status, gauge and activity; at 40 name, status and gauge", () => {
    const s80 = text(makeConsole().screen(80));
    expect(s80).toContain("stopped (exit 137)");
    expect(s80).toContain("stalled · silent 31m");
    expect(s80).toMatch(/@alice +working 12s +45K\/200K 22% +bash npm test/);
    const l40 = makeConsole().screen(40);
    const alice = l40.find((l) => l.includes("@alice")) ?? "";
    expect(alice).toMatch(/@alice +working 12s +45K\/200K 22%/);
    expect(text(l40)).toContain("@研究者");
    expect(text(l40)).toContain("120K/200K 60%");
  });

  it("the selected row is marked ▸ and drawn bold and inverse", () => {
    const c = makeConsole();
    const raw = c.console.render(120);
    const sel = raw.find((l) => l.includes("▸")) ?? "";
    expect(sel).toContain("@scout");
    expect(sel).toContain("\x1b[7m");
    expect(sel).toContain("\x1b[1m");
    expect(raw.filter((l) => l.includes("\x1b[7m"))).toHaveLength(1);
  });

  it("roles: every field, then the skipped definitions visibly marked", () => {
    const s = text(makeConsole({ page: "roles" }).screen(120));
    expect(s).toMatch(/scratch +session +not git +read, grep +team default → Pi default/);
    expect(s).toMatch(/worker +project +git +Pi defaults/);
    expect(s).toContain("verify yes");
    expect(s).toContain("worktree yes");
    expect(s).toContain("@alice @scout");
    expect(s).toMatch(/researcher +project-local/);
    expect(s).toMatch(/✗ skipped +\/repo\/\.pi\/agents\/broken\.md +\/model is 42/);
    expect(s).toMatch(/✗ skipped +\/repo\/\.pi\/agents +project not trusted/);
  });

  it("board: counts line, then id, status, holder, deps met/total, verify, resources, cost", () => {
    const s = text(makeConsole({ page: "board" }).screen(120));
    expect(s).toContain("6 tasks · 1 in_review · 1 claimed · 1 parked · 1 pending · 1 completed · 1 superseded");
    expect(s).toMatch(/#ui-console +in_review +Build the console +@alice +deps 1\/1 +verify reviewing +src\/ui +30K \$0\.40/);
    expect(s).toMatch(/#ui-widget +claimed .*@bob +deps 1\/2 +verify pending/);
    expect(s).toMatch(/#auth-fix +parked .*verify parked +src\/auth, db/);
    expect(s).toMatch(/#docs +pending .*deps 0\/1/);
    expect(s).toContain("verify passed");
    expect(s).toContain("verify failed once");
    expect(s).toMatch(/#old-plan +superseded/);
  });

  it("mail: newest first with age, kind, from → to, title, receipt", () => {
    const lines = makeConsole({ page: "mail" }).screen(120);
    const rows = lines.filter((l) => / ago /.test(l));
    expect(rows[0]).toMatch(/5s ago +report +alice → leader +Console done, tests green +reported \(completed\)/);
    expect(rows[1]).toMatch(/20s ago +peer +bob → alice/);
    expect(text(lines)).toContain("answered: yes");
    for (const kind of ["leader", "board", "dialog", "note"]) expect(text(rows)).toMatch(new RegExp(`ago +${kind} `));
  });

  it("an empty team shows each page's empty text", () => {
    const empty = { now: 0, teammates: [], roles: [], skipped: [], tasks: [], mail: [], teamModel: "Pi default", counts: { in_review: 0, claimed: 0, parked: 0, pending: 0, completed: 0, superseded: 0 } };
    const c = makeConsole({ snapshot: () => empty });
    expect(text(c.screen(80))).toContain("No teammates.");
    c.press(KEY.enter, "x");
    expect(text(c.screen(80))).toContain("No teammate selected.");
    c.press(KEY.tab, KEY.tab);
    expect(text(c.screen(80))).toContain("0 tasks · 0 in_review");
    expectFrame(c.console.render(80), 80, 30);
  });
});

describe("TeamConsole render: detail views", () => {
  it("teammate detail: every field, recent lines and the stderr tail", () => {
    const c = makeConsole({ rows: 60 });
    c.press(KEY.down, KEY.enter);
    const s = text(c.screen(100));
    expect(s).toContain("@alice · role worker");
    expect(s).toContain("tasks: #ui-console Build the console");
    expect(s).toContain("branch: pi-team/alice-1234abcd");
    expect(s).toContain("RECENT-LAST bash npm run typecheck");
    expect(s).toContain("STDERR-LAST line");
    expect(s).toContain("arguments that no terminal is wide enough"); // the full activity, wrapped
  });

  it("task detail: description, result, findings, holder, deps, resources", () => {
    const c = makeConsole({ rows: 40, page: "board" });
    c.press(KEY.enter);
    const s = text(c.screen(100));
    for (const t of ["DESC-LAST line", "RESULT-LAST", "FINDINGS-LAST", "holder: @alice", "#ui-model (met)", "resources: src/ui", "review: reviewing"]) expect(s).toContain(t);
  });

  it("role detail has all fields; a skipped row shows source and reason", () => {
    const c = makeConsole({ page: "roles" });
    c.press(KEY.down, KEY.enter);
    const s = text(c.screen(100));
    for (const t of ["role worker · project", "source: /repo/.pi/agents/worker.md", "git-managed: yes", "tools: Pi defaults", "verify: yes: reviewer", "extensions: none", "instances: @alice @scout"]) expect(s).toContain(t);
    c.press(KEY.esc, KEY.end, KEY.enter);
    const k = text(c.screen(100));
    expect(k).toContain("skipped definition");
    expect(k).toContain("(run pi with --approve to trust it)");
  });

  it("mail detail shows the full body, scrolled with PgDn to its last line", () => {
    const c = makeConsole({ rows: 12, page: "mail" });
    c.press(KEY.enter);
    expect(text(c.screen(60))).toContain("report · alice → leader");
    expect(text(c.screen(60))).not.toContain("BODY-LAST");
    c.press(KEY.end);
    expect(text(c.screen(60))).toContain("BODY-LAST line");
  });
});

describe("TeamConsole render: short terminals", () => {
  it("at 5 rows the header, one row, the status and the legend remain", () => {
    const lines = makeConsole({ rows: 5 }).screen(80);
    expect(lines[0]).toContain("pi-resident-teams");
    expect(lines[1]).toContain("▸ @scout");
    expect(lines[2]).toContain("@alice");
    expect(lines[4]).toContain("q close");
  });
});

describe("TeamConsole render: other pages at narrow widths", () => {
  it("roles, board and mail keep their key columns at 80 and 40", () => {
    const at = (page: ConsolePage, width: number): string => text(makeConsole({ page }).screen(width));
    expect(at("roles", 80)).toMatch(/worker +project +Pi defaults/);
    expect(at("roles", 40)).toMatch(/researcher +project-local/);
    expect(at("roles", 40)).toContain("✗ skipped");
    expect(at("board", 80)).toMatch(/#ui-widget +claimed .*@bob +deps 1\/2/);
    expect(at("board", 40)).toMatch(/#old-plan +superseded/);
    expect(at("mail", 80)).toMatch(/5s ago +report +alice → leader +Console done/);
    expect(at("mail", 40)).toMatch(/5s ago +alice → leader +Console/);
    const longRoute = makeConsole({ page: "mail", snapshot: () => {
      const s = fixtureSnapshot();
      return { ...s, mail: [{ ...s.mail[0]!, from: "task-board", to: "a-very-long-teammate-name-of-forty-chars" }] };
    } });
    expect(text(longRoute.screen(40))).toMatch(/5s ago +task-board → a-ve.* Cons/);
  });
});
