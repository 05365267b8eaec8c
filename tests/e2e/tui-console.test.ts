/**
 * Issue 8 on the real pi TUI, driven in tmux: a scripted turn spawns two teammates and creates
 * tasks; `/agent-teams` shows both teammates with statuses and context gauges, Tab shows the
 * board (two tasks of one subject with distinct ids, at 120 and 80 columns: issue 17), `x` then
 * `y` stops a teammate, `q` closes and typed text reaches Pi's editor; the widget row is there
 * while a teammate works and gone once it is idle. With PI_TEAMS_CONSOLE_CAPTURES
 * set to a directory, the captured pages are written there (docs/console.md is made from them).
 */
import { afterEach, describe, expect, it } from "vitest";
import { agentFile } from "../support/leader.ts";
import { leaderCommands, spawnCall, waitUntil } from "../support/team.ts";
import { HAS_TMUX, keepCapture as keep, startTuiTeam, type TuiTeam } from "../support/tmux.ts";

const SPINNER = "[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]";
/** The widget row of `name`: a spinner frame, the name, then its activity. */
const widgetRow = (name: string) => new RegExp(`${SPINNER} ${name} · `);

let team: TuiTeam | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
});


describe.skipIf(!HAS_TMUX)("/agent-teams console in the real TUI", () => {
  it("shows teammates with gauges and the board, stops a teammate, gives the editor back, and the widget follows work", async () => {
    let release!: () => void;
    const adaMayReport = new Promise<void>((resolve) => (release = resolve));
    team = await startTuiTeam({
      size: { columns: 120, rows: 36 },
      handler: async (c) => {
        if (c.agent === "leader") {
          const setup = [
            spawnCall("ada", "writer", "Write docs/guide.md from the notes."),
            spawnCall("bo", "writer"),
            { name: "task_create", arguments: { subject: "Review the guide", resources: ["docs/guide.md"] } },
            { name: "task_create", arguments: { subject: "Publish the guide", dependsOn: ["review-the-guide"] } },
            // Two tasks of one subject: ids `add-multiply-function` and `add-multiply-function-2`.
            { name: "task_create", arguments: { subject: "Add multiply function", dependsOn: ["review-the-guide"] } },
            { name: "task_create", arguments: { subject: "Add multiply function", dependsOn: ["review-the-guide"] } },
          ];
          return leaderCommands({ SETUP: setup }, { SETUP: "Team is up." })(c);
        }
        if (c.agent === "ada") {
          if (c.toolResults.length === 0) {
            await adaMayReport; // ada stays `working` until the test lets it report
            return { toolCalls: [{ name: "send_message", arguments: { to: "leader", message: "Guide written\nSee docs/guide.md.", status: "completed" } }] };
          }
          return { text: "Reported." };
        }
        return { text: "Not now." }; // bo declines board notices
      },
      agents: { "writer.md": agentFile("writer", "You write documentation.", { tools: "read, write" }) },
    });
    const { tui: t, model: m } = team;
    await waitUntil("the TUI to show the model", () => /scripted-1\s*$/m.test(t.screen()), 30_000);
    t.type("SETUP");
    await waitUntil("both spawns and the leader's answer", () => t.screen().includes("Team is up.") && m.callsOf("ada").length >= 1, 30_000);

    // The widget: ada works (its model call is held), so its row shows under the editor.
    await waitUntil("ada's widget row", () => widgetRow("ada").test(t.screen()), 15_000);
    await keep("widget", t.screen());

    t.type("/agent-teams");
    await waitUntil("the Teammates page with both teammates and gauges", () => {
      const s = t.screen();
      return s.includes("pi-resident-teams") && /ada\b.*working/.test(s) && /bo\b.*idle/.test(s) && (s.match(/\/128K/g) ?? []).length >= 2;
    }, 15_000);
    // The console's clock: ada's time in state counts up while the console is open.
    await waitUntil("ada's time in state to tick", () => /@ada\s+working [1-9]\d*s/.test(t.screen()), 10_000);
    await keep("teammates", t.screen());
    // The two spawns race (each awaits a discovery before it joins the team): ada may be second.
    const select = async (name: string): Promise<void> => {
      t.keys("Home");
      await new Promise((r) => setTimeout(r, 150));
      for (let i = 0; i < 4 && !new RegExp(`▸ @${name}\\b`).test(t.screen()); i++) {
        t.keys("Down");
        await new Promise((r) => setTimeout(r, 150));
      }
      expect(t.screen()).toMatch(new RegExp(`▸ @${name}\\b`));
    };
    await select("ada");
    t.keys("Enter");
    await waitUntil("ada's detail", () => /Write docs\/guide\.md from the notes\./.test(t.screen()) && !/Tab page/.test(t.screen()), 10_000);
    await keep("teammate-detail", t.screen());
    t.keys("Escape");
    await waitUntil("the list again", () => /Tab page/.test(t.screen()), 5_000);

    t.keys("Tab");
    await waitUntil("the Roles page", () => /writer/.test(t.screen()) && /project/.test(t.screen()), 10_000);
    await keep("roles", t.screen());
    t.keys("Tab");
    await waitUntil("the Board page with every task", () => t.screen().includes("Review the guide") && t.screen().includes("Publish the guide") && t.screen().includes("Add multiply function"), 10_000);
    const board = t.screen();
    expect(board).toMatch(/pending/);
    // Two ids with a common prefix read differently, here whole (issue 17).
    const ids = (screen: string): string[] => [...screen.matchAll(/^[ ▸] (#\S+)/gm)].map((x) => x[1]!);
    expect(ids(board)).toEqual(["#review-the-guide", "#publish-the-guide", "#add-multiply-function", "#add-multiply-function-2"]);
    await keep("board", board);
    // At 80 columns too.
    t.resize(80, 36);
    // Laid out again at 80 (tmux alone would just cut the 120-column lines): the header is cut with `…`.
    await waitUntil("the Board page at 80 columns", () => (t.screen().split("\n")[0] ?? "").trimEnd().endsWith("…") && /Add multiply/.test(t.screen()), 10_000);
    const narrow = t.screen();
    expect(new Set(ids(narrow)).size, narrow).toBe(4);
    expect(ids(narrow)).toContain("#add-multiply-function-2");
    await keep("board-80", narrow);
    t.resize(120, 36);
    await waitUntil("the console at 120 columns again", () => (t.screen().split("\n")[0] ?? "").trimEnd().endsWith("team model: Pi default"), 10_000);
    t.keys("Tab");
    await waitUntil("the Mail page", () => /\[Mail \d+\]/.test(t.screen()), 10_000);
    await keep("mail", t.screen());
    t.keys("Tab"); // back to Teammates

    // Select bo and stop it: x, then y.
    await waitUntil("the Teammates page again", () => /bo\b.*idle/.test(t.screen()), 10_000);
    await select("bo");
    t.keys("x");
    await waitUntil("the y/n line", () => /Shut down @bo\?/.test(t.screen()), 5_000);
    t.keys("y");
    // The row itself (`stopped (exit 0)`), not the status line (`@bo stopped: ...`).
    await waitUntil("bo's row to say stopped", () => /@bo\s+stopped \((exit|SIG)/.test(t.screen()), 20_000);
    await keep("teammates-after-stop", t.screen());

    // q closes; what the user types next reaches Pi's editor.
    t.keys("q");
    await waitUntil("the console to close", () => !/Tab page/.test(t.screen()), 5_000);
    t.literal("typed after closing");
    await waitUntil("the text in the editor", () => t.screen().includes("typed after closing"), 5_000);
    t.keys("C-u");

    // ada reports and idles: its widget row goes away.
    release();
    await waitUntil("the leader to hear ada's report", () => t.screen().includes("Noted."), 30_000);
    await waitUntil("ada's widget row to go", () => !widgetRow("ada").test(t.screen()), 15_000);
    // The report renders as one line with Pi's expand hint, and the finish entry once.
    const after = t.screen();
    expect(after).toMatch(/@ada · completed · Guide written/);
    expect(after).toMatch(/to expand/);
    expect(after.match(/Teammate @ada finished \(completed\)/g)).toHaveLength(1);
    // ...after the report it announces (R55), not before it.
    expect(after.indexOf("Teammate @ada finished")).toBeGreaterThan(after.indexOf("@ada · completed · Guide written"));
  });
});
