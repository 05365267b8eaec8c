/**
 * Fault suite, case 8: hostile files a teammate with bash (or `write`) can leave in the team's
 * way (issue 18). Agent files that bomb the YAML parser, hold random bytes (too many, or binary) or name a launcher
 * after an Object property; a FIFO in place of a peer's inbox. Each is refused or skipped with a
 * clear answer, the other roles still spawn, and the leader keeps answering its RPC pipe. The
 * figures are the leader's start time beside a clean project's, in the same run, and the RPC
 * round trip with the FIFO in place.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { aliasBomb } from "../support/alias-bomb.ts";
import { agentFile } from "../support/leader.ts";
import { leaderCommands, spawnCall, startTeam, waitStatus, type Team, type ToolEnd } from "../support/team.ts";
import { recordFigures, secondsSince } from "./support/figures.ts";
import { pollUntil } from "./support/waits.ts";
import { WORKER_AGENTS } from "./support/team.ts";

const run = promisify(execFile);

let team: Team | undefined;
afterEach(async () => {
  await team?.stop();
  team = undefined;
});

const HOSTILE_AGENTS = {
  ...WORKER_AGENTS,
  "bomb.md": aliasBomb(),
  // 100 KB of random bytes (about 150 KB once written as UTF-8): over the 64 KB cap.
  "noise.md": randomBytes(100 * 1024).toString("latin1"),
  // 4 KB of random bytes: under the cap, binary (NUL bytes).
  "bin.md": `${randomBytes(4096).toString("latin1")}\0`,
  "ctor.md": agentFile("ctor", "You are a worker.", { tools: "read", launcher: "constructor" }),
};

/** Starts a team and returns it with the ms from the start call to the leader's first answer. */
async function timedStart(agents: Record<string, string>, leader?: Parameters<typeof leaderCommands>[0]): Promise<{ t: Team; ms: number }> {
  const t0 = Date.now();
  const t = await startTeam({ agents, ...(leader ? { scripts: { leader: leaderCommands(leader) } } : {}) });
  const ms = Date.now() - t0;
  return { t, ms };
}

/** The one tool end the prompt produced. */
async function runFor(t: Team, prompt: string, tool: string): Promise<ToolEnd> {
  const before = t.toolEnds(tool).length;
  await t.run(prompt);
  const ends = t.toolEnds(tool);
  expect(ends.length, `${tool} results after ${prompt}`).toBe(before + 1);
  return ends.at(-1)!;
}

const cut = (text: string, max = 240): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text).replaceAll("|", "\\|").replaceAll("\n", " ");

describe("hostile files in the team's way", () => {
  it("bad agent files are refused by name and the other role spawns; a FIFO inbox leaves the leader answering", async () => {
    const t0 = Date.now();
    await (await timedStart(WORKER_AGENTS)).t.stop(); // warm-up: the first pi start of a run is slower
    const clean = await timedStart(WORKER_AGENTS);
    await clean.t.stop();

    const hostile = await timedStart(HOSTILE_AGENTS, {
      SPAWN: [spawnCall("alice", "worker"), spawnCall("bob", "worker")],
      BOMB: [spawnCall("bo", "bomb")],
      NOISE: [spawnCall("no", "noise")],
      CTOR: [spawnCall("co", "ctor")],
      BIN: [spawnCall("bi", "bin")],
    });
    const t = (team = hostile.t);
    await t.run("SPAWN");
    await waitStatus(t.runtimeDir, "alice", "idle", 30_000);
    await waitStatus(t.runtimeDir, "bob", "idle", 30_000);
    const refusals = { bomb: await runFor(t, "BOMB", "teammate_spawn"), noise: await runFor(t, "NOISE", "teammate_spawn"), ctor: await runFor(t, "CTOR", "teammate_spawn"), bin: await runFor(t, "BIN", "teammate_spawn") };

    // A FIFO nobody writes in place of bob's inbox: a blocking open froze the leader before.
    const inbox = join(t.runtimeDir, "inbox", "bob.jsonl");
    await rm(inbox, { force: true });
    await run("mkfifo", [inbox]);
    const log = join(t.runtimeDir, "logs", "harness.log");
    await pollUntil("the FIFO to be noted", async () => (await readFile(log, "utf8").catch(() => "")).includes(`${inbox} is a FIFO`), 30_000);
    const r0 = Date.now();
    await t.leader.proc.child.getState({ timeoutMs: 1_000 }); // the acceptance bound: an answer within 1 s
    const rpcMs = Date.now() - r0;

    const short = (end: ToolEnd): string => cut(end.text.replaceAll(t.env.cwd, "<project>").replaceAll(t.env.agentDir, "<agent dir>"));
    recordFigures("hostile-files", {
      order: 8,
      title: "Hostile files in the team's way (case 8)",
      seconds: secondsSince(t0),
      lines: [
        `leader start (spawn to first RPC answer) with the alias bomb, 100 KB of random bytes and \`launcher: constructor\` in .pi/agents: ${hostile.ms} ms; with a clean .pi/agents in the same run: ${clean.ms} ms (ratio ${(hostile.ms / clean.ms).toFixed(2)})`,
        `with bob's inbox replaced by a FIFO: the leader answered get_state in ${rpcMs} ms (bound 1000 ms)`,
      ],
      table: [
        ["hostile input", "answer (excerpt)", "the rest"],
        ["alias bomb .pi/agents/bomb.md (about 500 bytes, 9^9 strings)", short(refusals.bomb), "worker spawned twice"],
        ["100 KB of random bytes as .pi/agents/noise.md", short(refusals.noise), "worker spawned twice"],
        ["4 KB of random bytes with NULs as .pi/agents/bin.md", short(refusals.bin), "worker spawned twice"],
        ["`launcher: constructor` in .pi/agents/ctor.md", short(refusals.ctor), "worker spawned twice"],
        ["a FIFO in place of inbox/bob.jsonl", "noted in harness.log: … is a FIFO, not a regular file", `get_state answered in ${rpcMs} ms`],
      ],
    });

    for (const end of Object.values(refusals)) {
      expect(end.isError).toBe(true);
      expect(end.details.pid).toBeUndefined();
    }
    expect(refusals.bomb.text).toContain("frontmatter expands to more than 1000 values");
    expect(refusals.noise.text).toContain("over the 65536-byte limit");
    expect(refusals.bin.text).toContain("bin.md");
    expect(refusals.ctor.text).toContain('launcher "constructor" is not built in');
  });
});
