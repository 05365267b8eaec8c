/**
 * The built-in `/reload` of the real pi TUI, driven in tmux (RPC has no `/reload`; the RPC test
 * in session-boundaries.test.ts goes through `ctx.reload()` instead). After spawning a teammate
 * the user types `/reload`: the teammate's process is stopped and the same teammate comes back
 * (issue 20) from its own session file, idle; the screen says so after Pi's "Reloaded ..." rebuild
 * of the chat, the leader's next request carries the `teammates_restored` harness event, and the
 * teammate's next request, once woken, holds its conversation from before the reload, which the
 * console's transcript (`t`) shows too. Skipped where tmux is missing.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sessionKey } from "../../src/store/layout.ts";
import { agentFile } from "../support/leader.ts";
import { contentText } from "../support/scripted-model.ts";
import { isAlive, readRoster, waitUntil } from "../support/team.ts";
import { HAS_TMUX, startTuiTeam, type TuiTeam } from "../support/tmux.ts";

let team: TuiTeam | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
});

const MARK = "ALICE-MARK-BEFORE-RELOAD";

describe.skipIf(!HAS_TMUX)("/reload in the TUI", () => {
  it("stops the teammate and brings it back with its context; the screen and the leader's next turn say so", async () => {
    team = await startTuiTeam({
      handler: (c) => {
        if (c.agent === "alice") {
          return { toolCalls: [{ name: "send_message", arguments: { to: "leader", message: c.lastUser.includes("WAKE-ALICE") ? "ALICE-AWAKE" : "ALICE-DONE", status: "completed" } }] };
        }
        if (c.agent !== "leader" || c.toolResults.length > 0) return { text: "Spawn noted." };
        if (c.lastUser === "SPAWN") return { toolCalls: [{ name: "teammate_spawn", arguments: { name: "alice", agent: "worker", prompt: `Remember ${MARK}.` } }] };
        // The restore's message rides after the user's text in the same request.
        const fresh = c.messages.slice(c.messages.findLastIndex((x) => x.role === "assistant") + 1);
        if (fresh.some((x) => x.role === "user" && contentText(x.content ?? null) === "WAKE")) return { toolCalls: [{ name: "send_message", arguments: { to: "alice", message: "WAKE-ALICE" } }] };
        return { text: "Spawn noted." };
      },
      agents: { "worker.md": agentFile("worker", "You are a worker.", { tools: "read" }) },
    });
    const { env } = team;
    const runtimeDir = join(env.agentDir, "teammate", sessionKey(undefined, env.cwd));
    const t = team.tui;
    const m = team.model;
    const screenHas = (text: string) => t.screen().replace(/\s+/g, " ").includes(text);
    const alice = async () => (await readRoster(runtimeDir))?.teammates.find((x) => x.name === "alice");

    await waitUntil("the TUI to show the model", () => screenHas("scripted-1"), 30_000);
    t.type("SPAWN");
    await waitUntil("alice's report and idle", async () => (await alice())?.status === "idle" && m.callsOf("alice").length >= 1, 30_000);
    const pid = (await alice())!.pid!;
    expect(isAlive(pid)).toBe(true);
    // The leader's turn is over once its answer to the report is on screen; /reload refuses while streaming.
    await waitUntil("the leader's turns to end", () => m.callsOf("leader").length >= 3 && screenHas("Spawn noted."));
    await waitUntil("the leader's report turn to end", () => !screenHas("Working"), 30_000);

    t.type("/reload");
    await waitUntil("the reload to finish", () => screenHas("Reloaded keybindings, extensions"));
    await waitUntil("alice back, idle, in a new process", async () => {
      const a = await alice();
      return a?.status === "idle" && a.pid !== undefined && a.pid !== pid;
    }, 30_000);
    expect(isAlive(pid)).toBe(false);
    await waitUntil("the restore on screen", () => screenHas("pi-resident-teams: restored @alice (idle, with their context)"), 10_000);
    const aliceCalls = m.callsOf("alice").length;

    const before = m.callsOf("leader").length;
    t.type("WAKE");
    await waitUntil("the leader's next request", () => m.callsOf("leader").length > before);
    const next = m.callsOf("leader")[before]!;
    expect(JSON.stringify(next.messages)).toContain('<harness-event type=\\"teammates_restored\\" teammate=\\"alice\\">');
    expect(JSON.stringify(next.messages)).toContain("@alice (agent worker): its context is back");

    await waitUntil("alice's request after the wake", () => m.callsOf("alice").length > aliceCalls, 30_000);
    const woken = m.callsOf("alice")[aliceCalls]!;
    expect(woken.lastUser).toContain("WAKE-ALICE");
    expect(JSON.stringify(woken.messages), "alice's context from before the reload").toContain(MARK);

    // The console's transcript (t) reads her session file: the conversation from before the reload is there.
    await waitUntil("alice idle after the wake", async () => (await alice())?.status === "idle" && !screenHas("Working"), 30_000);
    t.type("/agent-teams");
    await waitUntil("the console", () => screenHas("t transcript"), 10_000);
    t.keys("t");
    await waitUntil("alice's transcript", () => screenHas("Transcript of @alice") || screenHas("ALICE-AWAKE"), 10_000);
    t.keys("Home");
    await waitUntil("its top, from before the reload", () => screenHas("Transcript of @alice") && screenHas(MARK), 10_000);
    t.keys("Escape", "q");
  });
});
