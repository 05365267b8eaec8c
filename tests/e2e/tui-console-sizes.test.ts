/**
 * The widget and the transcript renderers in Pi's `regular` tuiMode, where a line wider than the
 * terminal is not clipped but crashes Pi (rc 1 and `<agentdir>/pi-tui-crash.log`, pi-tui.md §1).
 * Pi checks widths only when it redraws lines differentially (a new transcript entry, the
 * widget's spinner); full redraws (a resize, the expand key) and overlay lines (the console's)
 * are clipped. Driven in tmux: a teammate with a 64-character name reports, at 20 columns, a body
 * full of escape codes, carriage returns, tabs, wide characters and a long word; another works,
 * so its widget row spins at 40, 30, 20 and 12 columns; then the console is opened at 40x15,
 * 30x10, 20x8 and 12x5 on every page and detail. Pi must stay up with no crash log. (Checked to
 * fail when the widget or the collapsed report row is made two columns too wide.)
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { agentFile } from "../support/leader.ts";
import { waitUntil } from "../support/team.ts";
import { HAS_TMUX, startTuiTeam, type TuiTeam } from "../support/tmux.ts";

const ESC = "\x1b";
/** A report body with everything a terminal line can go wrong on. */
const NASTY = [
  `Red ${ESC}[31mALERT${ESC}[0m done\rOVERWRITE`,
  "tab\there\tand\tthere",
  `cursor ${ESC}[2J${ESC}[H clear ${ESC}]0;title${ESC}\\ osc`,
  "wide: 研究者の報告書 🚀🚀🚀 👩‍💻 done ☀️ flag 🇯🇵",
  "x".repeat(300),
  "bell\x07 backspace\b c1\u009b31m",
].join("\n");
/** Console sizes; the transcript is checked at these widths with 30 rows, so the reports are in view. */
const SIZES = [[40, 15], [30, 10], [20, 8], [12, 5], [100, 30]] as const;
const REPORTER = "a-very-long-teammate-name-that-goes-on-and-on-for-sixty-four-ch";
const WORKER = "b-very-long-teammate-name-that-goes-on-and-on-for-sixty-four-ch";

let team: TuiTeam | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
});

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!HAS_TMUX)("the console at odd sizes in regular tuiMode", () => {
  it("the widget, collapsed and expanded reports, and the console at 40x15 down to 12x5 never crash Pi", async () => {
    let finishWork!: () => void;
    const workDone = new Promise<void>((resolve) => (finishWork = resolve));
    team = await startTuiTeam({
      size: { columns: 100, rows: 30 },
      args: ["--tui-mode", "regular"],
      settings: { doubleEscapeAction: "none" },
      handler: (c) => {
        if (c.agent === "leader") {
          if (c.lastUser !== "GO" || c.toolResults.length > 0) return { text: "Noted." };
          return { toolCalls: [
            { name: "teammate_spawn", arguments: { name: REPORTER, agent: "writer", prompt: "Report." } },
            { name: "teammate_spawn", arguments: { name: WORKER, agent: "writer", prompt: "Work." } },
            { name: "task_create", arguments: { subject: `研究 🚀 ${"Long subject ".repeat(12)}`, description: NASTY } },
          ] };
        }
        if (c.agent === WORKER) return workDone.then(() => ({ text: "Worked." }));
        if (c.toolResults.length === 0) return { toolCalls: [{ name: "send_message", arguments: { to: "leader", message: NASTY, status: "completed" } }] };
        return { text: "Reported." };
      },
      agents: { "writer.md": agentFile("writer", "You write.", { tools: "read" }) },
    });
    const { tui: t, env, model: m } = team;
    const crashLog = join(env.agentDir, "pi-tui-crash.log");
    const alive = (where: string): void => {
      if (existsSync(crashLog)) throw new Error(`pi crashed ${where}:\n${readFileSync(crashLog, "utf8").slice(0, 4000)}`);
    };
    await waitUntil("the TUI to show the model", () => /scripted-1\s*$/m.test(t.screen()), 30_000);
    // Pi checks widths on differential redraws (a full one, as after a resize, clips): the report
    // is checked when it is appended, so it arrives at 20 columns.
    t.resize(20, 30);
    await pause(300);
    t.type("GO");
    await waitUntil("the report's turn", () => m.callsOf("leader").some((c) => c.lastUser.includes("<teammate-report")), 30_000);
    await waitUntil("the report's row at 20 columns", () => existsSync(crashLog) || /^ @a-very-long-team/m.test(t.screen()), 10_000);
    alive("when the report arrived at 20 columns");

    await waitUntil("the worker's widget row", () => /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] b-very-long/.test(t.screen()), 15_000);

    // The widget's spinner redraws its row differentially at each width; the expand key rebuilds
    // the transcript at that width (a full redraw: it shows the bodies, the check is clipped).
    for (const [columns] of SIZES) {
      t.resize(columns, 30);
      await waitUntil(`the footer at ${columns} columns`, () => t.screen().trim() !== "", 5_000);
      for (const state of ["expanded", "collapsed"]) {
        t.keys("C-o");
        await waitUntil(`${state} at ${columns} columns`, () => t.screen().replace(/\s+/g, " ").includes(`Tool output: ${state}`) || existsSync(crashLog), 5_000);
        await pause(200);
        alive(`at ${columns} columns with the reports ${state}`);
      }
    }

    t.type("/agent-teams");
    await waitUntil("the console", () => t.screen().includes("pi-resident-teams"), 15_000);
    for (const [columns, rows] of SIZES) {
      t.resize(columns, rows);
      for (let page = 0; page < 4; page++) {
        await waitUntil(`the console at ${columns}x${rows}`, () => t.screen().startsWith("pi-resid"), 5_000);
        for (const key of ["Enter", "End", "Escape", "Tab"]) {
          t.keys(key);
          await pause(100);
        }
      }
      alive(`with the console at ${columns}x${rows}`);
    }
    t.keys("q");
    await waitUntil("the console to close", () => !t.screen().startsWith("pi-resid"), 5_000);
    finishWork();
    await waitUntil("the worker's row to go", () => !/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] b-very-long/.test(t.screen()), 15_000);
    alive("at the end");
    expect(existsSync(crashLog)).toBe(false);
  });
});
