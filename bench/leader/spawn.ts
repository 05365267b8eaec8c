/**
 * Spawn to first model request, in the real leader beside a bare pi:
 *
 * - bare: this process starts `pi --mode rpc --no-session --no-extensions` and writes a prompt to
 *   its stdin at once; from the spawn to that pi's first model request.
 * - teammate: the leader's model answers with a `teammate_spawn` tool call carrying a kickoff;
 *   from that reply to the new teammate's first model request (the kickoff turn). Everything the
 *   user waits for is inside: pi parsing the reply and running the tool, agent discovery, the
 *   roster write, the child's start with this package, `get_state`, the kickoff prompt.
 *
 * The teammate answers its kickoff with a terminal report and is shut down before the next round.
 */
import { spawn } from "node:child_process";
import { processCpuMs } from "../route/proc.ts";
import { bareTag, ROLE, type World } from "./world.ts";

/** One start: wall ms to the first model request, and the child's CPU ms at that moment. */
export interface SpawnSample {
  wallMs: number;
  cpuMs: number;
}

export interface SpawnTimes {
  bare: SpawnSample[];
  teammate: SpawnSample[];
}

const BARE_ARGS = ["--mode", "rpc", "--no-session", "--no-extensions"];

/** A bare pi started by this process, prompted at once: spawn → its first model request. */
export async function timeBare(w: World, name: string): Promise<SpawnSample> {
  const first = w.director.next(name, () => true, `bare pi ${name}'s first request`);
  const t0 = performance.now();
  const child = spawn(process.execPath, [w.env.piCli, ...BARE_ARGS], { cwd: w.env.cwd, env: w.env.env, stdio: ["pipe", "ignore", "ignore"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.stdin.write(`${JSON.stringify({ type: "prompt", message: `Answer ok. ${bareTag(name)}` })}\n`);
  try {
    const { t } = await first;
    return { wallMs: t - t0, cpuMs: await processCpuMs(child.pid!) };
  } finally {
    child.stdin.end(); // pi exits on EOF
    await exited;
  }
}

/**
 * The leader spawns teammate `name` (role `agent`) with a kickoff: its tool call → the teammate's
 * first model request.
 */
export async function timeTeammate(w: World, name: string, agent: string = ROLE): Promise<SpawnSample> {
  w.director.play(name, (call) => call.toolResults.length > 0
    ? { text: "done" }
    : { toolCalls: [{ name: "send_message", arguments: { to: "leader", message: "kickoff done", status: "completed" } }] });
  let t0 = 0;
  const first = w.director.next(name, () => true, `teammate ${name}'s first request`);
  const pids0 = new Set(await w.leaderChildren());
  const spawned = w.command([{ name: "teammate_spawn", arguments: { name, agent, prompt: `Kickoff for ${name}: report done.` } }], () => (t0 = performance.now()));
  const { t } = await first;
  const wallMs = t - t0;
  // The new child of the leader is the teammate (the kickoff goes out before its pid is in the roster).
  const fresh = (await w.leaderChildren()).filter((p) => !pids0.has(p));
  const cpus = await Promise.all(fresh.map((p) => processCpuMs(p).catch(() => 0)));
  await spawned;
  await w.quiet();
  const pid = (await w.rosterPids()).get(name);
  const cpuMs = pid !== undefined && fresh.includes(pid) ? cpus[fresh.indexOf(pid)]! : Math.max(0, ...cpus);
  await w.command([{ name: "teammate_shutdown", arguments: { name } }]);
  await w.quiet();
  w.director.play(name, undefined);
  return { wallMs, cpuMs };
}

/**
 * One warm-up round of each (discarded: cold disk cache, jiti's transpile cache), then `rounds`
 * rounds alternating which goes first.
 */
export async function measureSpawn(w: World, rounds: number): Promise<SpawnTimes> {
  await timeBare(w, "bare-warm");
  await timeTeammate(w, "warm");
  const times: SpawnTimes = { bare: [], teammate: [] };
  for (let i = 0; i < rounds; i++) {
    const bareFirst = i % 2 === 0;
    if (bareFirst) times.bare.push(await timeBare(w, `bare-${i}`));
    times.teammate.push(await timeTeammate(w, `mate${i}`));
    if (!bareFirst) times.bare.push(await timeBare(w, `bare-${i}`));
  }
  return times;
}
