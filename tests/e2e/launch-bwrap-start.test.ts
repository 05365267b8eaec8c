/**
 * Issue 10 (launchers) on the real pi CLI and real bubblewrap: a `launcher: bwrap` teammate
 * starts inside bwrap, reads the scripted model from its (private, read-only bound) agent dir,
 * and makes its first model request. Its bash sees the project read-write, the user's agent dir
 * read-only, the team's runtime dir empty, of the board dir only the notebook and its own session dir (issue 20), its own TMPDIR, only its own processes, and
 * no capability (as root it can neither unmount what hides the team's state nor remount `/` writable).
 * Skipped where bwrap is missing or cannot make namespaces (npm test installs it where it can).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BWRAP_WORKS } from "../support/bwrap.ts";
import { sessionKey } from "../../src/store/layout.ts";
import { agentFile } from "../support/leader.ts";
import { leaderCommands, spawnCall, startTeam, waitUntil, type Team } from "../support/team.ts";


let team: Team | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
});

describe.skipIf(!BWRAP_WORKS)("launcher bwrap", () => {
  it("starts pi inside bwrap: its first model request arrives, and it sees only what it should", async () => {
    const probe = (runtimeDir: string, boardDir: string, agentDir: string): string =>
      [
        `echo "runtime=$(ls -A ${runtimeDir} | wc -l)"`,
        `echo "board=$(ls -A ${boardDir} | tr '\\n' ,)"`,
        `echo "sessions=$(ls -A ${boardDir}/sessions | tr '\\n' ,)"`,
        `(echo boxed > ${boardDir}/notebook/from-box.md && echo notebook=rw) || echo notebook=ro`,
        `(touch ${agentDir}/settings.json 2>/dev/null && echo agent=rw) || echo agent=ro`,
        `(touch ./made-in-box && echo project=rw) || echo project=ro`,
        `echo "tmpdir=$TMPDIR"`,
        `echo "procs=$(ls /proc | grep -c '^[0-9]')"`,
        `echo "transport=$PI_TEAMS_TRANSPORT"`,
        `echo "capeff=$(grep CapEff /proc/self/status | cut -f2)"`,
        `(umount ${runtimeDir} 2>/dev/null && echo hidden=unmounted) || echo hidden=kept`,
        "(mount -o remount,rw,bind / 2>/dev/null && echo remount=rw) || echo remount=refused",
      ].join("; ");
    team = await startTeam({
      agents: { "boxed.md": agentFile("boxed", "You work in a box.", { tools: "bash", launcher: "bwrap" }) },
      scripts: { leader: leaderCommands({ SPAWN: [spawnCall("boxy", "boxed", "Look around.")] }) },
    });
    const t = team;
    const key = sessionKey(undefined, t.env.cwd);
    const runtimeDir = join(t.env.agentDir, "teammate", key);
    const boardDir = join(t.env.agentDir, "tasks", key);
    t.script("boxy", (c) => (c.toolResults.length === 0 ? { toolCalls: [{ name: "bash", arguments: { command: probe(runtimeDir, boardDir, t.env.agentDir) } }] } : { text: "done" }));
    await t.run("SPAWN", 60_000);
    const spawn = t.toolEnds("teammate_spawn")[0];
    expect(spawn?.isError, spawn?.text).toBe(false);
    await waitUntil("boxy's second model request (after its bash probe)", () => t.model.callsOf("boxy").length >= 2, 30_000);
    const out = t.model.callsOf("boxy")[1]?.toolResults[0]?.content ?? "";
    expect(out).toContain("runtime=0");
    // Of the board dir it sees only the team notebook and its own session dir, which Pi writes its transcript into.
    const own = `boxy-${String(spawn!.details.spawnId)}`;
    expect(out).toContain("board=notebook,sessions,");
    expect(out).toContain("notebook=rw");
    expect(readFileSync(join(boardDir, "notebook", "from-box.md"), "utf8")).toBe("boxed\n");
    expect(out).toContain(`sessions=${own},`);
    expect(spawn!.details.session).toBe(join(boardDir, "sessions", own));
    await waitUntil("boxy's session file, written from inside the box", () => readdirSync(join(boardDir, "sessions", own)).some((n) => n.endsWith(".jsonl")), 10_000);
    expect(out).toContain("agent=ro");
    expect(out).toContain("project=rw");
    expect(out).toContain("transport=stream");
    // No capability: as root, CAP_SYS_ADMIN would undo the box (unmount what hides, remount writable).
    expect(out).toContain("capeff=0000000000000000");
    expect(out).toContain("hidden=kept");
    expect(out).toContain("remount=refused");
    expect(out).toMatch(/procs=\d\b/); // bwrap's init, pi and the shell: no peer, no leader
    const tmp = /tmpdir=(\S+)/.exec(out)?.[1] ?? "";
    expect(tmp).toMatch(/pi-teams-boxes\/\d+-boxy-/);
    expect(existsSync(join(t.env.cwd, "made-in-box"))).toBe(true);
    await t.stop();
    team = undefined;
    // The private dir goes once the child has closed.
    await waitUntil("the sandbox dir to be removed", () => !existsSync(tmp), 10_000);
  }, 120_000);
});
