/**
 * The `/agent-teams` console's life in the real pi TUI, driven in tmux, beyond its pages
 * (tui-console.test.ts):
 * - A reload while the console is open (Pi drops the overlay without `done`): the command still
 *   ends, so Pi's input loop takes the next prompt and `/agent-teams` opens again. Before the fix
 *   every later prompt and command queued for ever.
 */
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { agentFile } from "../support/leader.ts";
import { waitUntil } from "../support/team.ts";
import { HAS_TMUX, startTuiTeam, type TuiTeam } from "../support/tmux.ts";

const RELOAD_SOON = fileURLToPath(new URL("../fixtures/reload-soon.ts", import.meta.url));
/** The console's list legend, shown only while it is open on a list. */
const LEGEND = /Tab page · q close/;

let team: TuiTeam | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
});

describe.skipIf(!HAS_TMUX)("/agent-teams console lifecycle in the real TUI", () => {
  it("a reload while the console is open leaves Pi taking prompts, and the console opens again", async () => {
    team = await startTuiTeam({
      size: { columns: 100, rows: 30 },
      args: ["-e", RELOAD_SOON],
      handler: (c) => ({ text: c.agent === "leader" ? `Answer to ${c.lastUser}.` : "ok" }),
      agents: { "writer.md": agentFile("writer", "You write.", { tools: "read" }) },
    });
    const { tui: t, model: m } = team;
    await waitUntil("the TUI to show the model", () => /scripted-1\s*$/m.test(t.screen()), 30_000);
    t.type("/test-reload-soon 1500");
    t.type("/agent-teams");
    await waitUntil("the console", () => LEGEND.test(t.screen()), 15_000);
    await waitUntil("the reload under the console", () => t.screen().includes("Reloaded keybindings"), 15_000);
    expect(t.screen()).not.toMatch(LEGEND);

    t.type("PING");
    await waitUntil("the leader's answer to PING", () => t.screen().includes("Answer to PING."), 15_000);
    expect(m.callsOf("leader").map((c) => c.lastUser)).toEqual(["PING"]);
    t.type("/agent-teams");
    await waitUntil("the console again", () => LEGEND.test(t.screen()), 15_000);
    t.keys("q");
    await waitUntil("the console to close", () => !LEGEND.test(t.screen()), 5_000);
  });
});
