import { describe, expect, it } from "vitest";
import { checkPiConfig, type PiConfigInput } from "../../../src/guard/index.ts";

const base: Omit<PiConfigInput, "display" | "paths"> = {
  tool: "write",
  project: ["/home/me/proj", "/real/proj"],
  agentDir: ["/home/me/.pi/agent"],
};
const at = (path: string, extra: Partial<PiConfigInput> = {}) => checkPiConfig({ ...base, display: path, paths: [path], ...extra });
const worktree = ["/home/me/.pi/agent/worktrees/k/alice-1234"] as const;

describe("checkPiConfig: the project's .pi", () => {
  it("blocks a write under <project>/.pi, naming the path, the dir and why, and pointing at the leader", () => {
    expect(at("/home/me/proj/.pi/agents/worker.md")).toEqual({
      ok: false,
      reason: "pi_config",
      dir: "/home/me/proj/.pi",
      message:
        "write blocked: /home/me/proj/.pi/agents/worker.md is in the project's Pi configuration (/home/me/proj/.pi). " +
        "Pi configuration is the user's: agent roles, extensions, skills, settings and SYSTEM files there become code and instructions in later teammates and the leader, so teammates never write it. " +
        "If the change is needed, ask the leader with send_message (it can ask the user). Do not work around this with bash or another tool.",
    });
  });

  it("blocks every kind of file there and the .pi dir itself, and an edit as well", () => {
    for (const f of [".pi", ".pi/extensions/pwn.ts", ".pi/settings.json", ".pi/SYSTEM.md", ".pi/APPEND_SYSTEM.md", ".pi/agents/new.md"]) {
      expect(at(`/home/me/proj/${f}`).ok, f).toBe(false);
    }
    const v = at("/home/me/proj/.pi/agents/worker.md", { tool: "edit" });
    expect(v.ok === false && v.message.startsWith("edit blocked: ")).toBe(true);
  });

  it("blocks a nested .pi (a session started in that subdir loads it) and names that dir", () => {
    expect(at("/home/me/proj/packages/ui/.pi/extensions/x.ts")).toMatchObject({ ok: false, dir: "/home/me/proj/packages/ui/.pi" });
  });

  it("blocks any case of .pi and of the project dir, and names the dir in the target's own case", () => {
    expect(at("/home/me/proj/.PI/agents/worker.md")).toMatchObject({ ok: false, dir: "/home/me/proj/.PI" });
    expect(at("/home/me/proj/sub/.Pi/x")).toMatchObject({ ok: false, dir: "/home/me/proj/sub/.Pi" });
    expect(at("/HOME/ME/PROJ/.pi/settings.json")).toMatchObject({ ok: false, dir: "/home/me/proj/.pi" });
  });

  it("blocks when only one form (the symlink-resolved one) is in .pi, and names the dir under that form", () => {
    const v = checkPiConfig({ ...base, display: "notes/x.md", paths: ["/home/me/proj/notes/x.md", "/real/proj/.pi/agents/x.md"] });
    expect(v).toMatchObject({ ok: false, dir: "/real/proj/.pi" });
  });

  it("passes names that only look like .pi, the rest of the project, and paths elsewhere", () => {
    for (const p of ["/home/me/proj/.pie/x", "/home/me/proj/x.pi", "/home/me/proj/pi/x", "/home/me/proj/src/a.ts", "/home/me/proj", "/tmp/.pi/x", "/home/me/proj2/.pi/x"]) {
      expect(at(p), p).toEqual({ ok: true });
    }
  });

  it("checks no project when none is known", () => {
    const { project: _, ...noProject } = base;
    expect(checkPiConfig({ ...noProject, display: "x", paths: ["/home/me/proj/.pi/x"] })).toEqual({ ok: true });
  });
});

describe("checkPiConfig: the user's agent dir", () => {
  it("blocks anything in it, in any case", () => {
    expect(at("/home/me/.pi/agent/settings.json")).toMatchObject({ ok: false, dir: "/home/me/.pi/agent" });
    expect(at("/home/me/.pi/agent/extensions/pwn.ts").ok).toBe(false);
    const v = at("/home/me/.PI/Agent/agents/x.md");
    expect(v).toMatchObject({ ok: false, dir: "/home/me/.pi/agent" });
    if (!v.ok) expect(v.message).toContain("is in the user's Pi agent dir (/home/me/.pi/agent)");
    expect(at("/home/me/.pi/agentx/y")).toEqual({ ok: true });
  });

  it("blocks another teammate's worktree under it, not the teammate's own", () => {
    expect(at("/home/me/.pi/agent/worktrees/k/bob-5678/src/a.ts", { worktree }).ok).toBe(false);
    expect(at(`${worktree[0]}/src/a.ts`, { worktree })).toEqual({ ok: true });
  });
});

describe("checkPiConfig: the own worktree's .pi", () => {
  it("blocks a .pi at any depth of the worktree, saying it becomes the project's once merged", () => {
    const v = at(`${worktree[0]}/app/.pi/agents/worker.md`, { worktree });
    expect(v).toMatchObject({ ok: false, dir: `${worktree[0]}/app/.pi` });
    if (!v.ok) expect(v.message).toContain("is in your worktree's Pi configuration, which becomes the project's once your branch is merged");
    expect(at(`${worktree[0]}/.pi/settings.json`, { worktree }).ok).toBe(false);
  });

  it("exempts the own worktree only by its exact path: a case variant of it is the agent dir", () => {
    expect(at("/home/me/.pi/agent/worktrees/k/ALICE-1234/src/a.ts", { worktree })).toMatchObject({ ok: false, dir: "/home/me/.pi/agent" });
  });

  it("blocks a link in the worktree that resolves into the project's .pi", () => {
    const v = checkPiConfig({ ...base, worktree, display: "cfg/x.md", paths: [`${worktree[0]}/cfg/x.md`, "/home/me/proj/.pi/agents/x.md"] });
    expect(v).toMatchObject({ ok: false, dir: "/home/me/proj/.pi" });
  });

  it("with the project in the home dir, the own worktree under ~/.pi stays writable and the rest of ~/.pi does not", () => {
    const home = { ...base, project: ["/home/me"] as const, worktree };
    expect(checkPiConfig({ ...home, display: "a", paths: [`${worktree[0]}/a.ts`] })).toEqual({ ok: true });
    expect(checkPiConfig({ ...home, display: "b", paths: ["/home/me/.pi/other/b"] })).toMatchObject({ ok: false, dir: "/home/me/.pi" });
  });
});

describe("checkPiConfig: skills dirs (.agents)", () => {
  it("blocks an .agents dir at any depth of the project and of the own worktree, and the user's ~/.agents", () => {
    expect(at("/home/me/proj/.agents/skills/x/SKILL.md")).toMatchObject({ ok: false, dir: "/home/me/proj/.agents" });
    expect(at("/home/me/proj/packages/ui/.agents/skills/x/SKILL.md")).toMatchObject({ ok: false, dir: "/home/me/proj/packages/ui/.agents" });
    expect(at(`${worktree[0]}/.agents/skills/x/SKILL.md`, { worktree })).toMatchObject({ ok: false, dir: `${worktree[0]}/.agents` });
    const home = at("/home/me/.agents/skills/x/SKILL.md", { userAgents: ["/home/me/.agents"] });
    expect(home).toMatchObject({ ok: false, dir: "/home/me/.agents" });
    expect(home.ok ? "" : home.message).toContain("the user's skills dir, which Pi loads for every session");
  });

  it("passes names that only look like .agents", () => {
    for (const p of ["/home/me/proj/agents/x", "/home/me/proj/.agentsx/x", "/home/me/.agentsy/x"]) expect(at(p, { userAgents: ["/home/me/.agents"] }), p).toEqual({ ok: true });
  });
});
