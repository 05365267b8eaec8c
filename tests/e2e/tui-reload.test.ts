/**
 * The built-in `/reload` of the real pi TUI, driven in tmux (RPC has no `/reload`; the RPC test
 * in session-boundaries.test.ts goes through `ctx.reload()` instead). After spawning a teammate
 * the user types `/reload`: the teammate's process is gone, the warning naming it is on the screen
 * after Pi's "Reloaded ..." rebuild of the chat, and the leader's next request carries the
 * `teammates_stopped` harness event. Skipped where tmux is missing.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sessionKey } from "../../src/store/layout.ts";
import { agentFile } from "../support/leader.ts";
import { isAlive, readRoster, waitUntil } from "../support/team.ts";
import { HAS_TMUX, startTuiTeam, type TuiTeam } from "../support/tmux.ts";

let team: TuiTeam | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
});

describe.skipIf(!HAS_TMUX)("/reload in the TUI", () => {
  it("stops the teammate, warns on screen and tells the leader's next turn", async () => {
    team = await startTuiTeam({
      handler: (c) =>
        c.agent === "leader" && c.toolResults.length === 0 && c.lastUser === "SPAWN"
          ? { toolCalls: [{ name: "teammate_spawn", arguments: { name: "alice", agent: "worker" } }] }
          : { text: "Spawn noted." },
      agents: { "worker.md": agentFile("worker", "You are a worker.", { tools: "read" }) },
    });
    const { env } = team;
    const runtimeDir = join(env.agentDir, "teammate", sessionKey(undefined, env.cwd));
    const t = team.tui;
    const m = team.model;
    const screenHas = (text: string) => t.screen().includes(text);

    await waitUntil("the TUI to show the model", () => screenHas("scripted-1"), 30_000);
    t.type("SPAWN");
    await waitUntil("alice to idle", async () => (await readRoster(runtimeDir))?.teammates.some((x) => x.name === "alice" && x.status === "idle") ?? false);
    const pid = (await readRoster(runtimeDir))!.teammates[0]!.pid!;
    expect(isAlive(pid)).toBe(true);
    // The leader's turn is over once its answer to the tool result is on screen; /reload refuses while streaming.
    await waitUntil("the leader's turn to end", () => m.callsOf("leader").length >= 2 && screenHas("Spawn noted."));

    t.type("/reload");
    await waitUntil("the reload to finish", () => screenHas("Reloaded keybindings, extensions"));
    expect(isAlive(pid)).toBe(false);
    expect(t.screen().replace(/\s+/g, " ")).toContain("Warning: pi-resident-teams: /reload stopped 1 teammate: @alice. A running teammate cannot be handed over to the reloaded extension");

    const before = m.callsOf("leader").length;
    t.type("PING");
    await waitUntil("the leader's next request", () => m.callsOf("leader").length > before);
    const next = m.callsOf("leader")[before]!;
    expect(next.lastUser).toMatch(/^<harness-event type="teammates_stopped" teammate="alice">/);
    expect(next.lastUser).toContain("shut down every teammate: @alice");
  });
});
