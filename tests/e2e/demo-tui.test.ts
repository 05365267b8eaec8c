/**
 * Issue 21 scope 5 in tmux: `npm run demo -- --tui` opens the real pi TUI with this package and
 * the scripted model; the suggested prompt, waiting in the editor, plays the board scene (two
 * teammates, a reviewer) and leaves the team idle; the console shows the board and `s` reaches a
 * teammate; quitting with Ctrl+C leaves no process and no temp dir behind. Skipped where tmux is missing.
 */
import { existsSync } from "node:fs";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BOARD_USER_TASK } from "../../demo/board-phase.ts";
import { SCENE_DONE } from "../../demo/try.ts";
import { PACKAGE_DIR } from "../support/leader.ts";
import { isAlive, waitUntil } from "../support/team.ts";
import { HAS_TMUX, startTmux } from "../support/tmux.ts";

let tui: ReturnType<typeof startTmux> | undefined;
let dir: string | undefined;
afterEach(async () => {
  tui?.kill();
  tui = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe.skipIf(!HAS_TMUX)("npm run demo -- --tui", () => {
  it("opens pi's TUI on the scripted model; the suggested prompt gets a team working the board; Ctrl+C leaves nothing behind", async () => {
    dir = await mkdtemp(join(tmpdir(), "demo-tui-"));
    const script = join(dir, "try.sh");
    // As a user runs it: through npm, in the package dir. The pane stays after exit.
    await writeFile(script, `#!/bin/sh\ncd ${JSON.stringify(PACKAGE_DIR)}\nexport PATH=${JSON.stringify(`${join(PACKAGE_DIR, "node_modules", ".bin")}:${process.env.PATH ?? ""}`)}\nexec npm run --silent demo -- --tui\n`);
    await chmod(script, 0o700);
    tui = startTmux(script, { columns: 120, rows: 40 });
    const t = tui;
    // The suggested prompt waits in pi's editor, with the demo's hint above it; Enter sends it.
    const flat = (): string => t.screen().replace(/\s+/g, " ");
    await waitUntil("the suggested prompt in pi's editor", () => t.screen().includes("scripted-1") && flat().includes(BOARD_USER_TASK) && flat().includes("press Enter to send the prompt"), 60_000);
    const root = /\/tmp\/pi-teams-try-[A-Za-z0-9]+/.exec(t.screen())?.[0];
    t.keys("Enter");
    await waitUntil("the board scene to finish: both tasks done, ana and ben left idle", () => flat().includes(SCENE_DONE), 120_000);
    t.type("/agent-teams board");
    await waitUntil("the console's Board page", () => /\[Board 2\]/.test(t.screen()) && (t.screen().match(/completed/g) ?? []).length >= 2, 15_000);
    // The teammates are still there to try the keys on: s writes to ana, who echoes it to the leader.
    t.keys("Tab", "Tab", "Home"); // Board → Mail → Teammates
    await waitUntil("the Teammates page with ana idle", () => /▸ @ana\s+idle/.test(t.screen()), 10_000);
    t.keys("s");
    await waitUntil("the composer", () => t.screen().includes("Message to @ana"), 5_000);
    t.literal("HELLO-FROM-THE-TRY");
    t.keys("Enter");
    await waitUntil("the receipt", () => /@ana: queued/.test(t.screen()), 10_000);
    t.keys("q");
    await waitUntil("ana's echo in the transcript", () => flat().includes('The user wrote to me: "HELLO-FROM-THE-TRY"'), 30_000);
    await waitUntil("the console to close", () => !/Tab page/.test(t.screen()), 5_000);
    // Ctrl+C clears the editor, a second one quits pi; then the script removes what it made.
    t.keys("C-c");
    await new Promise((r) => setTimeout(r, 300));
    t.keys("C-c");
    await waitUntil("the cleanup line", () => /pi-resident-teams: removed \S+/.test(t.screen()), 30_000);
    const removed = /pi-resident-teams: removed (\S+)/.exec(t.screen())?.[1];
    expect(removed).toBeDefined();
    if (root) expect(removed).toBe(root);
    expect(existsSync(removed!)).toBe(false);
    // No pi of that project is left (its teammates and reviewers ran with its temp dir as cwd).
    const left = (await import("node:child_process")).execFileSync("ps", ["-ww", "-A", "-o", "pid=,args="], { encoding: "utf8" }).split("\n").filter((l) => l.includes(removed!));
    expect(left.filter((l) => isAlive(Number(l.trim().split(/\s+/)[0])))).toEqual([]);
  }, 240_000);
});
