import { describe, expect, it } from "vitest";
import { ENV } from "../../../src/team/identity.ts";
import { planSpawn, type SpawnPlanInput } from "../../../src/team/spawn-plan.ts";

const input: SpawnPlanInput = {
  name: "alice",
  spawnId: "s-1",
  tools: ["read", "send_message"],
  model: { model: undefined, thinking: undefined },
  trusted: false,
  packageDir: "/pkg",
  runtimeDir: "/rt",
  boardDir: "/bd",
  leaderPid: 42,
  project: "/home/me/proj",
};

describe("planSpawn: identity env", () => {
  it("tells every teammate the shared project (the leader's cwd), and a worktree teammate its worktree", () => {
    expect(planSpawn(input).env).toEqual({
      [ENV.role]: "worker",
      [ENV.name]: "alice",
      [ENV.spawnId]: "s-1",
      [ENV.runtimeDir]: "/rt",
      [ENV.boardDir]: "/bd",
      [ENV.leaderPid]: "42",
      [ENV.project]: "/home/me/proj",
    });
    expect(planSpawn({ ...input, worktree: "/wt/alice-1" }).env).toMatchObject({ [ENV.worktree]: "/wt/alice-1", [ENV.project]: "/home/me/proj" });
  });
});
