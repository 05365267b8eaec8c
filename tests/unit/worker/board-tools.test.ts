/**
 * The worker's board tools on a fake Pi: a rejection comes back as a normal tool result naming
 * its code (not a thrown error), and a corrupt board.json is reported to the teammate with only
 * what it can do (no rule meant for the leader's code).
 */
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TeamError } from "../../../src/errors.ts";
import { newSpawnKey, type BoardIntent } from "../../../src/mail/index.ts";
import { boardLayoutAt } from "../../../src/store/index.ts";
import { registerWorkerBoardTools, type BoardCallDetails } from "../../../src/worker/board-tools.ts";
import { filesChannel } from "../../../src/worker/channel.ts";
import { StreamLink } from "../../../src/worker/stream-link.ts";
import { fakePipePi } from "../../support/fake-pipe.ts";
import { useTempDirs } from "../store/tmp.ts";

type Execute = (id: string, params: Record<string, unknown>) => Promise<{ content: { text: string }[]; details: unknown }>;

const tempDir = useTempDirs();

async function setup() {
  const root = await tempDir();
  const me = { role: "worker" as const, name: "alice", spawnId: "alice-1", runtimeDir: join(root, "rt"), boardDir: join(root, "board"), leaderPid: process.pid };
  const layout = boardLayoutAt(me.boardDir);
  await mkdir(layout.claimsDir, { recursive: true });
  const tools = new Map<string, Execute>();
  const { pi, leader } = fakePipePi({ registerTool: (t: { name: string; execute: Execute }) => tools.set(t.name, t.execute) });
  registerWorkerBoardTools(pi, filesChannel(me, newSpawnKey(), new StreamLink(pi)));
  return { layout, leader, tool: (name: string) => tools.get(name)! };
}

describe("worker board tools", () => {
  it("returns a rejection as a normal result with its code and message, details { ok: false, reason }", async () => {
    const { layout, leader, tool } = await setup();
    const call = tool("task_claim")("t", { taskId: "fix-auth" });
    let intent: BoardIntent | undefined;
    while (!intent) {
      const [name] = (await readdir(layout.claimsDir)).filter((n) => n.endsWith(".json") && !n.startsWith("."));
      if (name) intent = JSON.parse(await readFile(join(layout.claimsDir, name), "utf8")) as BoardIntent;
      else await new Promise((r) => setTimeout(r, 10));
    }
    const message = "Task `fix-auth` is blocked by unfinished dependencies: `schema` (pending).";
    await leader({ kind: "answer", id: intent.id, ok: false, text: message, decision: { ok: false, reason: "blocked", message, taskId: "fix-auth" } });
    const result = await call;
    expect(result.content[0]!.text).toBe(`task_claim rejected (blocked): ${message}`);
    expect(result.details).toEqual({ ok: false, reason: "blocked", message, taskId: "fix-auth" } satisfies BoardCallDetails);
  });

  it("tells the teammate only what it can do when board.json is corrupt", async () => {
    const { layout, tool } = await setup();
    await mkdir(layout.root, { recursive: true });
    await writeFile(layout.board, "{ not json");
    const error = (await tool("task_list")("t", {}).catch((e: unknown) => e)) as TeamError;
    expect(error).toBeInstanceOf(TeamError);
    expect(error.message).toContain("task_list: the task board cannot be read right now");
    expect(error.message).toContain("board.json is not valid JSON");
    expect(error.message).toContain("leave board.json alone");
    expect(error.message).toContain('send_message(to: "leader")');
    expect(error.message).not.toMatch(/move it aside|never overwrite|report it/);
  });
});
