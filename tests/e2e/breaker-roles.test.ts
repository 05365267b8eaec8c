/**
 * Breaker e2e on the real pi CLI: inline roles whose spawn is refused.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { listFiles, startTeam, type Team } from "../support/team.ts";

let team: Team | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
});

// Found by the breaker: the worktree refusals (no git work tree, unborn HEAD) came from
// prepareWorktree, which ran AFTER persistDefinition wrote .pi/agents/<name>.md; the refused spawn
// left the file and the same spawn asked again was refused because "a file defines that name".
// The worktree is now made first.
it("a refused worktree spawn of an inline role with persist writes no definition file", async () => {
  const definition = { description: "builds", prompt: "You build.", worktree: true, persist: "project" };
  team = await startTeam({
    agents: {},
    scripts: {
      leader: (c) =>
        c.toolResults.length === 0 && c.lastUser === "S"
          ? { toolCalls: [{ name: "teammate_spawn", arguments: { name: "bob", agent: "maker", definition } }] }
          : { text: "Noted." },
    },
  });
  await rm(join(team.env.cwd, ".git"), { recursive: true, force: true }); // the project is no git work tree
  await team.run("S");
  const end = team.toolEnds("teammate_spawn")[0]!;
  expect(end.isError).toBe(true);
  expect(end.text).toContain("not inside a git work tree");
  expect(await listFiles(join(team.env.cwd, ".pi", "agents"))).toEqual([]);
});
