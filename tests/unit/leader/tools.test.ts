import { describe, expect, it } from "vitest";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import type { SpawnRequest } from "../../../src/leader/harness-types.ts";
import type { LeaderHarness } from "../../../src/leader/harness.ts";
import { registerLeaderTools } from "../../../src/leader/tools.ts";

type Execute = (id: string, params: Record<string, unknown>) => Promise<{ content: { text: string }[] }>;

/** Registers the leader tools on a fake Pi and a fake harness that records spawn requests. */
function setup() {
  const tools = new Map<string, Execute>();
  const pi = { registerTool: (t: { name: string; execute: Execute }) => tools.set(t.name, t.execute) } as unknown as ExtensionAPI;
  const requests: SpawnRequest[] = [];
  const harness = {
    spawn: async (req: SpawnRequest) => {
      requests.push(req);
      return { name: req.name, agent: req.agent, spawnId: "s-1", pid: 42, status: req.prompt ? "working" : "idle", tools: ["send_message"], model: "m/x", kickoff: Boolean(req.prompt), log: "/l" };
    },
  } as unknown as LeaderHarness;
  registerLeaderTools(pi, () => harness);
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
