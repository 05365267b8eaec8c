/**
 * `npm run demo -- --tui`: the real pi TUI in your terminal, with this package and the demo's
 * scripted model (no provider, no key, no network), in a throwaway git project with the demo's
 * agent files. The suggested prompt waits in pi's editor (a small extension of the demo's own
 * puts it there); Enter plays the demo's board scene: two idle implementers
 * take a helper task and a dependent one, and a reviewer fails then passes the second. Unlike
 * the printed demo, the leader then leaves them idle, so the console's keys can be tried on them
 * (a message from `s` gets a scripted echo). Quit pi (Ctrl+C twice, or /quit) and everything is
 * removed: the temp project, the agent dir, the model server.
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

/** The leader's last word of the scene, where the printed demo shuts the team down. */
export const SCENE_DONE = "Both board tasks are completed and reviewed. ana and ben stay idle: open /agent-teams, select one and press s to write to it; Ctrl+C twice quits.";

/** The leader's answer to anything but the suggested prompt. */
const HINT = `This demo's scripted model knows one prompt. Type:\n\n${BOARD_USER_TASK}`;

/** Runs the TUI until pi exits; resolves with pi's exit code once everything is removed. */
export async function tryTui(): Promise<number> {
  const scene = boardPhase();
  const asked = (c: ModelCall): boolean => c.messages.some((m) => m.role === "user" && contentText(m.content).includes(BOARD_USER_TASK));
  let done = false;
  const handler = (c: ModelCall): Reply => {
    if (c.agent === "leader" && !asked(c)) return { text: HINT };
    // Your own message from the console: a teammate echoes it to the leader, which notes it.
    const fromYou = [...c.lastUser.matchAll(/<teammate-mail from="user">\n([\s\S]*?)\n<\/teammate-mail>/g)].map((m) => m[1]).at(-1);
    if (fromYou !== undefined && c.toolResults.length === 0) return { toolCalls: [{ name: "send_message", arguments: { to: "leader", message: `The user wrote to me: "${fromYou}". (A scripted teammate: it only echoes.)`, status: "completed" } }] };
    if (c.agent !== "leader" && c.toolResults.some((r) => r.content.startsWith("queued: report to leader"))) return { text: "Reported." };
    if (c.agent === "leader" && done) return { text: "Noted." };
    const reply = scene.reply(c);
    if (c.agent === "leader" && reply.toolCalls?.some((t) => t.name === "teammate_shutdown")) {
      done = true; // the team stays, idle, for you to try the console on
      return { text: SCENE_DONE };
    }
    return reply;
  };
  const model = await startScriptedModel({ handler });
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
