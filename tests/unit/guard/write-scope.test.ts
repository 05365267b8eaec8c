import { describe, expect, it } from "vitest";
import { checkWriteScope, relativeWithin, type WriteScopeInput } from "../../../src/guard/index.ts";

const base: Omit<WriteScopeInput, "display" | "paths"> = {
  tool: "write",
  runtimeDir: ["/agent/teammate/abc"],
  boardDir: ["/agent/tasks/abc", "/real/tasks/abc"],
};
const at = (path: string, extra: Partial<WriteScopeInput> = {}) => checkWriteScope({ ...base, display: path, paths: [path], ...extra });
const worktree = { dir: ["/wt/alice-1234"] as const, project: ["/home/me/proj"] as const, cwd: "/wt/alice-1234/app" };

describe("relativeWithin", () => {
  it("gives the /-separated path under a dir, '' for the dir itself, undefined outside", () => {
    expect(relativeWithin("/a/b", "/a/b/c/d")).toBe("c/d");
    expect(relativeWithin("/a/b", "/a/b")).toBe("");
    expect(relativeWithin("/a/b", "/a/bc")).toBeUndefined();
    expect(relativeWithin("/a/b", "/a")).toBeUndefined();
    expect(relativeWithin("/a/b", "/a/b/..x")).toBe("..x");
  });
});

describe("checkWriteScope: team state", () => {
  it("blocks a write into the runtime dir, naming the path and the team tools", () => {
    expect(at("/agent/teammate/abc/roster.json")).toEqual({
      ok: false,
      reason: "team_state",
      message:
        "write blocked: /agent/teammate/abc/roster.json is in the team's runtime dir /agent/teammate/abc (roster, mailboxes, logs), which the leader keeps. " +
        "Teammates change team state only through the team tools: send_message to reach the leader or a teammate, task_claim and task_submit for board work. " +
        "Do not work around this with bash or another tool.",
    });
  });

  it("blocks an edit into the board dir, in any of its forms, saying to use task_claim / task_submit", () => {
    const v = at("/real/tasks/abc/claims/alice.json", { tool: "edit" });
    expect(v).toMatchObject({ ok: false, reason: "team_state" });
    if (!v.ok) {
      expect(v.message).toContain("edit blocked: /real/tasks/abc/claims/alice.json is in the team's board dir /agent/tasks/abc (the task board and its intents)");
      expect(v.message).toContain("task_claim to take a task, task_submit to hand in a result, task_list to look");
    }
  });

  it("blocks when only the symlink-resolved form of the target is in a state dir", () => {
    expect(checkWriteScope({ ...base, display: "link/x", paths: ["/proj/link/x", "/agent/teammate/abc/x"] }).ok).toBe(false);
  });

  it("passes siblings and unrelated paths", () => {
    expect(at("/agent/teammate/abcd/roster.json")).toEqual({ ok: true });
    expect(at("/tmp/x")).toEqual({ ok: true });
  });
});

describe("checkWriteScope: shared tree, for a worktree teammate", () => {
  it("blocks a write into the shared project outside the worktree, with the counterpart in the worktree", () => {
    expect(at("/home/me/proj/src/a.ts", { worktree })).toEqual({
      ok: false,
      reason: "shared_tree",
      message:
        "write blocked: /home/me/proj/src/a.ts is in the shared project /home/me/proj. You work in your own worktree /wt/alice-1234; " +
        "the shared tree belongs to the leader and the other teammates: write under your worktree (the same path in your worktree: /wt/alice-1234/app/src/a.ts), or report to the leader. " +
        "Do not work around this with bash or another tool.",
    });
  });

  it("passes its own worktree, also when the worktree lies inside the project, and paths elsewhere", () => {
    expect(at("/wt/alice-1234/app/src/a.ts", { worktree })).toEqual({ ok: true });
    expect(at("/tmp/scratch.txt", { worktree })).toEqual({ ok: true });
    const nested = { dir: ["/home/me/proj/.wt/alice"] as const, project: ["/home/me/proj"] as const, cwd: "/home/me/proj/.wt/alice" };
    expect(at("/home/me/proj/.wt/alice/x.ts", { worktree: nested })).toEqual({ ok: true });
    expect(at("/home/me/proj/x.ts", { worktree: nested }).ok).toBe(false);
  });

  it("blocks a symlink in the worktree that resolves into the shared project", () => {
    const v = checkWriteScope({ ...base, display: "link/a.ts", paths: ["/wt/alice-1234/app/link/a.ts", "/home/me/proj/src/a.ts"], worktree });
    expect(v).toMatchObject({ ok: false, reason: "shared_tree" });
  });

  it("blocks the project root itself without a counterpart hint, and checks the team state first", () => {
    const v = at("/home/me/proj", { worktree, tool: "edit" });
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.message).toContain("write under your worktree, or report");
    expect(at("/agent/teammate/abc/roster.json", { worktree })).toMatchObject({ reason: "team_state" });
  });

  it("does not guard the shared project for a shared-tree teammate (no worktree)", () => {
    expect(at("/home/me/proj/src/a.ts")).toEqual({ ok: true });
  });
});
