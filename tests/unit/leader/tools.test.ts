import { describe, expect, it } from "vitest";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import type { BoardWork } from "../../../src/boardhost/board-host-types.ts";
import type { SpawnRequest } from "../../../src/harness/harness-types.ts";
import type { LeaderHarness } from "../../../src/harness/harness.ts";
import { registerLeaderTools } from "../../../src/leader/tools.ts";

type Execute = (id: string, params: Record<string, unknown>) => Promise<{ content: { text: string }[] }>;

/** Registers the leader tools on a fake Pi and a fake harness that records spawn requests. */
function setup(boardWork?: (name: string) => BoardWork | undefined) {
  const tools = new Map<string, Execute>();
  const pi = { registerTool: (t: { name: string; execute: Execute }) => tools.set(t.name, t.execute) } as unknown as ExtensionAPI;
  const requests: SpawnRequest[] = [];
  const harness = {
    spawn: async (req: SpawnRequest) => {
      requests.push(req);
      return { name: req.name, agent: req.agent, spawnId: "s-1", pid: 42, status: req.prompt ? "working" : "idle", tools: ["send_message"], model: "m/x", kickoff: Boolean(req.prompt), log: "/l" };
    },
  } as unknown as LeaderHarness;
  registerLeaderTools(pi, () => harness, boardWork);
  return { spawn: tools.get("teammate_spawn")!, requests };
}

describe("teammate_spawn prompt", () => {
  it("treats an empty or blank prompt as no kickoff and says so", async () => {
    for (const prompt of ["", "  \n "]) {
      const { spawn, requests } = setup();
      const r = await spawn("t", { name: "alice", agent: "worker", prompt });
      expect(requests[0]).not.toHaveProperty("prompt");
      expect(r.content[0]!.text).toContain("it is idle until messaged; no kickoff (prompt was empty).");
    }
  });

  it("passes a real prompt as the kickoff, and says nothing about emptiness without one", async () => {
    const a = setup();
    const withPrompt = await a.spawn("t", { name: "alice", agent: "worker", prompt: "do it" });
    expect(a.requests[0]!.prompt).toBe("do it");
    expect(withPrompt.content[0]!.text).toContain("it is working on its kickoff.");
    const b = setup();
    const without = await b.spawn("t", { name: "bob", agent: "worker" });
    expect(without.content[0]!.text).toContain("it is idle until messaged.");
    expect(without.content[0]!.text).not.toContain("prompt was empty");
  });
});

// Regression (issue 6): the spawn result said "is idle until messaged" although a board notice
// had already woken the teammate (or claimable work was waiting for it).
describe("teammate_spawn without a kickoff and board work", () => {
  it("says the teammate was offered the tasks of its notice", async () => {
    const { spawn } = setup(() => ({ offered: ["fix-auth", "docs"], claimable: ["fix-auth", "docs"] }));
    const r = await spawn("t", { name: "alice", agent: "worker" });
    expect(r.content[0]!.text).toContain("it was offered board work (`fix-auth`, `docs`) and claims what fits its role.");
    expect(r.content[0]!.text).not.toContain("idle until messaged");
  });

  it("says it will be offered board work when some is claimable", async () => {
    const { spawn } = setup(() => ({ offered: [], claimable: ["docs"] }));
    const r = await spawn("t", { name: "alice", agent: "worker", prompt: " " });
    expect(r.content[0]!.text).toContain("it is idle and will be offered board work (1 claimable task); no kickoff (prompt was empty).");
  });

  it("keeps 'idle until messaged' when the board has nothing for it, and ignores the board with a kickoff", async () => {
    const none = setup(() => ({ offered: [], claimable: [] }));
    expect((await none.spawn("t", { name: "bob", agent: "worker" })).content[0]!.text).toContain("it is idle until messaged.");
    const kicked = setup(() => ({ offered: ["x"], claimable: ["x"] }));
    expect((await kicked.spawn("t", { name: "bob", agent: "worker", prompt: "go" })).content[0]!.text).toContain("it is working on its kickoff.");
  });
});
