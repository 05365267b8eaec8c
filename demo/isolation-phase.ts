/**
 * The isolation scenario (issue 7). In the shared tree: the leader puts a task on `src/greet.js`
 * on the board for an idle implementer `ada`, whose claim holds that resource; a second
 * implementer `bo` is asked to rewrite the file with `write` and its edit guard blocks the write,
 * naming ada and the task; bo reports that, and ada finishes her task. In worktrees: `cy` (the
 * `builder` role, `worktree: true`) writes a new file in its own worktree and stops half done;
 * at its shutdown the harness commits what is left onto cy's branch (the leader and its teammates
 * run with no git identity at all) and tells the leader with a `worktree_kept` event, whose
 * `git diff` the demo runs itself. `dee` is spawned with `handoffFrom: "cy"`: its kickoff carries
 * cy's assignment and report, its worktree starts on cy's branch, and it finishes the work.
 *
 * Answers are decided from what each model was given, never from a timeline. Checks:
 * demo/isolation-checks.ts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { contentText, type ModelCall, type Reply } from "../tests/support/scripted-model.ts";
import { checkIsolation, onKept, type Observed } from "./isolation-checks.ts";
import { call, pastCalls, received, since, withTimeout } from "./scripting.ts";
import type { Phase, Stage } from "./stage.ts";
import { newInput, wrappedBlocks } from "./transcript.ts";

/**
 * Environment of the demo's leader (inherited by its teammates): git sees no global or system
 * config and must not guess an identity, so any commit without explicit `-c user.*` fails.
 */
export const NO_GIT_IDENTITY_ENV: Record<string, string> = {
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_COUNT: "1",
  GIT_CONFIG_KEY_0: "user.useConfigOnly",
  GIT_CONFIG_VALUE_0: "true",
};

const USER_TASK =
  "Show me isolation: put a doc comment for greet() on the board for an idle implementer ada, ask implementer bo to rewrite src/greet.js meanwhile, and have a worktree builder cy add src/welcome.js; if cy stops half way, let dee take over.";
export const TASK = {
  subject: "Document greet()",
  description: "Add a one-line JSDoc comment above greet() in src/greet.js.",
  resources: ["src/greet.js"],
};
const BO_KICKOFF = "Rewrite src/greet.js with write so that greet(name) returns `Hi, <name>.` Read it first. Report to me when done, or if you cannot.";
const BO_SOURCE = "export function greet(name) {\n  return `Hi, ${name}.`;\n}\n";
const ADA_NOTE = "bo's rewrite of src/greet.js was blocked by your claim. Finish your task now; bo's change can wait.";
export const DOC_LINE = "/** Greets `name` by name. */";
const DOC_EDIT = { oldText: "export function greet(name) {", newText: `${DOC_LINE}\nexport function greet(name) {` };
export const CY_KICKOFF = "Add src/welcome.js exporting welcome(name) that returns `Welcome, <name>!`, and a test for it in test/welcome.test.js. Report to me when done.";
export const CY_REPORT = "Half done: src/welcome.js is written; test/welcome.test.js is not. I have to stop here.";
export const WELCOME_SOURCE = "export function welcome(name) {\n  return `Welcome, ${name}!`;\n}\n";
const DEE_PROMPT = "Finish what cy started: write test/welcome.test.js for welcome(), then report to me.";
const WELCOME_TEST = 'import assert from "node:assert/strict";\nimport { welcome } from "../src/welcome.js";\n\nassert.equal(welcome("Ada"), "Welcome, Ada!");\n';
/** How long ada's model holds each answer while it waits for the leader's go (keeps it `working`). */
const HOLD_MS = 600;
/** Upper bound on held answers, so a lost message ends the scenario instead of hanging it. */
const MAX_HOLDS = 30;

export const CREATED = /Created task `([^`]+)`/;
export const CLAIMED = /^Claimed task ([a-z0-9-]+):/;
const NOTICE = /^Board notice:[^\n]*\n- `([^`]+)`/;
/** The first sentence of the resource guard's block message: file, tag, holder, task. */
export const BLOCKED = /^write blocked: .*?which teammate "([^"]+)" holds for task ([a-z0-9-]+)\./;

function send(message: string, status?: "completed" | "failed"): Reply {
  return call("send_message", { to: "leader", message, ...(status ? { status } : {}) });
}

/** Texts of the tool results a conversation holds. */
function toolTexts(c: ModelCall): string[] {
  return c.messages.filter((m) => m.role === "tool").map((m) => (typeof m.content === "string" ? m.content : (m.content ?? []).map((p) => p.text ?? "").join("")));
}

/** Cuts `text` into lines of at most `width` characters, at spaces. */
function wrap(text: string, width = 104): string[] {
  const out: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && line.length + word.length + 1 > width) {
      out.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(line);
  return out;
}

/** The isolation phase. `finished` resolves once the leader's model has seen dee's branch kept. */
export function isolationPhase(): Phase {
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (finish = resolve));

  const leader = (c: ModelCall): Reply => {
    const mine = since(c.messages, USER_TASK);
    const done = pastCalls(mine);
    const got = received(mine);
    const did = (tool: string, name?: string) => done.some((t) => t.name === tool && (name === undefined || t.args.name === name));
    const report = (from: string, status: string) => got.some((b) => b.kind === "teammate-report" && b.from === from && b.status === status);
    const kept = (who: string) => got.some((b) => b.kind === "harness-event" && b.from === who && b.body.includes("its work is kept on branch"));
    if (!did("task_create")) return call("task_create", TASK);
    if (!did("teammate_spawn", "ada")) return call("teammate_spawn", { name: "ada", agent: "implementer" });
    if (report("ada", "in_progress") && !did("teammate_spawn", "bo")) return call("teammate_spawn", { name: "bo", agent: "implementer", prompt: BO_KICKOFF });
    if (report("bo", "failed") && !did("send_message")) {
      return { toolCalls: [{ name: "send_message", arguments: { to: "ada", message: ADA_NOTE } }, { name: "teammate_shutdown", arguments: { name: "bo" } }] };
    }
    const settled = got.some((b) => b.kind === "harness-event" && b.from === "task-board");
    if (settled && !did("teammate_spawn", "cy")) {
      return { toolCalls: [{ name: "teammate_shutdown", arguments: { name: "ada" } }, { name: "teammate_spawn", arguments: { name: "cy", agent: "builder", prompt: CY_KICKOFF } }] };
    }
    if (report("cy", "failed") && !did("teammate_shutdown", "cy")) return call("teammate_shutdown", { name: "cy" });
    if (kept("cy") && !did("teammate_spawn", "dee")) return call("teammate_spawn", { name: "dee", agent: "builder", handoffFrom: "cy", prompt: DEE_PROMPT });
    if (report("dee", "completed") && !did("teammate_shutdown", "dee")) return call("teammate_shutdown", { name: "dee" });
    if (kept("dee")) {
      finish();
      return { text: "dee finished cy's work on its own branch; both files are on dee's branch, ready to review and merge. The shared tree only has ada's doc comment." };
    }
    return { text: "Waiting for the teammates." };
  };

  const ada = (c: ModelCall): Reply => {
    const done = pastCalls(c.messages);
    const task = toolTexts(c).map((t) => CLAIMED.exec(t)?.[1]).find(Boolean);
    if (!task) {
      const mail = received(newInput(c)).filter((b) => b.kind === "teammate-mail" && b.from === "task-board");
      const notice = mail.map((b) => NOTICE.exec(b.body)?.[1]).find(Boolean);
      return notice ? call("task_claim", { taskId: notice }) : { text: "Nothing for me here." };
    }
    if (done.some((t) => t.name === "task_submit")) return { text: "Done for now." };
    if (!done.some((t) => t.name === "send_message")) return send(`Claimed \`${task}\`: src/greet.js is mine until I submit. Reading it first.`);
    const go = received(c.messages).some((b) => b.kind === "teammate-mail" && b.from === "leader");
    const holds = done.filter((t) => t.name === "read").length;
    if (!go && holds < MAX_HOLDS) return { ...call("read", { path: "src/greet.js" }), delayMs: HOLD_MS };
    if (!done.some((t) => t.name === "edit")) return call("edit", { path: "src/greet.js", edits: [DOC_EDIT] });
    return call("task_submit", { taskId: task, status: "completed", result: "Added a one-line JSDoc comment above greet() in src/greet.js." });
  };

  const bo = (c: ModelCall): Reply => {
    const done = pastCalls(c.messages);
    if (done.some((t) => t.name === "send_message")) return { text: "Stopping here." };
    if (!done.some((t) => t.name === "read")) return call("read", { path: "src/greet.js" });
    if (!done.some((t) => t.name === "write")) return call("write", { path: "src/greet.js", content: BO_SOURCE });
    const result = c.toolResults[0]?.content ?? "";
    const why = BLOCKED.exec(result)?.[0] ?? `the write failed: ${result.slice(0, 200)}`;
    return send(`I could not rewrite src/greet.js; nothing was changed. ${why}`, "failed");
  };

  const cy = (c: ModelCall): Reply => {
    const done = pastCalls(c.messages);
    if (done.some((t) => t.name === "send_message")) return { text: "Stopping here." };
    if (!done.some((t) => t.name === "write")) return call("write", { path: "src/welcome.js", content: WELCOME_SOURCE });
    return send(CY_REPORT, "failed");
  };

  const dee = (c: ModelCall): Reply => {
    // dee starts from a fork of cy's session (issue 20): only what follows its own kickoff is its work.
    const kickoff = c.messages.findLastIndex((m) => m.role === "user" && contentText(m.content).includes(DEE_PROMPT));
    const done = pastCalls(c.messages.slice(Math.max(0, kickoff)));
    if (done.some((t) => t.name === "send_message")) return { text: "Done." };
    if (!done.some((t) => t.name === "read")) return call("read", { path: "src/welcome.js" });
    if (!done.some((t) => t.name === "write")) return call("write", { path: "test/welcome.test.js", content: WELCOME_TEST });
    return send("Finished cy's work: src/welcome.js (from cy's branch) now has its test in test/welcome.test.js.", "completed");
  };

  const scripts: Record<string, (c: ModelCall) => Reply> = { leader, ada, bo, cy, dee };
  return {
    title: "isolation: edit guards in the shared tree, worktree teammates, handoff",
    reply(c) {
      return scripts[c.agent]?.(c) ?? { text: "ok" };
    },
    notes(c) {
      const result = c.toolResults[0]?.content ?? "";
      if (c.agent === "bo" && result.includes("blocked")) return ["the tool result in full (the edit guard's block):", ...wrap(result).map((l) => `  ${l}`)];
      if (c.agent === "dee" && c.toolResults.length === 0) {
        const kickoff = wrappedBlocks(c.lastUser).find((b) => b.kind === "assignment")?.body ?? "";
        return ["its kickoff, written by the harness from cy's facts:", ...kickoff.split("\n").map((l) => `  | ${l.length > 108 ? `${l.slice(0, 107)}…` : l}`)];
      }
      return [];
    },
    async run(stage) {
      const { leader: pi, log } = stage;
      const greet = join(stage.env.cwd, "src/greet.js");
      const o: Observed = { eventMark: pi.events.length, callMark: stage.model.calls.length, greetBefore: readFileSync(greet), kept: new Map() };
      const off = pi.proc.child.onEvent((e) => observe(stage, o, e));
      try {
        log.line("user", `→ leader ${JSON.stringify(USER_TASK)}`);
        await pi.prompt(USER_TASK);
        await withTimeout(finished, 40_000, "the leader never saw dee's work kept on its branch");
        const mark = pi.events.length;
        await pi.waitForEvent((e, i) => i >= mark && e.type === "agent_settled", 15_000);
      } finally {
        off();
      }
      return checkIsolation(stage, o);
    },
  };
}

type LeaderEvent = Parameters<Parameters<Stage["leader"]["proc"]["child"]["onEvent"]>[0]>[0];

/** Records what the checks need as it happens, and prints what the demo itself looks at. */
function observe(stage: Stage, o: Observed, e: LeaderEvent): void {
  const { log } = stage;
  if (e.type === "tool_execution_end" && !e.isError) {
    const result = e.result as { content?: { text?: string }[]; details?: Record<string, unknown> };
    const text = (result.content ?? []).map((p) => p.text ?? "").join("");
    if (e.toolName === "task_create") o.taskId ??= CREATED.exec(text)?.[1];
    const d = result.details ?? {};
    if (e.toolName === "teammate_spawn" && d.name === "dee") {
      const dir = (d.worktree as { dir?: string } | undefined)?.dir;
      let source: string | undefined;
      try {
        source = dir ? readFileSync(join(dir, "src/welcome.js"), "utf8") : undefined;
      } catch {
        source = undefined;
      }
      o.dee = { handoffFrom: typeof d.handoffFrom === "string" ? d.handoffFrom : undefined, hadFile: source === WELCOME_SOURCE };
      log.line("demo", `dee's worktree at spawn: src/welcome.js ${source === undefined ? "MISSING" : source === WELCOME_SOURCE ? "present, as cy wrote it (it starts on cy's branch)" : "present but different"}`);
    }
    return;
  }
  if (e.type !== "message_end" || e.message.role !== "custom") return;
  const m = e.message as { customType?: string; content?: unknown; details?: Record<string, unknown> };
  const content = typeof m.content === "string" ? m.content : "";
  if (m.customType === "teammate-report" && m.details?.from === "bo") {
    o.greetAtBlock = readFileSync(join(stage.env.cwd, "src/greet.js"));
    o.holdsAtBlock = rosterHolds(stage.runtimeDir);
    const same = o.greetAtBlock.equals(o.greetBefore);
    log.line("project", `src/greet.js after bo's blocked write: ${same ? "unchanged" : "CHANGED"} (${o.greetAtBlock.length} bytes, compared byte for byte)`, `roster.json holds: ${o.holdsAtBlock || "(none)"}`);
  }
  if (m.customType === "harness-event" && m.details?.type === "worktree_kept") onKept(stage, o, String(m.details.teammate), content);
}

/** roster.json `holds` of every teammate, as "ada: src/greet.js (task t)". */
function rosterHolds(runtimeDir: string): string {
  try {
    const roster = JSON.parse(readFileSync(join(runtimeDir, "roster.json"), "utf8")) as { teammates?: { name: string; holds?: { tag: string; taskId?: string }[] }[] };
    return (roster.teammates ?? [])
      .flatMap((t) => (t.holds ?? []).map((h) => `${t.name}: ${h.tag}${h.taskId ? ` (task ${h.taskId})` : " (direct assignment)"}`))
      .join(", ");
  } catch (error) {
    return `unreadable: ${error instanceof Error ? error.message : String(error)}`;
  }
}
