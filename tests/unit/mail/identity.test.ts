import { describe, expect, it } from "vitest";
import { ENV, readIdentity } from "../../../src/mail/identity.ts";

const worker = {
  [ENV.role]: "worker",
  [ENV.name]: "alice",
  [ENV.spawnId]: "s-1",
  [ENV.runtimeDir]: "/rt",
  [ENV.boardDir]: "/bd",
  [ENV.leaderPid]: "42",
};

describe("readIdentity", () => {
  it("reads a shared-tree worker without a worktree", () => {
    expect(readIdentity(worker)).toEqual({ role: "worker", name: "alice", spawnId: "s-1", runtimeDir: "/rt", boardDir: "/bd", leaderPid: 42 });
  });

  it("reads PI_TEAMS_WORKTREE into `worktree`, ignoring an empty value", () => {
    expect(ENV.worktree).toBe("PI_TEAMS_WORKTREE");
    expect(readIdentity({ ...worker, PI_TEAMS_WORKTREE: "/w/alice" })).toMatchObject({ role: "worker", worktree: "/w/alice" });
    expect(readIdentity({ ...worker, PI_TEAMS_WORKTREE: "" })).not.toHaveProperty("worktree");
  });

  it("reads PI_TEAMS_PROJECT into `project`; it is optional (an older leader does not set it)", () => {
    expect(ENV.project).toBe("PI_TEAMS_PROJECT");
    expect(readIdentity({ ...worker, PI_TEAMS_PROJECT: "/home/me/proj" })).toMatchObject({ role: "worker", project: "/home/me/proj" });
    expect(readIdentity(worker)).not.toHaveProperty("project");
  });

  it("throws naming a missing variable", () => {
    expect(() => readIdentity({ ...worker, [ENV.spawnId]: "" })).toThrow(/PI_TEAMS_SPAWN_ID is not set/);
  });
});
