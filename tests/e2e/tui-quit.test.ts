/**
 * Issue 7 on the real pi TUI, driven in tmux: a worktree teammate's work is kept on its branch
 * when the user quits, and the user is told so. At quit the leader's model gets no more turns and
 * a Pi notice would vanish with the screen, so the teammates the quit stopped (issue 17), the kept
 * branch and its `git diff` command are printed once Pi has restored the terminal. Skipped where
 * tmux is missing.
 */
import { execFileSync } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { agentFile } from "../support/leader.ts";
import { waitUntil } from "../support/team.ts";
import { HAS_TMUX, startTuiTeam, type TuiTeam } from "../support/tmux.ts";

let team: TuiTeam | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
});

describe.skipIf(!HAS_TMUX)("/quit in the TUI", () => {
  it("commits the worktree teammate's work onto its kept branch and prints whom it stopped and the branch after the TUI is gone", async () => {
    let release!: () => void;
    const busyMayAnswer = new Promise<void>((resolve) => (release = resolve));
    team = await startTuiTeam({
      handler: async (c) => {
        if (c.agent === "leader") {
          const spawn = c.toolResults.length === 0 && c.lastUser === "SPAWN";
          return spawn
            ? { toolCalls: [
                { name: "teammate_spawn", arguments: { name: "wt", agent: "builder", prompt: "Write new.txt." } },
                { name: "teammate_spawn", arguments: { name: "busy", agent: "builder", prompt: "Think for a long time." } },
              ] }
            : { text: "Noted." };
        }
        if (c.agent === "busy") {
          await busyMayAnswer; // busy is still working when the user quits
          return { text: "too late" };
        }
        return c.toolResults.length === 0 ? { toolCalls: [{ name: "write", arguments: { path: "new.txt", content: "kept at quit\n" } }] } : { text: "written" };
      },
      agents: { "builder.md": agentFile("builder", "You build.", { tools: "read, write", worktree: "true" }) },
      stderr: "terminal",
    });
    const { tui: t, model: m, env } = team;
    await waitUntil("the TUI to show the model", () => t.screen().includes("scripted-1"), 30_000);
    t.type("SPAWN");
    await waitUntil("wt to write its file, busy to work, and the leader's turn to end", () => m.callsOf("wt").length >= 2 && m.callsOf("busy").length >= 1 && t.screen().includes("Noted."), 30_000);
    t.type("/quit");
    await waitUntil("pi to exit and print the kept branch", () => t.screen().includes("work kept on branches"), 30_000);
    release();
    const screen = t.screen();
    // One line names the teammates the quit stopped, the working one included.
    expect(screen).toContain("pi-resident-teams: the session ended and stopped 2 teammates: @busy, @wt");
    const line = /@wt: git diff ([0-9a-f]{40})\.\.(pi-team\/wt-[0-9a-f]{8})/.exec(screen);
    expect(line, screen).not.toBeNull();
    const [, base, branch] = line!;
    const git = (...args: string[]) => execFileSync("git", args, { cwd: env.cwd, encoding: "utf8" });
    expect(git("show", `${branch}:new.txt`)).toBe("kept at quit\n");
    expect(git("diff", "--name-only", `${base}..${branch}`).trim()).toBe("new.txt");
  });
});
