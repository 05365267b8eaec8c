/**
 * Issue 20 on the real pi CLI with the scripted model: the team notebook. Ann (shared tree) writes
 * a note; Cal (its own worktree) reads it and builds on it; a blind overwrite of it by Ann, after
 * Cal changed it, is blocked by the stale-write guard; both are told where the notebook is.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { boardLayout, sessionKey } from "../../src/store/index.ts";
import { agentFile } from "../support/leader.ts";
import type { ModelCall, Reply } from "../support/scripted-model.ts";
import { leaderCommands, sendCall, spawnCall, startTeam, waitUntil, type Team } from "../support/team.ts";
import { NO_GIT_IDENTITY, readCall, writeCall } from "../support/worktree.ts";

const AGENTS = {
  "worker.md": agentFile("worker", "You are a worker.", { tools: "read, write, edit" }),
  "builder.md": agentFile("builder", "You are a builder.", { tools: "read, write, edit", worktree: "true" }),
};

/** Answers by a marker in the last user message and the turn within it. */
function byPrompt(plan: Record<string, (c: ModelCall) => Reply[]>): (c: ModelCall) => Reply {
  return (c) => {
    const at = c.messages.findLastIndex((m) => m.role === "user");
    const turn = c.messages.slice(at + 1).filter((m) => m.role === "assistant").length;
    const key = Object.keys(plan).find((k) => c.lastUser.includes(k));
    return (key ? plan[key]!(c)[turn] : undefined) ?? { text: "done" };
  };
}

let team: Team | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
});

describe("the team notebook (issue 20)", () => {
  it("a note written by one teammate is read by another in its worktree, and a stale overwrite of it is blocked", async () => {
    let notebook = "";
    const note = () => join(notebook, "decisions.md");
    team = await startTeam({
      agents: AGENTS,
      leaderEnv: NO_GIT_IDENTITY,
      scripts: {
        leader: leaderCommands({
          ANN: [spawnCall("ann", "worker", "ANN-WRITE: note the decision.")],
          CAL: [spawnCall("cal", "builder", "CAL-READ: read the decision and add yours.")],
          BLIND: [sendCall("ann", "ANN-BLIND: rewrite the note.")],
        }),
        ann: byPrompt({
          "ANN-WRITE": () => [{ toolCalls: [writeCall(note(), "1. ANN-DECIDED: sqlite\n")] }, { toolCalls: [sendCall("leader", "ANN-NOTED", "completed")] }],
          // Ann wrote it before, but Cal changed it since: this write would lose Cal's line.
          "ANN-BLIND": () => [{ toolCalls: [writeCall(note(), "1. ANN-DECIDED: postgres\n")] }, { toolCalls: [sendCall("leader", "ANN-TRIED", "completed")] }],
        }),
        cal: byPrompt({
          "CAL-READ": () => [
            { toolCalls: [readCall(note())] },
            { toolCalls: [{ name: "edit", arguments: { path: note(), edits: [{ oldText: "sqlite\n", newText: "sqlite\n2. CAL-AGREED: migrations in sql/\n" }] } }] },
            { toolCalls: [sendCall("leader", "CAL-NOTED", "completed")] },
          ],
        }),
      },
    });
    const t = team;
    notebook = boardLayout(t.env.agentDir, sessionKey(undefined, t.env.cwd)).notebook;
    const reports = () => t.leader.customMessages("teammate-report").map((m) => m.content);

    await t.run("ANN");
    await waitUntil("ann's note", () => reports().some((r) => r.includes("ANN-NOTED")), 30_000);
    expect(readFileSync(note(), "utf8")).toBe("1. ANN-DECIDED: sqlite\n");
    expect(t.model.callsOf("ann")[0]!.system).toContain(`The team notebook is ${notebook}`);

    await t.run("CAL");
    await waitUntil("cal's note", () => reports().some((r) => r.includes("CAL-NOTED")), 30_000);
    const cal = t.model.callsOf("cal");
    expect(cal[0]!.system).toContain(`The team notebook is ${notebook}`);
    expect(cal[1]!.toolResults[0]!.content, "cal read ann's note").toContain("ANN-DECIDED: sqlite");
    expect(cal[2]!.toolResults[0]!.content).not.toMatch(/blocked/);
    expect(readFileSync(note(), "utf8")).toBe("1. ANN-DECIDED: sqlite\n2. CAL-AGREED: migrations in sql/\n");
    const calWorktree = String((t.toolEnds("teammate_spawn").find((e) => e.details.name === "cal")!.details.worktree as { dir: string }).dir);
    expect(existsSync(join(calWorktree, "decisions.md"))).toBe(false);

    await t.run("BLIND");
    await waitUntil("ann's answer", () => reports().some((r) => r.includes("ANN-TRIED")), 30_000);
    const blind = t.model.callsOf("ann").find((c) => c.toolResults.length > 0 && c.lastUser.includes("ANN-BLIND"));
    expect(blind!.toolResults[0]!.content).toMatch(/^write blocked: .*decisions\.md/);
    expect(readFileSync(note(), "utf8"), "cal's line survives").toContain("CAL-AGREED");

    // The leader is told of the notebook in its own guidance too.
    expect(t.model.callsOf("leader")[0]!.system).toContain(`The team notebook is ${notebook}`);
  });
});
