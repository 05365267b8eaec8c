/**
 * The `/agent-teams` console's life in the real pi TUI, driven in tmux, beyond its pages
 * (tui-console.test.ts):
 * - A reload while the console is open (Pi drops the overlay without `done`): the command still
 *   ends, so Pi's input loop takes the next prompt and `/agent-teams` opens again. Before the fix
 *   every later prompt and command queued for ever.
 * - A teammate's dialog (a role extension's `ctx.ui.confirm`, tests/fixtures/dialog-gate.ts) that
 *   arrives while the console is open waits: the header says so at 80 columns, keys pressed in the
 *   console do not answer it, nor does a second Esc right after the one that closes the console;
 *   then it is shown and answered.
 */
import { copyFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { agentFile } from "../support/leader.ts";
import { waitUntil } from "../support/team.ts";
import { HAS_TMUX, startTuiTeam, type TuiTeam } from "../support/tmux.ts";

const RELOAD_SOON = fileURLToPath(new URL("../fixtures/reload-soon.ts", import.meta.url));
const GATE_EXTENSION = fileURLToPath(new URL("../fixtures/dialog-gate.ts", import.meta.url));
const QUESTION = "Allow rm -rf build?";
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
    t.type("/test-reload-soon 3000"); // time enough for the console to open first
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

  it("a teammate dialog arriving while the console is open waits, the header says so, and it is answered after closing", async () => {
    let askNow!: () => void;
    const ask = new Promise<void>((resolve) => (askNow = resolve));
    team = await startTuiTeam({
      size: { columns: 80, rows: 24 },
      handler: async (c) => {
        if (c.agent === "leader") {
          if (c.lastUser === "GO" && c.toolResults.length === 0) return { toolCalls: [{ name: "teammate_spawn", arguments: { name: "gate", agent: "gate", prompt: "Clean the build." } }] };
          return { text: c.lastUser === "GO" ? "Gate is up." : "Noted." };
        }
        const last = c.toolResults.at(-1);
        if (!last) {
          await ask; // the dialog comes once the console is open
          return { toolCalls: [{ name: "ask_gate", arguments: { question: QUESTION }, id: "g1" }] };
        }
        if (last.id === "g1") return { toolCalls: [{ name: "send_message", arguments: { to: "leader", message: last.content, status: "completed" }, id: "g2" }] };
        return { text: "done." };
      },
      agents: { "gate.md": agentFile("gate", "You ask the gate.", { tools: "ask_gate", extensions: "[../../tools/gate.ts]" }) },
    });
    const { tui: t, model: m, env } = team;
    await mkdir(join(env.cwd, "tools"), { recursive: true });
    await copyFile(GATE_EXTENSION, join(env.cwd, "tools", "gate.ts"));
    await waitUntil("the TUI to show the model", () => /scripted-1\s*$/m.test(t.screen()), 30_000);
    t.type("GO");
    await waitUntil("the spawn", () => t.screen().includes("Gate is up."), 30_000);
    t.type("/agent-teams");
    await waitUntil("the console", () => LEGEND.test(t.screen()), 15_000);
    askNow();
    await waitUntil("the header to say a dialog waits", () => t.screen().includes("1 teammate dialog waiting: close to answer"), 15_000);
    // Keys meant for the console: none reaches the hidden confirm.
    t.keys("y");
    t.keys("Enter");
    await waitUntil("gate's detail", () => /@gate · role gate/.test(t.screen()), 5_000);
    t.keys("Escape");
    await waitUntil("the list again", () => LEGEND.test(t.screen()), 5_000);
    expect(m.callsOf("gate").some((c) => c.toolResults.length > 0)).toBe(false);

    // Esc closes; a second Esc right after (a double tap) must not cancel the dialog it reveals.
    t.keys("Escape");
    await waitUntil("the console to close", () => !LEGEND.test(t.screen()), 5_000);
    t.keys("Escape");
    await waitUntil("the confirm after closing", () => t.screen().includes(`@gate: ${QUESTION}`), 10_000);
    expect(m.callsOf("gate").some((c) => c.toolResults.length > 0)).toBe(false);
    t.keys("Enter"); // Yes is selected first
    const answered = await m.waitForCall((c) => c.agent === "gate" && c.toolResults.some((r) => r.id === "g1"), 15_000);
    expect(answered.toolResults.find((r) => r.id === "g1")?.content).toBe(`gate answer for ${JSON.stringify(QUESTION)}: yes`);
  });
});
