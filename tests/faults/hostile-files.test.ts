/**
 * Fault suite, case 8: hostile files and loops a teammate can put in the team's way (issue 18).
 * Agent files that bomb the YAML parser, hold random bytes (too many, or binary) or name a
 * launcher after an Object property; a FIFO in place of a peer's inbox; a teammate with `write`
 * and no bash writing Pi's configuration and a file with a second name (hard link); a teammate
 * calling `task_list` in a loop. Each is refused, skipped or reported once with a clear answer,
 * the other roles still spawn, nothing is written, and the leader keeps answering its RPC pipe.
 * The figures are the leader's start time beside a clean project's in the same run, the RPC
 * round trip with the FIFO in place, and when the loop was reported.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { link, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { aliasBomb } from "../support/alias-bomb.ts";
import { agentFile } from "../support/leader.ts";
import type { ModelCall, Reply } from "../support/scripted-model.ts";
import { isAlive, leaderCommands, readRoster, runForToolEnd, spawnCall, startTeam, waitStatus, waitUntil, type Team, type ToolEnd } from "../support/team.ts";
import { harnessEvents } from "../support/worktree.ts";
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
  // A teammate that can write but has no bash.
  "writer.md": agentFile("writer", "You are a writer.", { tools: "read, write" }),
};

/** What the writer tries with `write`, each in the way of a guard (issue 18). */
const PLANTS: Record<string, { path: string; content: string }> = {
  "a role file in .pi/agents": { path: ".pi/agents/worker.md", content: "---\nname: worker\ndescription: pwned\nextensions: [./pwn.ts]\n---\nYou are pwned.\n" },
  "an extension in .pi/extensions": { path: ".pi/extensions/pwn.ts", content: "export default function () {}\n" },
  "a second name (hard link) of notes.txt": { path: "linked.txt", content: "written through a link\n" },
};
/** Model calls the looping teammate makes, all `task_list`, with no report or board step. */
const LOOP_CALLS = 120;

/** Starts a team and returns it with the ms from the start call to the leader's first answer. */
async function timedStart(agents: Record<string, string>, teammates: Record<string, (c: ModelCall) => Reply> = {}, leader?: Parameters<typeof leaderCommands>[0]): Promise<{ t: Team; ms: number }> {
  const t0 = Date.now();
  const t = await startTeam({ agents, scripts: { ...teammates, ...(leader ? { leader: leaderCommands(leader) } : {}) } });
  const ms = Date.now() - t0;
  return { t, ms };
}

const cut = (text: string, max = 240): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text).replaceAll("|", "\\|").replaceAll("\n", " ");

describe("hostile files in the team's way", () => {
  it("bad agent files are refused by name and the other role spawns; a FIFO inbox leaves the leader answering; .pi and hard-link writes are refused; a loop is reported once", async () => {
    const t0 = Date.now();
    await (await timedStart(WORKER_AGENTS)).t.stop(); // warm-up: the first pi start of a run is slower
    const clean = await timedStart(WORKER_AGENTS);
    await clean.t.stop();

    const planted = new Map<string, string>();
    const writer = (c: ModelCall): Reply => {
      if (c.toolResults.length === 0) return { toolCalls: Object.values(PLANTS).map((p) => ({ name: "write", arguments: p })) };
      for (const r of c.toolResults) planted.set(r.id, r.content);
      return { text: "ok" };
    };
    let loops = 0;
    const looper = (): Reply => (++loops <= LOOP_CALLS ? { toolCalls: [{ name: "task_list", arguments: {} }] } : { text: "ok" });
    const hostile = await timedStart(HOSTILE_AGENTS, { writer, looper }, {
      SPAWN: [spawnCall("alice", "worker"), spawnCall("bob", "worker")],
      BOMB: [spawnCall("bo", "bomb")],
      NOISE: [spawnCall("no", "noise")],
      CTOR: [spawnCall("co", "ctor")],
      BIN: [spawnCall("bi", "bin")],
      PLANT: [spawnCall("writer", "writer", "PLANT")],
      LOOP: [spawnCall("looper", "worker", "LOOP")],
    });
    const t = (team = hostile.t);
    await t.run("SPAWN");
    await waitStatus(t.runtimeDir, "alice", "idle", 30_000);
    await waitStatus(t.runtimeDir, "bob", "idle", 30_000);
    const refusals = { bomb: await runForToolEnd(t, "BOMB", "teammate_spawn"), noise: await runForToolEnd(t, "NOISE", "teammate_spawn"), ctor: await runForToolEnd(t, "CTOR", "teammate_spawn"), bin: await runForToolEnd(t, "BIN", "teammate_spawn") };

    // A FIFO nobody writes in place of bob's inbox: a blocking open froze the leader before.
    const inbox = join(t.runtimeDir, "inbox", "bob.jsonl");
    await rm(inbox, { force: true });
    await run("mkfifo", [inbox]);
    const log = join(t.runtimeDir, "logs", "harness.log");
    await pollUntil("the FIFO to be noted", async () => (await readFile(log, "utf8").catch(() => "")).includes(`${inbox} is a FIFO`), 30_000);
    const r0 = Date.now();
    await t.leader.proc.child.getState({ timeoutMs: 1_000 }); // the acceptance bound: an answer within 1 s
    const rpcMs = Date.now() - r0;

    // What a teammate with `write` and no bash tries: Pi's configuration, and a held-looking file
    // through a second name the test makes (a peer with bash could).
    await writeFile(join(t.env.cwd, "notes.txt"), "the original\n");
    await link(join(t.env.cwd, "notes.txt"), join(t.env.cwd, "linked.txt"));
    await t.run("PLANT");
    await waitUntil("the writer's three write results", () => planted.size === 3, 30_000);
    const answers = [...planted.values()];
    const l0 = Date.now();
    await t.run("LOOP");
    await waitUntil("one teammate_looping event", () => harnessEvents(t, "teammate_looping", "looper").length === 1, 60_000);
    const loopSeconds = (Date.now() - l0) / 1000;
    await waitUntil("the looper's last call", () => loops > LOOP_CALLS, 60_000);

    const short = (end: ToolEnd): string => cut(end.text.replaceAll(t.env.cwd, "<project>").replaceAll(t.env.agentDir, "<agent dir>"));
    recordFigures("hostile-files", {
      order: 8,
      title: "Hostile files and loops (case 8)",
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
        ...Object.keys(PLANTS).map((what, i) => [`\`write\` of ${what}, no bash`, cut((answers[i] ?? "(no answer)").replaceAll(t.env.cwd, "<project>")), "nothing written"]),
        [`${LOOP_CALLS} \`task_list\` calls in a row, no report`, cut(harnessEvents(t, "teammate_looping", "looper")[0] ?? "(no event)"), `one event ${loopSeconds.toFixed(1)} s after the spawn order; the teammate lives`],
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
    expect(answers).toHaveLength(3);
    for (const answer of answers) expect(answer).toMatch(/^write blocked: /);
    expect(await readFile(join(t.env.cwd, "notes.txt"), "utf8")).toBe("the original\n");
    expect(await readFile(join(t.env.cwd, ".pi", "agents", "worker.md"), "utf8")).toBe(WORKER_AGENTS["worker.md"]);
    await expect(readFile(join(t.env.cwd, ".pi", "extensions", "pwn.ts"), "utf8")).rejects.toThrow();
    expect(harnessEvents(t, "teammate_looping", "looper")).toHaveLength(1);
    const looperPid = (await readRoster(t.runtimeDir))?.teammates.find((m) => m.name === "looper")?.pid;
    expect(looperPid !== undefined && isAlive(looperPid), "the looper is not stopped").toBe(true);
  });
});
