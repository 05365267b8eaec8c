/** The real pi TUI in a private tmux server, for tests of what the user sees (send-keys, capture-pane). */
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { PACKAGE_DIR, writeAgents } from "./leader.ts";
import { createPiEnv, type PiEnv } from "./pi-env.ts";
import { startScriptedModel, type ScriptedModel, type ScriptedModelOptions } from "./scripted-model.ts";

/** Whether tmux runs here (TUI tests are skipped, with vitest's skip reason, where it does not). */
export const HAS_TMUX = spawnSync("tmux", ["-V"]).status === 0;
if (!HAS_TMUX) console.warn("tmux is not installed (npm test tries to install it): the real-terminal TUI tests are skipped.");

/**
 * A private tmux server (own socket, so nobody else's sessions are touched) running `script`.
 * The pane stays after the script exits, so a test can read what was printed at exit.
 */
export function startTmux(script: string, size = { columns: 200, rows: 50 }): {
  screen(): string;
  type(keys: string): void;
  keys(...keys: string[]): void;
  literal(text: string): void;
  resize(columns: number, rows: number): void;
  kill(): void;
} {
  const socket = `prt-${process.pid}-${randomBytes(3).toString("hex")}`;
  const tmux = (...args: string[]) => execFileSync("tmux", ["-L", socket, ...args], { encoding: "utf8" });
  tmux("new-session", "-d", "-s", "leader", "-x", String(size.columns), "-y", String(size.rows), script);
  tmux("set-option", "-t", "leader", "remain-on-exit", "on"); // what pi printed last stays readable
  return {
    screen: () => tmux("capture-pane", "-p", "-J", "-t", "leader"),
    type: (keys) => void tmux("send-keys", "-t", "leader", keys, "Enter"),
    /** tmux key names (`Tab`, `Down`, `Escape`, `q`), one send-keys call each: two Escs in one chunk are another key. */
    keys: (...keys) => {
      for (const k of keys) tmux("send-keys", "-t", "leader", k);
    },
    literal: (text) => void tmux("send-keys", "-t", "leader", "-l", text),
    /** Resizes the window (and so the pane and Pi's terminal) to `columns` x `rows`. */
    resize: (columns, rows) => void tmux("resize-window", "-t", "leader", "-x", String(columns), "-y", String(rows)),
    kill: () => {
      try {
        tmux("kill-server");
      } catch {
        // already gone
      }
    },
  };
}

/**
 * A shell script that starts the leader TUI in `env`. Its stderr goes to `<root>/leader.log` (it
 * would garble the screen), or with `stderr: "terminal"` to the pane, for what Pi prints at exit.
 * `prelude`: shell lines run in the pane before pi replaces the shell (same session and terminal).
 */
export async function leaderScript(env: PiEnv, opts: { stderr?: "log" | "terminal"; extraEnv?: Record<string, string>; args?: readonly string[]; prelude?: readonly string[] } = {}): Promise<string> {
  const path = join(env.root, "leader.sh");
  const exports = Object.entries({ ...env.env, ...opts.extraEnv }).map(([k, v]) => `export ${k}=${JSON.stringify(v)}`);
  const cmd = [env.nodePath, env.piCli, "-a", "--no-extensions", "-e", PACKAGE_DIR, "--no-session", ...(opts.args ?? [])].map((a) => JSON.stringify(a)).join(" ");
  await writeFile(path, ["#!/bin/sh", ...exports, `cd ${JSON.stringify(env.cwd)}`, ...(opts.prelude ?? []), `exec ${cmd}${opts.stderr === "terminal" ? "" : ` 2>>${JSON.stringify(join(env.root, "leader.log"))}`}`, ""].join("\n"));
  await chmod(path, 0o700);
  return path;
}


/** A scripted model, an isolated env with agent files, and the leader TUI running in tmux. */
export interface TuiTeam {
  model: ScriptedModel;
  env: PiEnv;
  tui: ReturnType<typeof startTmux>;
  /** Kills the tmux server, closes the model and removes the env. */
  stop(): Promise<void>;
}

/**
 * Starts a `TuiTeam`; `stderr`, `extraEnv` (the leader's environment), `args` (more pi CLI
 * arguments, e.g. `--tui-mode regular`) and `prelude` as in `leaderScript`; `settings` are merged into the
 * agent dir's settings.json. Cleans up what it made if a step fails.
 */
export async function startTuiTeam(o: {
  handler: NonNullable<ScriptedModelOptions["handler"]>;
  agents: Record<string, string>;
  stderr?: "log" | "terminal";
  size?: { columns: number; rows: number };
  settings?: Record<string, unknown>;
  extraEnv?: Record<string, string>;
  args?: readonly string[];
  prelude?: readonly string[];
}): Promise<TuiTeam> {
  const model = await startScriptedModel({ handler: o.handler });
  let env: PiEnv | undefined;
  try {
    env = await createPiEnv({ model, ...(o.settings ? { settings: o.settings } : {}) });
    await writeAgents(env, o.agents);
    const script = await leaderScript(env, { ...(o.stderr ? { stderr: o.stderr } : {}), ...(o.extraEnv ? { extraEnv: o.extraEnv } : {}), ...(o.args ? { args: o.args } : {}), ...(o.prelude ? { prelude: o.prelude } : {}) });
    const tui = startTmux(script, o.size);
    const made = env;
    return { model, env, tui, stop: async () => { tui.kill(); await model.close(); await made.cleanup(); } };
  } catch (error) {
    await model.close();
    await env?.cleanup();
    throw error;
  }
}

/**
 * With PI_TEAMS_CONSOLE_CAPTURES set to a directory, writes `screen` there as `<name>.txt`
 * (trailing blanks cut), for docs/console.md; otherwise does nothing.
 */
export async function keepCapture(name: string, screen: string): Promise<void> {
  const dir = process.env.PI_TEAMS_CONSOLE_CAPTURES;
  if (!dir) return;
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, `${name}.txt`), `${screen.replace(/\s+$/gm, "").trimEnd()}\n`);
}
