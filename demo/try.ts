/**
 * `npm run demo -- --tui`: the real pi TUI in your terminal, with this package and the demo's
 * scripted model (no provider, no key, no network), in a throwaway git project with the demo's
 * agent files. The suggested prompt waits in pi's editor (a small extension of the demo's own
 * puts it there); Enter plays the demo's board scene: two idle implementers
 * take a helper task and a dependent one, a reviewer fails then passes the second, and the
 * leader shuts them down. Watch the widget, the reports and `/agent-teams`. Quit pi (Ctrl+C
 * twice, or /quit) and everything is removed: the temp project, the agent dir, the model server.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { PACKAGE_DIR, writeAgents } from "../tests/support/leader.ts";
import { createPiEnv } from "../tests/support/pi-env.ts";
import { contentText, startScriptedModel, type ModelCall, type Reply } from "../tests/support/scripted-model.ts";
import { boardPhase, BOARD_USER_TASK } from "./board-phase.ts";
import { AGENTS, PROJECT_FILES } from "./project.ts";

/** The notice under the prefilled prompt. */
export const TUI_HINT = "pi-resident-teams demo (scripted model, no provider): press Enter to send the prompt in the editor. Watch the widget and the reports, open /agent-teams (Tab, s, a, t, q), and quit with Ctrl+C twice: the temp project goes with it.";

/** The leader's answer to anything but the suggested prompt. */
const HINT = `This demo's scripted model knows one prompt. Type:\n\n${BOARD_USER_TASK}`;

/** Runs the TUI until pi exits; resolves with pi's exit code once everything is removed. */
export async function tryTui(): Promise<number> {
  const scene = boardPhase();
  const asked = (c: ModelCall): boolean => c.messages.some((m) => m.role === "user" && contentText(m.content).includes(BOARD_USER_TASK));
  const model = await startScriptedModel({ handler: (c): Reply => (c.agent === "leader" && !asked(c) ? { text: HINT } : scene.reply(c)) });
  const root = await mkdtemp(join(tmpdir(), "pi-teams-try-"));
  const cleanup = async (): Promise<void> => {
    await model.close();
    await rm(root, { recursive: true, force: true });
  };
  try {
    const env = await createPiEnv({ model, root });
    await writeAgents(env, AGENTS);
    for (const [path, text] of Object.entries(PROJECT_FILES)) {
      await mkdir(dirname(join(env.cwd, path)), { recursive: true });
      await writeFile(join(env.cwd, path), text);
    }
    const git = (...args: string[]): void => void execFileSync("git", ["-c", "user.name=Demo", "-c", "user.email=demo@example.invalid", "-c", "commit.gpgsign=false", ...args], { cwd: env.cwd, env: env.env, stdio: "ignore" });
    git("add", ".");
    git("commit", "-q", "-m", "demo project");
    // The demo's own hint, not this package: the prompt in the editor and one line on what to do.
    const hint = join(root, "try-hint.ts");
    await writeFile(hint, `export default function (pi) {\n  pi.on("session_start", (_event, ctx) => {\n    if (!ctx.hasUI) return;\n    ctx.ui.setEditorText(${JSON.stringify(BOARD_USER_TASK)});\n    ctx.ui.notify(${JSON.stringify(TUI_HINT)}, "info");\n  });\n}\n`);
    process.stdout.write(`pi-resident-teams: a real pi with this package and a scripted model (no provider, no key).\nProject: ${env.cwd} (removed when pi exits)\n`);
    // pi takes the terminal; Ctrl+C is its own (clear, then quit), so this process ignores it.
    const ignore = (): void => undefined;
    process.on("SIGINT", ignore);
    const pi = spawn(env.nodePath, [env.piCli, "-a", "--no-extensions", "-e", PACKAGE_DIR, "-e", hint, "--no-session"], { cwd: env.cwd, env: env.env, stdio: "inherit" });
    const code = await new Promise<number>((resolve) => pi.once("close", (c, signal) => resolve(c ?? (signal ? 128 : 1))));
    process.off("SIGINT", ignore);
    return code;
  } finally {
    await cleanup();
    process.stdout.write(`pi-resident-teams: removed ${root}\n`);
  }
}
