/**
 * Issue 20 on the real pi CLI with the scripted model: every teammate incarnation keeps its own Pi
 * session file beside the board, and `handoffFrom` starts the successor from a fork of its
 * predecessor's session, so the successor's requests carry what the predecessor saw.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sessionKey } from "../../src/store/index.ts";
import { agentFile } from "../support/leader.ts";
import type { ModelCall, ReplyToolCall } from "../support/scripted-model.ts";
import { callText, leaderCommands, sendCall, spawnCall, startTeam, waitUntil, type Team } from "../support/team.ts";
import { readCall, shutdownCall, steps } from "../support/worktree.ts";

const AGENTS = { "worker.md": agentFile("worker", "You are a worker.", { tools: "read, bash" }) };
const KICKOFF_MARK = "ANN-KICKOFF-ORCHID-7";
const FILE_MARK = "FILE-MARK-LANTERN-42";

const handoffCall = (name: string, from: string): ReplyToolCall => ({ name: "teammate_spawn", arguments: { name, agent: "worker", handoffFrom: from } });

/** Ben's own turns: the calls after the handoff kickoff, counted by its own assistant messages. */
function ownTurn(c: ModelCall): number {
  const at = c.messages.findLastIndex((m) => m.role === "user" && JSON.stringify(m.content).includes("You take over from @ann"));
  return c.messages.slice(at + 1).filter((m) => m.role === "assistant").length;
}

let team: Team | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
});

describe("teammates with memory (issue 20)", () => {
  it("each incarnation has a session file beside the board, and a handoffFrom successor starts from a fork of it", async () => {
    team = await startTeam({
      agents: AGENTS,
      scripts: {
        leader: leaderCommands({
          GO: [spawnCall("ann", "worker", `Read notes.txt and report. ${KICKOFF_MARK}`)],
          SD: [shutdownCall("ann")],
          NEXT: [handoffCall("ben", "ann")],
        }),
        ann: steps({ toolCalls: [readCall("notes.txt")] }, { toolCalls: [sendCall("leader", "ANN: read it", "completed")] }),
        ben: (c) => [{ toolCalls: [sendCall("leader", "BEN: I remember", "in_progress")] }, { toolCalls: [sendCall("leader", "BEN-DONE", "completed")] }][ownTurn(c)] ?? { text: "done" },
      },
    });
    const t = team;
    writeFileSync(join(t.env.cwd, "notes.txt"), `${FILE_MARK}\n`);
    await t.run("GO");
    await waitUntil("ann's report", () => t.leader.customMessages("teammate-report").some((m) => m.content.includes("ANN: read it")), 30_000);

    const annSpawn = t.toolEnds("teammate_spawn").find((e) => e.details.name === "ann")!;
    const sessions = join(t.env.agentDir, "tasks", sessionKey(undefined, t.env.cwd), "sessions");
    expect(annSpawn.details.session).toBe(join(sessions, `ann-${String(annSpawn.details.spawnId)}`));
    const annDir = String(annSpawn.details.session);
    const [annFile] = readdirSync(annDir).filter((n) => n.endsWith(".jsonl"));
    expect(annFile, "ann's session file").toBeDefined();
    const annTranscript = readFileSync(join(annDir, annFile!), "utf8");
    expect(annTranscript).toContain(KICKOFF_MARK);
    expect(annTranscript).toContain(FILE_MARK);

    await t.run("SD");
    await t.run("NEXT");
    const benSpawn = t.toolEnds("teammate_spawn").find((e) => e.details.name === "ben")!;
    expect(benSpawn.isError).toBe(false);
    expect(benSpawn.details.handoffContext).toEqual({ mode: "fork", file: join(annDir, annFile!) });
    expect(benSpawn.text).toContain("its context is a fork of ann's session");
    await waitUntil("ben's terminal report", () => t.leader.customMessages("teammate-report").some((m) => m.content.includes("BEN-DONE")), 30_000);

    const benCalls = t.model.callsOf("ben");
    expect(benCalls.length).toBeGreaterThanOrEqual(2);
    for (const call of benCalls.slice(0, 2)) {
      const text = callText(call);
      expect(text, `ben's request #${benCalls.indexOf(call) + 1} holds ann's kickoff`).toContain(KICKOFF_MARK);
      expect(text, "and what ann read").toContain(FILE_MARK);
      expect(call.system).toContain('You are teammate "ben"');
      expect(call.system).not.toContain('You are teammate "ann"');
    }
    expect(benCalls[0]!.lastUser).toContain("The conversation above is @ann's, up to its stop");

    // Ben's own session is a new file in its own dir; ann's is left as it was.
    const benDir = String(benSpawn.details.session);
    expect(benDir).toBe(join(sessions, `ben-${String(benSpawn.details.spawnId)}`));
    const [benFile] = readdirSync(benDir).filter((n) => n.endsWith(".jsonl"));
    expect(readFileSync(join(benDir, benFile!), "utf8")).toContain("BEN-DONE");
    expect(readFileSync(join(annDir, annFile!), "utf8")).toBe(annTranscript);
  });
});
