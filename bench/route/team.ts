/**
 * The benchmark's world: a scripted model endpoint, an isolated pi env (agent dir + git project),
 * one agent definition, and a real `LeaderHarness` hosted in this process (this process plays
 * the leader; its teammates are real `pi --mode rpc` children).
 */
import { join } from "node:path";
import { LeaderHarness } from "../../src/harness/harness.ts";
import type { Member } from "../../src/team/member.ts";
import { boardLayout, runtimeLayout, type RuntimeLayout } from "../../src/store/index.ts";
import { agentFile, PACKAGE_DIR, writeAgents } from "../../tests/support/leader.ts";
import { createPiEnv, SCRIPTED_MODEL_ID, SCRIPTED_PROVIDER, type PiEnv } from "../../tests/support/pi-env.ts";
import { startScriptedModel, type ModelCall, type Reply, type ScriptedModel } from "../../tests/support/scripted-model.ts";
import { DeliveryProbe } from "./probe.ts";
import { WidgetProbe } from "./widget-probe.ts";

/** The one role every benchmark teammate plays. */
export const AGENT = "worker";
const ROLE_PROMPT = "You are a benchmark teammate. Answer every message with the single word ok.";
const SESSION_KEY = "bench-route-latency";

/** Counts model calls per agent and can hold one agent's calls open (a teammate that stays `working`). */
export class ModelDesk {
  readonly byAgent = new Map<string, number>();
  #total = 0;
  readonly #held = new Map<string, (() => void)[]>();
  readonly #holding = new Set<string>();
  /** The model whose `calls` list is emptied on every call (it would keep every request body alive). */
  model: ScriptedModel | undefined;

  get total(): number {
    return this.#total;
  }

  /** Handler for the scripted model: "ok" at once, or never until `release` for a held agent. */
  readonly handler = (call: ModelCall): Reply | Promise<Reply> => {
    this.#total += 1;
    this.model?.calls.splice(0);
    this.byAgent.set(call.agent, (this.byAgent.get(call.agent) ?? 0) + 1);
    if (!this.#holding.has(call.agent)) return { text: "ok" };
    return new Promise<Reply>((resolve) => {
      const list = this.#held.get(call.agent) ?? [];
      list.push(() => resolve({ text: "ok" }));
      this.#held.set(call.agent, list);
    });
  };

  /** From now on, calls of `agent` get no answer until `release(agent)`. */
  hold(agent: string): void {
    this.#holding.add(agent);
  }

  /** Answers every held call of `agent` and stops holding it. */
  release(agent: string): void {
    this.#holding.delete(agent);
    for (const answer of this.#held.get(agent)?.splice(0) ?? []) answer();
  }

  /** Number of `agent`'s calls currently held open. */
  heldCount(agent: string): number {
    return this.#held.get(agent)?.length ?? 0;
  }
}

export interface Team {
  model: ScriptedModel;
  desk: ModelDesk;
  env: PiEnv;
  layout: RuntimeLayout;
  harness: LeaderHarness;
  probe: DeliveryProbe;
  /** The console feed and the widget, loaded as in a TUI leader. */
  widget: WidgetProbe;
  /** The living teammate of that name; throws if there is none. */
  member(name: string): Member;
  /** True when `name` is idle with nothing pending or in flight. */
  quiet(name: string): boolean;
  /** Stops every child, the watcher, the model; removes all temp dirs. Idempotent. */
  close(): Promise<void>;
}

/** Builds the world and starts the harness (watcher ready). */
export async function startTeam(): Promise<Team> {
  const desk = new ModelDesk();
  const model = await startScriptedModel({ handler: desk.handler });
  desk.model = model;
  const env = await createPiEnv({ model });
  await writeAgents(env, { [`${AGENT}.md`]: agentFile(AGENT, ROLE_PROMPT) });
  const layout = runtimeLayout(env.agentDir, SESSION_KEY);
  const probe = new DeliveryProbe();
  const widget = new WidgetProbe();
  const harness = new LeaderHarness({
    cwd: env.cwd,
    layout,
    boardDir: boardLayout(env.agentDir, SESSION_KEY).root,
    agentDir: env.agentDir,
    piCli: env.piCli,
    packageDir: PACKAGE_DIR,
    env: env.env,
    trusted: () => true,
    leaderModel: () => ({ provider: SCRIPTED_PROVIDER, id: SCRIPTED_MODEL_ID }),
    peerPairCap: 0, // the cap (W19) would refuse the 1000 messages of one pair this bench times
  });
  harness.on("delivery", ({ delivery }) => probe.onDeliver(delivery));
  widget.hooks(harness, probe.onMail);
  harness.on("note", ({ note }) => probe.onNote(note));
  await harness.start();
  widget.install(harness);
  let closing: Promise<void> | undefined;
  const member = (name: string): Member => {
    const m = harness.living(name);
    if (!m) throw new Error(`benchmark: ${name} is not a living teammate`);
    return m;
  };
  return {
    model, desk, env, layout, harness, probe, widget, member,
    quiet: (name) => {
      const m = harness.living(name);
      return m !== undefined && m.quiet;
    },
    close: () => (closing ??= closeTeam(harness, model, env).finally(() => widget.dispose())),
  };
}

async function closeTeam(harness: LeaderHarness, model: ScriptedModel, env: PiEnv): Promise<void> {
  try {
    await harness.close();
  } finally {
    await model.close();
    await env.cleanup();
  }
}

/** Path of a throwaway stderr log for a child started outside the harness. */
export function scratchLog(team: Team, label: string): string {
  return join(team.env.root, "bench-logs", `${label}.log`);
}
