import { describe, expect, it } from "vitest";
import { ENV } from "../../../src/mail/identity.ts";
import { planSpawn, type SpawnPlanInput } from "../../../src/team/spawn-plan.ts";

const base: SpawnPlanInput = {
  name: "alice",
  spawnId: "0123456789abcdef",
  tools: ["read", "send_message", "task_list", "task_claim", "task_submit"],
  model: { model: undefined, thinking: undefined },
  trusted: true,
  packageDir: "/pkg",
  runtimeDir: "/rt",
  boardDir: "/board",
  leaderPid: 42,
  project: "/home/me/proj",
};

/** The value after `flag` in `args`, or undefined when the flag is absent. */
function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i < 0 ? undefined : args[i + 1];
}

describe("planSpawn", () => {
  it("passes the checked grant as --tools and loads only this package", () => {
    const plan = planSpawn(base);
    expect(flag(plan.args, "--tools")).toBe("read,send_message,task_list,task_claim,task_submit");
    expect(plan.args).toContain("--no-extensions");
    expect(flag(plan.args, "-e")).toBe("/pkg");
  });

  it("loads the role's extensions with -e after the package, in field order", () => {
    const args = planSpawn({ ...base, extensions: ["/proj/gate.ts", "/home/me/audit"] }).args;
    const at = args.indexOf("/pkg");
    expect(args.slice(at - 1, at + 5)).toEqual(["-e", "/pkg", "-e", "/proj/gate.ts", "-e", "/home/me/audit"]);
    expect(args.filter((a) => a === "-e")).toHaveLength(3);
  });

  it("gives the child the leader's trust decision, never more (-a / -na)", () => {
    expect(planSpawn(base).args).toContain("-a");
    expect(planSpawn(base).args).not.toContain("-na");
    const untrusted = planSpawn({ ...base, trusted: false }).args;
    expect(untrusted).toContain("-na");
    expect(untrusted).not.toContain("-a");
  });

  it("passes no model flag for Pi's default, and provider, model and thinking when resolved (R6)", () => {
    const none = planSpawn(base).args;
    expect(none).not.toContain("--model");
    expect(none).not.toContain("--provider");
    expect(none).not.toContain("--thinking");
    const inherit = planSpawn({ ...base, model: { model: { provider: "anthropic", id: "claude-sonnet-4" }, thinking: "high" } }).args;
    expect(flag(inherit, "--provider")).toBe("anthropic");
    expect(flag(inherit, "--model")).toBe("claude-sonnet-4");
    expect(flag(inherit, "--thinking")).toBe("high");
  });

  it("sets the identity variables, and the worktree variable only for a worktree teammate", () => {
    const shared = planSpawn(base).env;
    expect(shared).toEqual({
      [ENV.role]: "worker",
      [ENV.name]: "alice",
      [ENV.spawnId]: "0123456789abcdef",
      [ENV.runtimeDir]: "/rt",
      [ENV.boardDir]: "/board",
      [ENV.leaderPid]: "42",
      [ENV.project]: "/home/me/proj", // every teammate is told the shared project (the leader's cwd)
    });
    expect(shared[ENV.worktree]).toBeUndefined();
    expect(planSpawn({ ...base, worktree: "/wt/alice-01234567" }).env[ENV.worktree]).toBe("/wt/alice-01234567");
  });

  it("keeps the teammate's transcript in its own session dir, forked from a predecessor's file when given (issue 20)", () => {
    expect(planSpawn(base).args).toContain("--no-session");
    const own = planSpawn({ ...base, session: { dir: "/agent/tasks/k/sessions/ann-1" } }).args;
    expect(flag(own, "--session-dir")).toBe("/agent/tasks/k/sessions/ann-1");
    expect(own).not.toContain("--no-session");
    expect(own).not.toContain("--fork");
    const fork = planSpawn({ ...base, session: { dir: "/s/ben-2", fork: "/s/ann-1/x_y.jsonl" } }).args;
    expect(flag(fork, "--fork")).toBe("/s/ann-1/x_y.jsonl");
    expect(flag(fork, "--session-dir")).toBe("/s/ben-2");
  });

  it("names the team notebook in PI_TEAMS_NOTEBOOK only when given (issue 20)", () => {
    expect(planSpawn(base).env.PI_TEAMS_NOTEBOOK).toBeUndefined();
    const plan = planSpawn({ ...base, notebook: "/agent/tasks/k/notebook" });
    expect(plan.env.PI_TEAMS_NOTEBOOK).toBe("/agent/tasks/k/notebook");
    expect(plan.notebook).toBe("/agent/tasks/k/notebook");
  });
});
