/**
 * Spawn-to-ready of a teammate (`harness.spawn` without kickoff: discovery, roster, spawn, first
 * `get_state` answer, status `idle`) against a bare `pi --mode rpc` start to its first `get_state`
 * answer. Two more variants split the difference: a bare start that loads an empty extension
 * with `-e` (the cost of pi's extension loader as such), and the teammate's exact command line
 * (this package with `-e`, tools, identity env) started outside the harness.
 */
import { randomUUID } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { checkToolGrant, PI_BUILTIN_TOOLS, resolveAgent } from "../../src/agents/index.ts";
import { newSpawnKey } from "../../src/mail/index.ts";
import { spawnPiChild, type PiChild } from "../../src/process/index.ts";
import { planSpawn } from "../../src/team/spawn-plan.ts";
import { PACKAGE_DIR } from "../../tests/support/leader.ts";
import { SCRIPTED_MODEL_ID, SCRIPTED_PROVIDER } from "../../tests/support/pi-env.ts";
import { processCpuMs } from "./proc.ts";
import { AGENT, scratchLog, type Team } from "./team.ts";

export type SpawnVariant = "bare" | "emptyExtension" | "teammateArgs" | "harness";

/** Every variant, in the order of an even round. */
export const SPAWN_VARIANTS: readonly SpawnVariant[] = ["bare", "emptyExtension", "teammateArgs", "harness"];

/** One start: wall ms from spawn to ready, and the child's own CPU ms at that moment. */
export interface SpawnSample {
  wallMs: number;
  childCpuMs: number;
}

/** Samples per variant, in run order (warm-up round excluded). */
export type SpawnTimes = Record<SpawnVariant, SpawnSample[]>;

const BARE_ARGS = ["--mode", "rpc", "--no-session", "--no-extensions"];
const READY_BUDGET_MS = 30_000;

/** A bare `pi --mode rpc` child, ready (first `get_state` answered). Stop it with `stop()`. */
export async function startBare(team: Team, label: string): Promise<PiChild> {
  const proc = await spawnPiChild({ piCli: team.env.piCli, args: BARE_ARGS, cwd: team.env.cwd, env: team.env.env, stderrLog: scratchLog(team, label), label });
  await proc.waitReady(READY_BUDGET_MS);
  return proc;
}

/**
 * Starts a child with `args`/`env` and times spawn → first `get_state` answer; then stops it.
 * `spawnKey`: handed over on fd 3 as teammate_spawn does (a teammate refuses to start without one).
 */
async function timeChild(team: Team, args: readonly string[], env: Record<string, string>, label: string, spawnKey?: Buffer): Promise<SpawnSample> {
  const t0 = performance.now();
  const proc = await spawnPiChild({ piCli: team.env.piCli, args, cwd: team.env.cwd, env, stderrLog: scratchLog(team, label), label, ...(spawnKey ? { spawnKey } : {}) });
  try {
    await proc.waitReady(READY_BUDGET_MS);
    const wallMs = performance.now() - t0;
    return { wallMs, childCpuMs: await processCpuMs(proc.pid) };
  } finally {
    await proc.stop({ graceMs: 3000, termGraceMs: 2000, abortFirst: false });
  }
}

/** The command line and env `harness.spawn` would use for a teammate called `name`. */
async function teammateCommand(team: Team, name: string): Promise<{ args: string[]; env: Record<string, string> }> {
  const resolved = resolveAgent(await team.harness.discover(), AGENT);
  if (!resolved.ok) throw new Error(`benchmark: ${resolved.message}`);
  const plan = planSpawn({
    name,
    spawnId: randomUUID(),
    tools: checkedGrant(resolved.agent.tools),
    model: { model: { provider: SCRIPTED_PROVIDER, id: SCRIPTED_MODEL_ID }, thinking: undefined },
    trusted: true,
    packageDir: PACKAGE_DIR,
    runtimeDir: team.layout.root,
    boardDir: `${team.layout.root}-board`,
    leaderPid: process.pid,
    project: team.env.cwd,
  });
  return { args: plan.args, env: { ...team.env.env, ...plan.env } };
}

/** The grant `harness.spawn` would check for a role's tools. */
function checkedGrant(tools: string[] | undefined): string[] {
  const grant = checkToolGrant(tools, PI_BUILTIN_TOOLS);
  if (!grant.ok) throw new Error(`benchmark: ${grant.message}`);
  return grant.tools;
}

/** Writes an extension that registers nothing; returns its path. */
async function emptyExtension(team: Team): Promise<string> {
  const dir = join(team.env.root, "empty-extension");
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "index.ts"), "export default function extension(_pi: unknown): void {}\n");
  return join(dir, "index.ts");
}

async function timeVariant(team: Team, variant: SpawnVariant, tag: string, empty: string): Promise<SpawnSample> {
  if (variant === "bare") return timeChild(team, BARE_ARGS, team.env.env, `bare-${tag}`);
  if (variant === "emptyExtension") return timeChild(team, [...BARE_ARGS, "-e", empty], team.env.env, `empty-${tag}`);
  if (variant === "teammateArgs") {
    const cmd = await teammateCommand(team, `args${tag}`);
    return timeChild(team, cmd.args, cmd.env, `args-${tag}`, newSpawnKey());
  }
  const name = `spawn${tag}`;
  const t0 = performance.now();
  const spawned = await team.harness.spawn({ name, agent: AGENT });
  const wallMs = performance.now() - t0;
  const childCpuMs = await processCpuMs(spawned.pid);
  await team.harness.shutdown(name);
  return { wallMs, childCpuMs };
}

/**
 * One warm-up round (discarded: cold disk cache, jiti's transpile cache), then `runs` rounds,
 * alternating the order of the variants so neither always goes first.
 */
export async function measureSpawn(team: Team, runs: number): Promise<SpawnTimes> {
  const empty = await emptyExtension(team);
  for (const v of SPAWN_VARIANTS) await timeVariant(team, v, `warm-${v}`, empty);
  const times: SpawnTimes = { bare: [], emptyExtension: [], teammateArgs: [], harness: [] };
  for (let i = 0; i < runs; i++) {
    const round = i % 2 === 0 ? SPAWN_VARIANTS : [...SPAWN_VARIANTS].reverse();
    for (const v of round) times[v].push(await timeVariant(team, v, String(i), empty));
  }
  return times;
}
