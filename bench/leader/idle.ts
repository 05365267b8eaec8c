/**
 * Idle CPU of the real leader beside a bare `pi --mode rpc` started with it: both sit idle for the
 * same window, first with no teammate, then with 8 idle teammates (the bare pi gets one prompt
 * when the leader gets its spawn command, so both have made a model call). CPU is the sum of
 * every thread's `se.sum_exec_runtime` (µs precision), read per slice. Each window follows a rest
 * long enough for V8's memory reducer, which runs one major GC some 20-30 s after a process's
 * allocation rate drops (in bare pi too), to be done; the rest's CPU is kept as well.
 */
import { join } from "node:path";
import { spawnPiChild } from "../../src/process/index.ts";
import { cpuMs } from "./cpu.ts";
import { bareTag, pause, ROLE, type World } from "./world.ts";

/** One idle window: leader and bare CPU per slice (ms), and the window's length. */
export interface IdleWindow {
  teammates: number;
  windowMs: number;
  sliceMs: number;
  leaderSlicesMs: number[];
  bareSlicesMs: number[];
  /** Model calls of anyone during the window (must be 0). */
  modelCalls: number;
}

/** The idle phases' results. */
export interface IdleTimes {
  /** Rest before the first window (after start), ms. */
  startSettleMs: number;
  /** Rest before the second window (after the spawns), ms. */
  settleMs: number;
  none: IdleWindow;
  team: IdleWindow;
  /** The rests before the windows (one slice each): the one-off work after start and after the spawns. */
  restNone: IdleWindow;
  restTeam: IdleWindow;
}

/** A bare pi started beside the leader, idle until stopped. */
export interface BarePi {
  pid: number;
  /** Sends one prompt (it answers "ok" through the scripted model). */
  prompt(text: string): void;
  stop(): Promise<void>;
}

/**
 * Starts `pi --mode rpc --no-session --no-extensions` in the world's env (its prompts name it
 * `bare-idle`) and resolves once it is ready, so its start-up falls before the rests, as the
 * leader's does.
 */
export async function startBarePi(w: World): Promise<BarePi> {
  const proc = await spawnPiChild({
    piCli: w.env.piCli, args: ["--mode", "rpc", "--no-session", "--no-extensions"], cwd: w.env.cwd, env: w.env.env,
    stderrLog: join(w.env.root, "bare-idle.log"), label: "bare-idle",
  });
  await proc.waitReady(30_000);
  return {
    pid: proc.pid,
    prompt: (text) => void proc.child.prompt(`${text} ${bareTag("bare-idle")}`, { streamingBehavior: "followUp" }).catch(() => undefined),
    async stop() {
      await proc.stop({ abortFirst: false });
    },
  };
}

async function window(w: World, bare: BarePi, teammates: number, windowMs: number, sliceMs: number): Promise<IdleWindow> {
  const calls0 = w.director.total;
  const leaderSlicesMs: number[] = [];
  const bareSlicesMs: number[] = [];
  let [l0, b0] = await Promise.all([cpuMs(w.leader.pid), cpuMs(bare.pid)]);
  const t0 = performance.now();
  for (let left = windowMs; left > 0; left -= sliceMs) {
    await pause(Math.min(sliceMs, left));
    const [l1, b1] = await Promise.all([cpuMs(w.leader.pid), cpuMs(bare.pid)]);
    leaderSlicesMs.push(l1 - l0);
    bareSlicesMs.push(b1 - b0);
    [l0, b0] = [l1, b1];
  }
  return { teammates, windowMs: performance.now() - t0, sliceMs, leaderSlicesMs, bareSlicesMs, modelCalls: w.director.total - calls0 };
}

/**
 * Both idle phases. `bare` was started with the leader. The first window follows `startSettleMs`
 * of rest (the memory reducer's one major GC after a start came anywhere from 15 to 45 s after
 * the leader's start here), the second `settleMs`.
 * The 8 teammates are left living for the next phases to shut down.
 */
export async function measureIdle(w: World, bare: BarePi, opts: { startSettleMs: number; settleMs: number; windowMs: number; sliceMs: number; team: string[] }): Promise<IdleTimes> {
  await w.quiet();
  const restNone = await window(w, bare, 0, opts.startSettleMs, opts.startSettleMs);
  const none = await window(w, bare, 0, opts.windowMs, opts.sliceMs);
  const answered = w.director.next("bare-idle", () => true, "the bare pi's prompt");
  bare.prompt("Answer ok.");
  await w.command(opts.team.map((name) => ({ name: "teammate_spawn", arguments: { name, agent: ROLE } })));
  await answered;
  await w.quiet();
  const restTeam = await window(w, bare, opts.team.length, opts.settleMs, opts.settleMs);
  const team = await window(w, bare, opts.team.length, opts.windowMs, opts.sliceMs);
  return { startSettleMs: opts.startSettleMs, settleMs: opts.settleMs, none, team, restNone, restTeam };
}
