/**
 * The board scenario: the leader puts a chain of two tasks on the task board (a helper, then a
 * change that depends on it and has a `verify` gate) and spawns two teammates WITHOUT kickoffs,
 * so they are free to claim board work (a kickoff is a direct assignment, which blocks claims).
 * Board notices wake them; each claims, edits the temp project and submits. The gated task goes
 * to a fresh one-shot reviewer process that runs the code: it fails the first submission, the
 * holder fixes it, a second reviewer passes it. The holder reports, the leader lists the board
 * and shuts the team down.
 *
 * Printed from observations only: model calls (teammates, reviewers), the leader's RPC events,
 * and every board.json snapshot the leader writes. Answers are decided from what each model was
 * given (tool results, board mail), never from a timeline.
 */
import { execFile } from "node:child_process";
import { watch, type FSWatcher } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseBoardFile, type BoardFile } from "../src/board/index.ts";
import { REVIEWER_TOOLS, type RpcEvent } from "../src/process/index.ts";
import type { ChatMessage, ModelCall, Reply } from "../tests/support/scripted-model.ts";
import { contentText } from "../tests/support/scripted-model.ts";
import { call, pastCalls, poll, received, since, withTimeout } from "./scripting.ts";
import { isAlive as alive } from "../tests/support/process.ts";
import type { Phase, PhaseResult, Stage } from "./stage.ts";
import { newInput, quote, type Transcript } from "./transcript.ts";

const USER_TASK =
  "Use the task board: first a normalize(name) helper, then make greet() use it, checked by a reviewer. Start two idle implementers to pick the tasks up.";
const HELPER = {
  subject: "Add a normalize() helper",
  description: "Create src/names.js exporting normalize(name): trim the name and capitalise its first letter.",
  resources: ["src/names.js"],
};
const GREET = {
  subject: "Greet with normalized names",
  description: "Make greet() in src/greet.js pass the name through normalize() from src/names.js.",
  resources: ["src/greet.js"],
  verify: 'greet("  ada ") from src/greet.js returns "Hello, Ada!": the name is trimmed and capitalised by normalize() from src/names.js.',
};
/** Teammates, spawned idle (no kickoff prompt). */
const WORKERS = ["ana", "ben"] as const;
/** How long a teammate's model "thinks" before its edit, so the claimed state gets its own snapshot. */
const EDIT_HOLD_MS = 300;

const NAMES_SOURCE =
  "export function normalize(name) {\n  const n = name.trim();\n  return n.charAt(0).toUpperCase() + n.slice(1).toLowerCase();\n}\n";
/** First attempt at the dependent task: calls normalize() but forgets the import. */
const GREET_EDIT = { oldText: "return `Hello, ${name}!`;", newText: "return `Hello, ${normalize(name)}!`;" };
/** The fix after the reviewer's findings. */
const GREET_FIX = { oldText: "export function greet(name) {", newText: 'import { normalize } from "./names.js";\n\nexport function greet(name) {' };
/** What each reviewer runs in the project (its bash tool) to judge the criteria. */
const CHECK = `node --input-type=module -e "import { greet } from './src/greet.js'; console.log(greet('  ada '))"`;

const CREATED = /Created task `([^`]+)`/;
const CLAIMED = /^Claimed task ([a-z0-9-]+):/;
const NOTICE = /^Board notice:[^\n]*\n- `([^`]+)`/;
const FAILED = /^Review of `([^`]+)` failed/;
const PASSED = /^Review of `([^`]+)` passed/;
const VERDICT = /^VERDICT: .*$/m;

/** Board mail (from "task-board") a teammate's call brings in. */
function boardMail(c: ModelCall): string[] {
  return received(newInput(c)).filter((b) => b.kind === "teammate-mail" && b.from === "task-board").map((b) => b.body);
}

/** The task a teammate is working on: the newest claim result or review finding in its conversation. */
function currentTask(messages: ChatMessage[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (!m) continue;
    const text = contentText(m.content);
    const hit = m.role === "tool" ? CLAIMED.exec(text) : received([m]).map((b) => FAILED.exec(b.body)).find(Boolean);
    if (hit) return hit[1];
  }
  return undefined;
}

/** One board.json snapshot as read, with the read time. */
interface Snapshot {
  at: number;
  file: BoardFile;
}

type FileTask = BoardFile["tasks"][number];


function describeState(t: FileTask): string {
  const s = t.state;
  if (s.status === "in_review") return `in_review (@${s.holding.holder.name}, review attempt ${s.gate.attempt})`;
  if (s.status === "claimed" || s.status === "parked") {
    const fails = s.holding.failures > 0 ? `, ${s.holding.failures} failed review${s.holding.failures > 1 ? "s" : ""}` : "";
    return `${s.status} (@${s.holding.holder.name}${fails})`;
  }
  if (s.status === "completed") return `completed${s.by ? ` (by @${s.by})` : ""}`;
  return s.status;
}

/**
 * Watches `<boardDir>/board.json` (directory watch plus a 40 ms poll) and prints every task
 * status change between the snapshots the leader writes. Returns the snapshots seen.
 */
function watchBoard(boardDir: string, log: Transcript): { snapshots: Snapshot[]; read: () => Promise<void>; stop: () => void } {
  const path = join(boardDir, "board.json");
  const snapshots: Snapshot[] = [];
  const last = new Map<string, string>();
  let reading: Promise<void> | undefined;
  const readOnce = async (): Promise<void> => {
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch {
      return; // not written yet
    }
    const parsed = parseBoardFile(text);
    if (!parsed.ok) {
      log.line("board.json", `unreadable snapshot: ${parsed.reason}: ${parsed.message}`);
      return;
    }
    const file = parsed.file;
    if (snapshots.length > 0 && snapshots[snapshots.length - 1]!.file.revision === file.revision) return;
    snapshots.push({ at: Date.now(), file });
    const changes: string[] = [];
    for (const t of file.tasks) {
      const now = describeState(t);
      const before = last.get(t.id);
      if (before === now) continue;
      last.set(t.id, now);
      if (before === undefined) {
        const extra = [t.dependsOn.length ? `dependsOn ${t.dependsOn.join(", ")}` : "", t.resources.length ? `resources ${t.resources.join(", ")}` : "", t.verify ? "verify gate" : ""].filter(Boolean);
        changes.push(`\`${t.id}\` created: ${now}${extra.length ? ` (${extra.join("; ")})` : ""}`);
      } else {
        changes.push(`\`${t.id}\` ${before} → ${now}`);
      }
    }
    if (changes.length > 0) log.line("board.json", `revision ${file.revision}: ${changes.shift()}`, ...changes.map((c) => `             ${c}`));
  };
  const read = (): Promise<void> => {
    reading = (reading ?? Promise.resolve()).then(readOnce);
    return reading;
  };
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(boardDir, () => void read());
    watcher.on("error", () => undefined);
  } catch {
    watcher = undefined;
  }
  const timer = setInterval(() => void read(), 40);
  return {
    snapshots,
    read,
    stop: () => {
      clearInterval(timer);
      watcher?.close();
    },
  };
}

/**
 * Pids of the leader's child processes that are not in `known` (its teammates) and look like a
 * pi reviewer: pi renames its process title to "pi" (Linux shows that), else the command line
 * carries the reviewer's tool set. One `ps` call; works on Linux and macOS.
 */
function reviewerPids(leaderPid: number, known: ReadonlySet<number>): Promise<number[]> {
  const marker = `--tools ${REVIEWER_TOOLS.join(",")}`;
  return new Promise((resolve) => {
    execFile("ps", ["-ww", "-A", "-o", "pid=,ppid=,args="], { encoding: "utf8" }, (error, stdout) => {
      if (error) return resolve([]);
      const out: number[] = [];
      for (const line of stdout.split("\n")) {
        const m = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line);
        if (!m || Number(m[2]) !== leaderPid || known.has(Number(m[1]))) continue;
        const args = m[3]!.trim();
        if (args === "pi" || args.includes(marker)) out.push(Number(m[1]));
      }
      resolve(out);
    });
  });
}

/** The suggested prompt of `npm run demo -- --tui`: the board scene's user task. */
export const BOARD_USER_TASK = USER_TASK;

/** The board phase. */
export function boardPhase(): Phase {
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  let stage: Stage | undefined;
  const lookups: Promise<void>[] = [];
  const reviewers = new Set<number>();
  /** Task ids, from the leader's task_create results (the teammates' script needs them). */
  const ids: { helper?: string; greet?: string } = {};

  const leader = (c: ModelCall): Reply => {
    const mine = since(c.messages, USER_TASK);
    const done = pastCalls(mine);
    const lastTools = c.toolResults.length > 0 ? done.slice(-c.toolResults.length).map((t) => t.name) : [];
    const created = mine.filter((m) => m.role === "tool").map((m) => CREATED.exec(contentText(m.content))?.[1]).filter((id): id is string => id !== undefined);
    const creates = done.filter((t) => t.name === "task_create").length;
    const spawned = (n: string) => done.some((t) => t.name === "teammate_spawn" && t.args.name === n);
    if (lastTools.includes("teammate_shutdown")) {
      finish();
      return { text: "Both board tasks are completed and reviewed; ana and ben are shut down." };
    }
    if (creates > created.length) return { text: "task_create failed; stopping here." };
    // Both teammates idle first: the task_create notice goes to ana, and the dependent task, once
    // ready, to ben, who never heard one (longest-unnoticed first, W20), whoever is quicker.
    for (const name of WORKERS) if (!spawned(name)) return call("teammate_spawn", { name, agent: "implementer" });
    if (created.length === 0) return call("task_create", HELPER);
    if (created.length === 1) return call("task_create", { ...GREET, dependsOn: [created[0]] });
    if (lastTools.includes("task_list")) {
      const board = contentText(mine.at(-1)?.content ?? "");
      const m = /: (\d+) tasks? \((\d+) completed\)\./.exec(board);
      if (m && m[1] === m[2]) return { toolCalls: WORKERS.map((name) => ({ name: "teammate_shutdown", arguments: { name } })) };
      return { text: "Not everything is completed yet; waiting." };
    }
    const reported = received(newInput(c)).some((b) => b.kind === "teammate-report" && b.status === "completed");
    if (reported) return call("task_list", {});
    if (c.lastUser.includes('type="board_settled"')) return { text: "The board settled: both tasks are completed; their results are in the summary." };
    return { text: "The tasks are on the board; ana and ben are idle and will hear about them." };
  };

  const worker = (c: ModelCall): Reply => {
    const result = c.toolResults[0]?.content;
    if (result !== undefined) {
      const claimed = CLAIMED.exec(result)?.[1];
      if (claimed) return work(claimed, "first");
      const lastTool = pastCalls(c.messages).at(-1)?.name;
      const task = currentTask(c.messages);
      if ((lastTool === "write" || lastTool === "edit") && task) {
        const summary = isHelper(task) ? "Added normalize(name) in src/names.js (trims, capitalises the first letter)." : "greet() passes the name through normalize().";
        return call("task_submit", { taskId: task, status: "completed", result: summary });
      }
      return { text: "Done for now." }; // a submit, claim or report result: end the turn
    }
    for (const body of boardMail(c)) {
      const notice = NOTICE.exec(body)?.[1];
      if (notice) return call("task_claim", { taskId: notice });
      const failed = FAILED.exec(body)?.[1];
      if (failed) return work(failed, "fix");
      const passed = PASSED.exec(body)?.[1];
      if (passed) return { toolCalls: [{ name: "send_message", arguments: { to: "leader", message: `\`${passed}\` passed review and is completed: greet("  ada ") returns "Hello, Ada!".`, status: "completed" } }] };
    }
    return { text: "Nothing for me here." };
  };

  // The helper task: its id from the leader's RPC stream, else its subject's slug (`npm run demo
  // -- --tui` has no RPC stream: the leader is the user's own TUI).
  const isHelper = (task: string): boolean => task === ids.helper || (ids.helper === undefined && task.startsWith("add-a-normalize"));

  const work = (task: string, attempt: "first" | "fix"): Reply => {
    if (isHelper(task)) return { ...call("write", { path: "src/names.js", content: NAMES_SOURCE }), delayMs: EDIT_HOLD_MS };
    return { ...call("edit", { path: "src/greet.js", edits: [attempt === "first" ? GREET_EDIT : GREET_FIX] }), delayMs: EDIT_HOLD_MS };
  };

  const reviewer = (c: ModelCall): Reply => {
    if (c.toolResults.length === 0 && !c.lastUser.includes("Reply with exactly one line")) {
      const teammates = new Set([...(stage?.pids.values() ?? [])].filter((pid) => !reviewers.has(pid)));
      if (stage) lookups.push(reviewerPids(stage.leader.pid, teammates).then((pids) => {
        for (const pid of pids) {
          if (reviewers.has(pid)) continue;
          reviewers.add(pid);
          stage?.pids.set(`reviewer#${reviewers.size}`, pid);
        }
      }));
      return call("bash", { command: CHECK });
    }
    const out = c.messages.filter((m) => m.role === "tool").map((m) => contentText(m.content)).join("\n");
    if (out.includes("Hello, Ada!")) return { text: 'Ran greet("  ada ") in the project: it returned "Hello, Ada!".\nVERDICT: PASS' };
    const error = /\b[A-Za-z]*Error: .*/.exec(out)?.[0] ?? quote(out, 80);
    return { text: `Ran greet("  ada ") in the project: ${error}.\nVERDICT: FAIL - greet() must return "Hello, Ada!" for "  ada "; it fails with ${error} (is normalize imported from ./names.js?)` };
  };

  return {
    title: "board: tasks, notices, claims, verify gate, completion",
    reply(c) {
      if (c.agent === "leader") return leader(c);
      if (c.agent === "reviewer") return reviewer(c);
      if ((WORKERS as readonly string[]).includes(c.agent)) return worker(c);
      return { text: "ok" };
    },
    notes(c, reply) {
      if (c.agent !== "reviewer") return [];
      const out: string[] = [];
      if (c.toolResults.length === 0) out.push(`prompt's first line: ${c.lastUser.split("\n")[0] ?? ""}`, `tools offered: ${c.tools.join(",")}`);
      const verdict = VERDICT.exec(reply.text ?? "")?.[0];
      if (verdict) out.push(`verdict line: ${verdict}`);
      return out;
    },
    async run(s) {
      stage = s;
      const { leader: pi, log } = s;
      const eventMark = pi.events.length;
      const callMark = s.model.calls.length;
      const board = watchBoard(s.boardDir, log);
      try {
        log.line("user", `→ leader ${JSON.stringify(USER_TASK)}`);
        const onEvent = s.leader.proc.child.onEvent((e) => {
          if (e.type !== "tool_execution_end" || e.toolName !== "task_create" || e.isError) return;
          const text = ((e.result as { content?: { text?: string }[] }).content ?? []).map((p) => p.text ?? "").join("");
          const id = CREATED.exec(text)?.[1];
          if (id && !ids.helper) ids.helper = id;
          else if (id && !ids.greet) ids.greet = id;
        });
        try {
          await pi.prompt(USER_TASK);
          await withTimeout(finished, 30_000, "the leader never saw both shutdown results");
          // The one board_settled event comes once both tasks are done and nobody works; it is its
          // own leader turn (or a follow-up of the turn in progress). Wait for it, then for the idle.
          const isSettledEvent = (e: RpcEvent) =>
            e.type === "message_end" && e.message.role === "custom" && (e.message as { details?: { type?: unknown } }).details?.type === "board_settled";
          const settledEvent = await pi.waitForEvent(isSettledEvent, 15_000);
          const mark = Math.max(pi.events.indexOf(settledEvent), 0);
          await pi.waitForEvent((e, i) => i > mark && e.type === "agent_settled", 15_000);
        } finally {
          onEvent();
        }
        await Promise.all(lookups);
        // The leader writes board.json coalesced (at most one write per 250 ms): wait for the last one.
        await poll(async () => {
          await board.read();
          const f = board.snapshots.at(-1)?.file;
          return f && f.tasks.length > 0 && f.tasks.every((t) => t.state.status === "completed") ? true : undefined;
        }, 3000);
        // One-shot reviewers: each process ends after its verdict.
        await poll(() => ([...reviewers].every((pid) => !alive(pid)) ? true : undefined), 6000);
      } finally {
        board.stop();
      }
      return await checkBoard(s, { eventMark, callMark, snapshots: board.snapshots, ids, reviewers: [...reviewers] });
    },
  };
}

interface Observed {
  eventMark: number;
  callMark: number;
  snapshots: Snapshot[];
  ids: { helper?: string; greet?: string };
  reviewers: number[];
}

/** Statuses a task went through across the snapshots seen (consecutive repeats dropped). */
function timeline(snapshots: Snapshot[], id: string): string[] {
  const out: string[] = [];
  for (const s of snapshots) {
    const t = s.file.tasks.find((x) => x.id === id);
    if (t && out.at(-1) !== t.state.status) out.push(t.state.status);
  }
  return out;
}

/** Checks the board scenario against board.json, the model calls and the leader's events. */
async function checkBoard(stage: Stage, o: Observed): Promise<PhaseResult> {
  const { model, leader, log } = stage;
  const failures: string[] = [];
  const expect = (ok: boolean, what: string) => {
    if (!ok) failures.push(what);
  };
  const t0 = log.t0;
  const calls = model.calls.slice(o.callMark);
  const events = leader.events.slice(o.eventMark);
  const { helper, greet } = o.ids;
  expect(helper !== undefined && greet !== undefined, `expected two task_create results with ids, saw ${[helper, greet].filter(Boolean).join(", ") || "none"}`);
  const last = o.snapshots.at(-1)?.file;
  const tasks = last?.tasks ?? [];
  const incomplete = tasks.filter((t) => t.state.status !== "completed");
  expect(tasks.length === 2 && incomplete.length === 0, `board.json: expected 2 completed tasks, saw ${tasks.map((t) => `${t.id} ${t.state.status}`).join(", ") || "no board"}`);

  // Spawned without kickoffs; every teammate's first model call was a board notice.
  const spawns = events.flatMap((e) => (e.type === "tool_execution_end" && e.toolName === "teammate_spawn" ? [(e.result as { details?: Record<string, unknown> }).details ?? {}] : []));
  expect(spawns.length === 2 && spawns.every((d) => d.kickoff === false), `expected two teammate_spawn results without kickoff, saw ${JSON.stringify(spawns.map((d) => ({ name: d.name, kickoff: d.kickoff })))}`);
  const firstCalls = WORKERS.map((w) => calls.find((c) => c.agent === w));
  const noticed = firstCalls.map((c) => (c ? boardMail(c).find((b) => NOTICE.test(b)) : undefined));
  for (const [i, w] of WORKERS.entries()) {
    expect(noticed[i] !== undefined, `${w}: its first model call was not woken by a board notice from task-board`);
  }

  // Claims: who got what, accepted when; the dependent task only after its dependency completed.
  const claimAt = new Map<string, { by: string; at: number }>();
  for (const c of calls) {
    const id = CLAIMED.exec(c.toolResults[0]?.content ?? "")?.[1];
    if (id && !claimAt.has(id)) claimAt.set(id, { by: c.agent, at: c.at });
  }
  const helperTask = tasks.find((t) => t.id === helper);
  const helperDone = helperTask?.state.status === "completed" ? helperTask.state.completedAt : undefined;
  const greetClaim = greet ? claimAt.get(greet) : undefined;
  expect(greetClaim !== undefined && helperDone !== undefined && greetClaim.at >= helperDone, `\`${greet}\` must be claimed after \`${helper}\` completed (claim seen at ${greetClaim?.at ?? "never"}, completed at ${helperDone ?? "never"})`);
  const early = o.snapshots.find((s) => {
    const g = s.file.tasks.find((t) => t.id === greet);
    const h = s.file.tasks.find((t) => t.id === helper);
    return g && g.state.status !== "pending" && h?.state.status !== "completed";
  });
  expect(early === undefined, `board.json revision ${early?.file.revision}: \`${greet}\` left pending before \`${helper}\` completed`);

  // Verify gate: reviewer answers FAIL then PASS, in their own processes, with the read-only tools.
  const reviewerCalls = calls.filter((c) => c.agent === "reviewer");
  const verdicts = reviewerCalls.flatMap((c) => {
    const v = VERDICT.exec(c.reply?.text ?? "")?.[0];
    return v ? [{ v, at: c.at }] : [];
  });
  const prompts = reviewerCalls.filter((c) => c.toolResults.length === 0);
  expect(verdicts.some((x) => x.v.startsWith("VERDICT: FAIL")) && verdicts.at(-1)?.v === "VERDICT: PASS", `expected reviewer verdicts FAIL … PASS, saw ${verdicts.map((x) => x.v.slice(0, 13)).join(", ") || "none"}`);
  expect(prompts.length >= 2 && prompts.every((c) => c.tools.join(",") === REVIEWER_TOOLS.join(",")), `reviewers must be offered exactly ${REVIEWER_TOOLS.join(",")}; saw ${prompts.map((c) => c.tools.join(",")).join(" / ") || "no reviewer"}`);
  expect(o.reviewers.length === prompts.length, `expected one reviewer process per review (${prompts.length}), found ${o.reviewers.length} by ps`);
  const leftReviewers = o.reviewers.filter(alive);
  expect(leftReviewers.length === 0, `reviewer processes still running after their verdicts: ${leftReviewers.join(", ")}`);
  const findings = calls.find((c) => greetClaim && c.agent === greetClaim.by && boardMail(c).some((b) => FAILED.test(b)));
  expect(findings !== undefined, "the FAIL findings never reached the holder's model");
  const greetTask = tasks.find((t) => t.id === greet);
  const passAt = verdicts.at(-1)?.at;
  expect(greetTask?.state.status === "completed" && passAt !== undefined && greetTask.state.completedAt >= passAt, `\`${greet}\` must complete only after the reviewer's PASS`);
  const greetLine = timeline(o.snapshots, greet ?? "");
  expect(greetLine.includes("in_review"), `board.json never showed \`${greet}\` in_review (saw ${greetLine.join(" → ")})`);

  // The code the teammates wrote really works.
  let greeting = "";
  try {
    const mod = (await import(`${pathToFileURL(join(stage.env.cwd, "src/greet.js")).href}?board`)) as { greet?: (n: string) => string };
    greeting = String(mod.greet?.("  ada "));
  } catch (error) {
    greeting = `threw ${error instanceof Error ? error.message : String(error)}`;
  }
  expect(greeting === "Hello, Ada!", `greet("  ada ") in the project returned ${JSON.stringify(greeting)}, expected "Hello, Ada!"`);

  const shutdowns = events.filter((e) => e.type === "tool_execution_end" && e.toolName === "teammate_shutdown" && !e.isError).length;
  expect(shutdowns === 2, `expected two successful teammate_shutdown results, saw ${shutdowns}`);
  const harnessTurns = events.flatMap((e) => {
    if (e.type !== "message_end" || e.message.role !== "custom") return [];
    const m = e.message as { customType?: string; details?: { type?: unknown } };
    return m.customType === "harness-event" ? [String(m.details?.type)] : [];
  });
  // Exactly one board_settled summary (one per settled board, never one per task); nothing else.
  const escalations = harnessTurns.filter((t) => t !== "board_settled").length;
  expect(escalations === 0, `expected no harness-event turn but board_settled (one FAIL does not escalate), saw ${harnessTurns.join(", ")}`);
  expect(harnessTurns.length - escalations === 1, `expected exactly one board_settled turn, saw ${harnessTurns.length - escalations}`);

  const rel = (ms: number | undefined) => (ms === undefined ? "never" : `+${ms - t0} ms`);
  const count = (a: string) => calls.filter((c) => c.agent === a).length;
  return {
    summary: [
      `board: ${tasks.length} tasks in board.json revision ${last?.revision ?? "-"}, ${tasks.length - incomplete.length} completed; statuses over the ${o.snapshots.length} snapshots seen (writes are coalesced):`,
      ...tasks.map((t) => `  \`${t.id}\`: ${timeline(o.snapshots, t.id).join(" → ")}${t.state.status === "completed" && t.state.by ? ` (by @${t.state.by})` : ""}`),
      `notices: ${WORKERS.map((w, i) => `${w} woke on ${noticed[i] ? `\`${NOTICE.exec(noticed[i]!)?.[1]}\`` : "nothing"}`).join(", ")}; both spawned without kickoff`,
      `claims: ${[...claimAt].map(([id, c]) => `\`${id}\` by ${c.by} at ${rel(c.at)}`).join(", ")}; \`${helper}\` completed at ${rel(helperDone)}`,
      `verify gate: ${verdicts.map((x) => x.v.slice(0, 13).trim()).join(" then ")} from ${o.reviewers.length} one-shot reviewer processes (tools ${REVIEWER_TOOLS.join(",")}), all exited`,
      `project: greet("  ada ") → ${JSON.stringify(greeting)}`,
      `board_settled harness events: ${harnessTurns.filter((t) => t === "board_settled").length} (one for the whole board, none per task); completed results shown by task_list`,
      `board phase model calls: leader ${count("leader")}, ${WORKERS.map((w) => `${w} ${count(w)}`).join(", ")}, reviewer ${count("reviewer")}`,
    ],
    failures,
  };
}
