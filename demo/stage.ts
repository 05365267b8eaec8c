/**
 * The demo's stage: a temp project with agent files, the scripted model, a real leader
 * `pi --mode rpc` with this package, and the observers that print what really happens
 * (model calls seen by the scripted endpoint, leader RPC events, roster.json statuses).
 * Phases (demo/*-phase.ts) play scenarios on it; `closeStage` tears everything down and
 * checks that no process is left.
 */
import { execFileSync } from "node:child_process";
import { existsSync, watch, type FSWatcher } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { AGENT_LIST_LABEL } from "../src/leader/guidance.ts";
import type { RpcEvent } from "../src/process/index.ts";
import { startLeader, writeAgents, type Leader } from "../tests/support/leader.ts";
import { createPiEnv, type PiEnv } from "../tests/support/pi-env.ts";
import { startScriptedModel, type ModelCall, type Reply, type ScriptedModel } from "../tests/support/scripted-model.ts";
import { NO_GIT_IDENTITY_ENV } from "./isolation-phase.ts";
import { AGENTS, PROJECT_FILES } from "./project.ts";
import { isAlive as alive } from "../tests/support/process.ts";
import { STALL_ENV } from "./stall-phase.ts";
import { describeInput, describeReply, quote, type Transcript } from "./transcript.ts";

/** What teardown found: failed checks, and lines for the summary. */
export interface Teardown {
  problems: string[];
  summary: string[];
}

/** One scenario played on the stage (demo/*-phase.ts). */
export interface Phase {
  title: string;
  /** The scripted model's answer to every call made while this phase runs. */
  reply(call: ModelCall): Reply;
  /** Plays the scenario; resolves when the leader is idle again. */
  run(stage: Stage): Promise<PhaseResult>;
  /** Extra transcript lines printed under a model call and its answer (e.g. a reviewer's verdict). */
  notes?(call: ModelCall, reply: Reply): string[];
}

/** What a phase proved: summary lines, and the checks that failed (empty when all held). */
export interface PhaseResult {
  summary: string[];
  failures: string[];
}

export interface Stage {
  log: Transcript;
  env: PiEnv;
  model: ScriptedModel;
  leader: Leader;
  /** `<agent dir>/teammate/<session key>/`, found after the leader started. */
  runtimeDir: string;
  /** `<agent dir>/tasks/<session key>/`: the leader's board dir (board.json and the intent folders). */
  boardDir: string;
  /**
   * Pids of processes the leader started: teammates (from teammate_spawn results) and whatever a
   * phase adds (the board phase adds its verify reviewers). Teardown checks each with kill -0.
   */
  pids: Map<string, number>;
  /** Plays `phase`, routing the scripted model's calls to it while it runs. */
  play(phase: Phase): Promise<PhaseResult>;
}

function git(cwd: string, env: Record<string, string>, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=Demo", "-c", "user.email=demo@example.invalid", "-c", "commit.gpgsign=false", ...args], {
    cwd,
    env,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** Builds the stage: temp project, agent files, scripted model, leader, observers. */
export async function openStage(log: Transcript): Promise<{ stage: Stage; close: () => Promise<Teardown> }> {
  let phase: Phase | undefined;
  let sawLeaderCall = false;
  const model = await startScriptedModel({
    handler: (call) => {
      if (call.agent === "leader" && !sawLeaderCall) {
        sawLeaderCall = true;
        const agents = agentLines(call.system);
        log.line("leader", `system prompt (built by this package) lists ${agents.length} agent definitions:`, ...agents.map((a) => `  ${a}`));
      }
      const reply = phase ? phase.reply(call) : { text: "ok" };
      const seen = describeInput(call);
      const notes = phase?.notes?.(call, reply) ?? [];
      log.line(
        call.agent,
        `model call #${call.seq} sees ${seen.shift() ?? "(nothing new)"}`,
        ...seen.map((s) => `     and ${s}`),
        `  answers ${describeReply(reply)}`,
        ...notes.map((n) => `  ${n}`),
      );
      return reply;
    },
  });
  const root = await mkdtemp(join(tmpdir(), "pi-teams-demo-"));
  let env: PiEnv | undefined;
  let leader: Leader | undefined;
  const stopWatch: (() => void)[] = [];
  const childPids = new Map<string, number>();
  let runtimeDir: string | undefined;

  let closing: Promise<Teardown> | undefined;
  const close = (): Promise<Teardown> => (closing ??= teardown());
  const teardown = async (): Promise<Teardown> => {
    const problems: string[] = [];
    for (const stop of stopWatch) stop();
    if (leader) {
      log.line("demo", "closing the leader's stdin (Pi shuts down, the extension's session_shutdown runs)");
      const exit = await leader.proc.stop({ graceMs: 8000, termGraceMs: 2000, abortFirst: false });
      log.line("leader", `pi exited (${exit.reason}${exit.signal ? `, ${exit.signal}` : `, code ${exit.code}`})`);
    }
    const runtimeRemoved = runtimeDir === undefined || !existsSync(runtimeDir);
    if (runtimeDir) log.line("harness", runtimeRemoved ? "runtime dir removed at session end" : `runtime dir ${runtimeDir} still exists`);
    const pids: [string, number][] = [...(leader ? [["leader", leader.pid] as [string, number]] : []), ...childPids];
    const left: string[] = [];
    for (const [who, pid] of pids) {
      if (!alive(pid)) continue;
      left.push(`${who} (pid ${pid})`);
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // gone in the meantime
      }
    }
    if (left.length > 0) problems.push(`still alive after teardown (killed now): ${left.join(", ")}`);
    if (!runtimeRemoved) problems.push(`runtime dir ${runtimeDir} was not removed at session end`);
    await model.close();
    await env?.cleanup();
    await rm(root, { recursive: true, force: true });
    const tempRemoved = !existsSync(root);
    if (!tempRemoved) problems.push(`temp dir ${root} could not be removed`);
    log.line("demo", `scripted model closed; temp dir ${tempRemoved ? "removed" : "NOT removed"}`);
    return {
      problems,
      summary: [
        `processes left: ${left.length} (kill -0 fails for ${pids.map(([w, p]) => `${w} ${p}`).join(", ")})`,
        `runtime dir removed at session end: ${runtimeRemoved ? "yes" : "NO"}; temp dir removed: ${tempRemoved ? "yes" : "NO"}`,
      ],
    };
  };

  try {
    env = await createPiEnv({ model, root });
    const e = env;
    await writeAgents(e, AGENTS);
    for (const [path, text] of Object.entries(PROJECT_FILES)) {
      await mkdir(dirname(join(e.cwd, path)), { recursive: true });
      await writeFile(join(e.cwd, path), text);
    }
    git(e.cwd, e.env, "add", ".");
    git(e.cwd, e.env, "commit", "-q", "-m", "demo project: greet() and four agent files");
    log.line("setup", `project ${e.cwd} (git repo)`, `agent files: ${Object.keys(AGENTS).map((f) => `.pi/agents/${f}`).join(", ")}`, `scripted model at ${model.url}; agent dir ${e.agentDir}`);

    // No git identity for the leader and its teammates: worktree capture must commit without one.
    leader = await startLeader(e, { extraEnv: { ...STALL_ENV, ...NO_GIT_IDENTITY_ENV } });
    const l = leader;
    log.line("leader", `pi --mode rpc ready (pid ${l.pid}), this package loaded with -e, project trusted with -a`);
    const teammateRoot = join(e.agentDir, "teammate");
    const sessions = existsSync(teammateRoot) ? await readdir(teammateRoot) : [];
    if (sessions.length !== 1) throw new Error(`expected one runtime dir under ${teammateRoot}, found ${sessions.length}`);
    const dir = join(teammateRoot, sessions[0]!);
    runtimeDir = dir;
    log.line("harness", `runtime dir ${dir.slice(e.root.length + 1)} created at session start`);

    stopWatch.push(watchRoster(dir, log));
    stopWatch.push(l.proc.child.onEvent((event) => onLeaderEvent(event, log, childPids)));

    const stage: Stage = {
      log,
      env: e,
      model,
      leader: l,
      runtimeDir: dir,
      boardDir: join(e.agentDir, "tasks", sessions[0]!),
      pids: childPids,
      async play(p) {
        phase = p;
        log.heading(p.title);
        try {
          return await p.run(stage);
        } finally {
          phase = undefined;
        }
      },
    };
    return { stage, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The "- name (scope, ...): description" lines under "Agent definitions:" (and its label) in the leader's system prompt. */
function agentLines(system: string): string[] {
  const at = system.indexOf("Agent definitions:");
  if (at < 0) return [];
  const lines: string[] = [];
  for (const line of system.slice(at).split("\n").slice(1).filter((l) => l !== AGENT_LIST_LABEL)) {
    if (!line.startsWith("- ")) break;
    lines.push(line.length > 110 ? `${line.slice(0, 109)}…` : line);
  }
  return lines;
}

interface ToolResultWire {
  content?: { type?: string; text?: string }[];
  details?: Record<string, unknown>;
}

/** Prints the leader events that matter: team tool results and custom messages starting turns. */
function onLeaderEvent(event: RpcEvent, log: Transcript, pids: Map<string, number>): void {
  if (event.type === "tool_execution_end") {
    const result = event.result as ToolResultWire;
    const text = (result.content ?? []).map((c) => c.text ?? "").join("");
    const d = result.details ?? {};
    if (event.toolName === "teammate_spawn" && !event.isError && typeof d.pid === "number") {
      pids.set(String(d.name), d.pid);
      const wt = d.worktree as { dir: string; branch: string; base: string } | undefined;
      log.line(
        "leader",
        `teammate_spawn → ${String(d.name)} started: agent ${String(d.agent)}, model ${String(d.model)}, pid ${d.pid}, tools ${(d.tools as string[]).join(",")}`,
        `kickoff ${d.kickoff ? "sent as its first prompt" : "none (idle)"}${d.handoffFrom ? `; succeeds ${String(d.handoffFrom)} (handoff in the kickoff)` : ""}`,
        ...(wt ? [`own worktree …/${wt.dir.split("/").slice(-3).join("/")} on branch ${wt.branch} (base ${wt.base.slice(0, 12)})`] : []),
      );
      return;
    }
    if ((event.toolName === "task_list" || event.toolName === "task_create") && !event.isError) {
      // Board answers are what the leader's model reads to decide: print them whole.
      const [first = "", ...rest] = text.split("\n");
      log.line("leader", `${event.toolName} → ${first}`, ...rest.map((l) => `  ${l}`));
      return;
    }
    log.line("leader", `${event.toolName} → ${event.isError ? "ERROR " : ""}${quote(text, 100)}`);
    return;
  }
  if (event.type === "message_end" && event.message.role === "custom") {
    const m = event.message as { customType?: string; details?: Record<string, unknown> };
    const d = m.details ?? {};
    const what = m.customType === "teammate-report" ? `report from ${String(d.from)} [${String(d.status)}]` : `${String(m.customType)} (${String(d.type)} ${String(d.teammate)})`;
    // A harness event's first body line says what happened (a stall notice's "[agent] @x stalled · silent 3s").
    const content = typeof (m as { content?: unknown }).content === "string" ? ((m as { content: string }).content) : "";
    const headline = m.customType === "teammate-report" ? [] : content.split("\n").slice(1, 2).map((l) => `  ${quote(l, 110)}`);
    log.line("harness", `${what} delivered to the leader as a follow-up turn`, ...headline);
    return;
  }
  if (event.type === "agent_settled") log.line("leader", "idle (agent_settled)");
}

interface RosterWire {
  teammates?: { name: string; status: string; pid?: number }[];
}

/** Prints every teammate status change seen in roster.json (file watch plus a 100 ms poll). */
function watchRoster(runtimeDir: string, log: Transcript): () => void {
  const path = join(runtimeDir, "roster.json");
  const last = new Map<string, string>();
  let reading = false;
  let again = false;
  const read = async (): Promise<void> => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      const roster = JSON.parse(await readFile(path, "utf8")) as RosterWire;
      for (const t of roster.teammates ?? []) {
        const before = last.get(t.name);
        if (before === t.status) continue;
        last.set(t.name, t.status);
        log.line("roster", `${t.name}: ${before ? `${before} → ` : ""}${t.status}`);
      }
    } catch {
      // not written yet, or removed at session end
    } finally {
      reading = false;
      if (again) {
        again = false;
        void read();
      }
    }
  };
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(runtimeDir, () => void read());
    watcher.on("error", () => undefined);
  } catch {
    watcher = undefined;
  }
  const timer = setInterval(() => void read(), 100);
  return () => {
    clearInterval(timer);
    watcher?.close();
  };
}
