/**
 * The built-in `/reload` of the real pi TUI, driven in tmux (RPC has no `/reload`; the RPC test
 * in session-boundaries.test.ts goes through `ctx.reload()` instead). After spawning a teammate
 * the user types `/reload`: the teammate's process is gone, the warning naming it is on the screen
 * after Pi's "Reloaded ..." rebuild of the chat, and the leader's next request carries the
 * `teammates_stopped` harness event. Skipped where tmux is missing.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmod, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sessionKey } from "../../src/store/layout.ts";
import { agentFile, PACKAGE_DIR, writeAgents } from "../support/leader.ts";
import { createPiEnv, type PiEnv } from "../support/pi-env.ts";
import { startScriptedModel, type ScriptedModel } from "../support/scripted-model.ts";
import { isAlive, readRoster, waitUntil } from "../support/team.ts";

const HAS_TMUX = spawnSync("tmux", ["-V"]).status === 0;

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

/** A private tmux server (own socket, so nobody else's sessions are touched) running `script`. */
function startTmux(script: string): { screen(): string; type(keys: string): void; kill(): void } {
  const socket = `prt-${process.pid}-${randomBytes(3).toString("hex")}`;
  const tmux = (...args: string[]) => execFileSync("tmux", ["-L", socket, ...args], { encoding: "utf8" });
  tmux("new-session", "-d", "-s", "leader", "-x", "200", "-y", "50", script);
  return {
    screen: () => tmux("capture-pane", "-p", "-J", "-t", "leader"),
    type: (keys) => void tmux("send-keys", "-t", "leader", keys, "Enter"),
    kill: () => {
      try {
        tmux("kill-server");
      } catch {
        // already gone
      }
    },
  };
}

/** A shell script that starts the leader TUI in `env` (stderr to a file: it would garble the screen). */
async function leaderScript(env: PiEnv): Promise<string> {
  const path = join(env.root, "leader.sh");
  const exports = Object.entries(env.env).map(([k, v]) => `export ${k}=${JSON.stringify(v)}`);
  const cmd = [env.nodePath, env.piCli, "-a", "--no-extensions", "-e", PACKAGE_DIR, "--no-session"].map((a) => JSON.stringify(a)).join(" ");
  await writeFile(path, ["#!/bin/sh", ...exports, `cd ${JSON.stringify(env.cwd)}`, `exec ${cmd} 2>>${JSON.stringify(join(env.root, "leader.log"))}`, ""].join("\n"));
  await chmod(path, 0o700);
  return path;
}

describe.skipIf(!HAS_TMUX)("/reload in the TUI", () => {
  it("stops the teammate, warns on screen and tells the leader's next turn", async () => {
    let model: ScriptedModel | undefined;
    let env: PiEnv | undefined;
    let tui: ReturnType<typeof startTmux> | undefined;
    cleanup = async () => {
      tui?.kill();
      await model?.close();
      await env?.cleanup();
    };
    model = await startScriptedModel({
      handler: (c) =>
        c.agent === "leader" && c.toolResults.length === 0 && c.lastUser === "SPAWN"
          ? { toolCalls: [{ name: "teammate_spawn", arguments: { name: "alice", agent: "worker" } }] }
          : { text: "Spawn noted." },
    });
    env = await createPiEnv({ model });
    await writeAgents(env, { "worker.md": agentFile("worker", "You are a worker.", { tools: "read" }) });
    const runtimeDir = join(env.agentDir, "teammate", sessionKey(undefined, env.cwd));
    tui = startTmux(await leaderScript(env));
    const t = tui;
    const m = model;
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
