/**
 * registerEditGuards' scope check on a fake `pi` with real temp dirs: no teammate may edit or
 * write the team's runtime or board dir; a worktree teammate may not write the shared project
 * outside its worktree, and has no other guard.
 */
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { registerEditGuards } from "../../../src/worker/edit-guards.ts";
import { createFakePi, FakeFileTools } from "../../support/fake-pi.ts";
import { setupGuards } from "./guard-setup.ts";

const setup = setupGuards();

describe("registerEditGuards: team state", () => {
  it("blocks write and edit into the runtime dir and the board dir, by any path form; reading passes", async () => {
    const t = await setup();
    expect((await t.tools.read(t.rosterPath)).isError).toBe(false);
    const roster = await t.tools.write(t.rosterPath, "{}");
    expect(roster.reason).toContain(`write blocked: ${t.rosterPath} is in the team's runtime dir ${t.runtimeDir}`);
    expect(roster.reason).toContain("send_message");
    expect((await t.tools.edit("../runtime/roster.json", "alice", "mallory")).reason).toContain("edit blocked:");
    await symlink(t.boardDir, join(t.project, "board-link"));
    const claim = await t.tools.write("board-link/claims/alice.json", "{}");
    expect(claim.reason).toContain(`is in the team's board dir ${t.boardDir}`);
    expect(claim.reason).toContain("task_claim to take a task, task_submit to hand in a result");
    expect(await readFile(t.rosterPath, "utf8")).toContain('"bob"');
  });
});

describe("registerEditGuards: worktree teammate", () => {
  async function worktreeSetup(project?: boolean) {
    const t = await setup();
    const worktree = join(t.root, "worktrees", "carol-1234");
    await mkdir(join(worktree, "src/api"), { recursive: true });
    await t.put("src/api/auth.ts", "bob's work\n");
    const fake = createFakePi();
    registerEditGuards(fake.pi, { name: "carol", runtimeDir: t.runtimeDir, boardDir: t.boardDir, worktree, ...(project === false ? {} : { project: t.project }) });
    return { ...t, worktree, wt: new FakeFileTools(fake, worktree) };
  }

  it("blocks edit and write into the shared project by absolute path or a link, naming its worktree", async () => {
    const t = await worktreeSetup();
    const out = await t.wt.write(join(t.project, "src/api/auth.ts"), "carol was here\n");
    expect(out.reason).toBe(
      `write blocked: ${join(t.project, "src/api/auth.ts")} is in the shared project ${t.project}. You work in your own worktree ${t.worktree}; ` +
        `the shared tree belongs to the leader and the other teammates: write under your worktree (the same path in your worktree: ${join(t.worktree, "src/api/auth.ts")}), or report to the leader. ` +
        "Do not work around this with bash or another tool.",
    );
    expect((await t.wt.edit("../../project/src/api/auth.ts", "bob's", "carol's")).reason).toContain("is in the shared project");
    await symlink(join(t.project, "src"), join(t.worktree, "shared-src"));
    expect((await t.wt.write("shared-src/new.ts", "x")).reason).toContain("is in the shared project");
    expect(await readFile(join(t.project, "src/api/auth.ts"), "utf8")).toBe("bob's work\n");
  });

  it("passes its own worktree (no resource or stale checks there) and paths elsewhere; blocks the team state", async () => {
    const t = await worktreeSetup();
    await writeFile(join(t.worktree, "src/api/auth.ts"), "old");
    expect((await t.wt.write("src/api/auth.ts", "never read, held by bob in the shared tree")).blocked).toBe(false);
    expect((await t.wt.write(join(t.root, "scratch.txt"), "x")).blocked).toBe(false);
    expect((await t.wt.write(t.rosterPath, "{}")).reason).toContain("is in the team's runtime dir");
  });

  it("without ENV.project (an older leader) guards only the team state", async () => {
    const t = await worktreeSetup(false);
    expect((await t.wt.write(join(t.project, "elsewhere.txt"), "x")).blocked).toBe(false);
    expect((await t.wt.write(join(t.boardDir, "claims/carol.json"), "{}")).reason).toContain("is in the team's board dir");
  });
});
