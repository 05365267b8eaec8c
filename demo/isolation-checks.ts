/**
 * What the isolation scenario (demo/isolation-phase.ts) observed, the `git` the demo runs itself
 * when a worktree is kept, and the checks that decide whether the scenario held.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { parseBoardFile } from "../src/board/index.ts";
import { BLOCKED, CLAIMED, CY_KICKOFF, CY_REPORT, DOC_LINE, TASK, WELCOME_SOURCE } from "./isolation-phase.ts";
import { pastCalls } from "./scripting.ts";
import type { PhaseResult, Stage } from "./stage.ts";

/** One `worktree_kept` event and what the demo found on its branch. */
export interface Kept {
  branch: string;
  /** The exact command from the event text. */
  command: string;
  /** Files `command` shows (its `diff --git` lines). */
  files: string[];
  /** Author of the branch tip (the capture commit). */
  author: string;
}

/** Filled while the phase runs. */
export interface Observed {
  eventMark: number;
  callMark: number;
  taskId?: string;
  greetBefore: Buffer;
  /** src/greet.js when bo's report reached the leader, and roster.json `holds` then. */
  greetAtBlock?: Buffer;
  holdsAtBlock?: string;
  /** Per teammate name. */
  kept: Map<string, Kept>;
  /** dee's spawn result: its predecessor, and whether its worktree held cy's file at once. */
  dee?: { handoffFrom: string | undefined; hadFile: boolean };
  /** Whether the shared tree had src/welcome.js, and cy's branch had it, when cy's work was kept. */
  afterCy?: { sharedHas: boolean; branchHas: boolean };
}

const DIFF_COMMAND = /^Inspect it with: (git diff [0-9a-f]{7,64}\.\.(\S+))$/m;
/** Lines of a diff printed into the transcript. */
const DIFF_LINES = 20;

function git(stage: Stage, args: string[]): { ok: boolean; out: string } {
  try {
    return { ok: true, out: execFileSync("git", args, { cwd: stage.env.cwd, env: stage.env.env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }) };
  } catch (error) {
    return { ok: false, out: error instanceof Error ? error.message : String(error) };
  }
}

/** A `worktree_kept` event reached the leader: run its `git diff` in the project and print it. */
export function onKept(stage: Stage, o: Observed, who: string, text: string): void {
  const { log } = stage;
  const hit = DIFF_COMMAND.exec(text);
  if (!hit) {
    log.line("demo", `worktree_kept about ${who} carries no "Inspect it with: git diff …" line`);
    return;
  }
  const [, command = "", branch = ""] = hit;
  const diff = git(stage, command.split(" ").slice(1));
  const lines = diff.out.trimEnd().split("\n");
  const files = lines.flatMap((l) => /^diff --git a\/(\S+) b\//.exec(l)?.[1] ?? []);
  const author = git(stage, ["log", "-1", "--format=%an <%ae>", branch]).out.trim();
  o.kept.set(who, { branch, command: diff.ok ? command : `${command} (FAILED)`, files, author });
  log.line(
    "demo",
    `${who}'s branch ${branch}; the demo runs the event's command in the project:`,
    `$ ${command}`,
    ...lines.slice(0, DIFF_LINES).map((l) => `  ${l}`),
    ...(lines.length > DIFF_LINES ? [`  … (${lines.length - DIFF_LINES} more lines)`] : []),
    `branch tip committed by ${author || "?"} (the capture's fixed identity; no git identity is configured)`,
  );
  if (who !== "cy") return;
  const sharedHas = existsSync(join(stage.env.cwd, "src/welcome.js"));
  const branchHas = git(stage, ["cat-file", "-e", `${branch}:src/welcome.js`]).ok;
  o.afterCy = { sharedHas, branchHas };
  log.line("project", `shared tree: src/welcome.js ${sharedHas ? "EXISTS" : "absent"}; ${branch}:src/welcome.js ${branchHas ? "exists" : "MISSING"}`);
}

/** Checks the scenario against the model calls, the leader's events, board.json and git. */
export function checkIsolation(stage: Stage, o: Observed): PhaseResult {
  const { model, leader, log, env } = stage;
  const failures: string[] = [];
  const expect = (ok: boolean, what: string) => {
    if (!ok) failures.push(what);
  };
  const calls = model.calls.slice(o.callMark);
  const of = (who: string) => calls.filter((c) => c.agent === who);
  const events = leader.events.slice(o.eventMark);
  const custom = events.flatMap((e) => {
    if (e.type !== "message_end" || e.message.role !== "custom") return [];
    const m = e.message as { customType?: string; details?: Record<string, unknown> };
    return [{ kind: String(m.customType), details: m.details ?? {} }];
  });
  const reported = (from: string, status: string) => custom.some((m) => m.kind === "teammate-report" && m.details.from === from && m.details.status === status);
  const id = o.taskId;

  // 1. ada's claim holds the resource.
  expect(id !== undefined, "no task_create result with a task id");
  const claim = of("ada").find((c) => CLAIMED.exec(c.toolResults[0]?.content ?? "")?.[1] === id);
  expect(claim !== undefined, `ada never got "Claimed task ${id}" back`);
  expect(o.holdsAtBlock?.includes(`ada: ${TASK.resources[0]} (task ${id})`) === true, `roster.json did not show ada holding ${TASK.resources[0]} for ${id} when bo reported (saw ${o.holdsAtBlock ?? "nothing"})`);

  // 2. bo's write is blocked, naming ada and the task; the file is untouched; ada finishes.
  const blockedCall = of("bo").find((c) => c.toolResults.some((r) => r.content.startsWith("write blocked")));
  const block = BLOCKED.exec(blockedCall?.toolResults[0]?.content ?? "");
  expect(block?.[1] === "ada" && block[2] === id, `bo's write result must be blocked naming ada and ${id}; saw ${JSON.stringify(blockedCall?.toolResults[0]?.content.slice(0, 160) ?? "no blocked result")}`);
  expect(reported("bo", "failed"), "bo's terminal [failed] report never reached the leader");
  const unchanged = o.greetAtBlock !== undefined && o.greetAtBlock.equals(o.greetBefore);
  expect(unchanged, "src/greet.js changed while bo's write was blocked (compared byte for byte)");
  const greetNow = readFileSync(join(env.cwd, "src/greet.js"), "utf8");
  expect(greetNow.includes(DOC_LINE) && greetNow.includes("Hello,"), "src/greet.js does not have ada's doc comment (or lost greet())");
  let byAda = false;
  try {
    const board = parseBoardFile(readFileSync(join(stage.boardDir, "board.json"), "utf8"));
    const t = board.ok ? board.file.tasks.find((x) => x.id === id) : undefined;
    byAda = t?.state.status === "completed" && t.state.by === "ada";
  } catch {
    byAda = false;
  }
  expect(byAda, `board.json does not show ${id} completed by @ada`);

  // 3. cy's work is kept on its branch; the shared tree never sees it.
  const cy = o.kept.get("cy");
  expect(cy !== undefined && cy.branch.startsWith("pi-team/cy-"), `no worktree_kept event for cy with a pi-team/cy-… branch (saw ${[...o.kept.keys()].join(", ") || "none"})`);
  expect(cy?.files.join(",") === "src/welcome.js", `cy's git diff should show exactly src/welcome.js, showed ${cy?.files.join(", ") || "nothing"}`);
  expect(o.afterCy?.sharedHas === false && o.afterCy.branchHas, `src/welcome.js must be on cy's branch and not in the shared tree (${JSON.stringify(o.afterCy)})`);
  expect(reported("cy", "failed"), "cy's half-done [failed] report never reached the leader");
  for (const k of o.kept.values()) expect(k.author.startsWith("pi-resident-teams <"), `${k.branch} tip was committed by ${k.author}, expected the capture identity`);

  // 4. dee takes over from cy, on cy's branch, and finishes.
  const deeFirst = of("dee")[0];
  const kickoff = deeFirst?.lastUser ?? "";
  expect(o.dee?.handoffFrom === "cy", `dee's spawn result does not name handoffFrom cy (${JSON.stringify(o.dee)})`);
  expect(kickoff.includes("You take over from @cy"), "dee's first model call lacks \"You take over from @cy\"");
  expect(kickoff.includes(CY_KICKOFF), "dee's first model call lacks cy's assignment");
  expect(kickoff.includes(CY_REPORT), "dee's first model call lacks cy's report");
  expect(cy !== undefined && kickoff.includes(cy.branch), "dee's first model call does not name cy's branch");
  expect(o.dee?.hadFile === true, "dee's worktree did not hold cy's src/welcome.js when it was spawned");
  const deeRead = of("dee").some((c) => pastCalls(c.messages).at(-1)?.name === "read" && c.toolResults[0]?.content.includes(WELCOME_SOURCE.split("\n")[1]!.trim()));
  expect(deeRead, "dee's read of src/welcome.js in its worktree did not return cy's code");
  expect(reported("dee", "completed"), "dee's [completed] report never reached the leader");
  const dee = o.kept.get("dee");
  expect(dee?.files.join(",") === "src/welcome.js,test/welcome.test.js", `dee's git diff should show src/welcome.js and test/welcome.test.js, showed ${dee?.files.join(", ") || "nothing"}`);
  expect(!existsSync(join(env.cwd, "test/welcome.test.js")), "test/welcome.test.js leaked into the shared tree");

  // 5. Clean ends: four shutdowns, no worktree left, only the expected turns.
  const shutdowns = events.filter((e) => e.type === "tool_execution_end" && e.toolName === "teammate_shutdown" && !e.isError).length;
  expect(shutdowns === 4, `expected four successful teammate_shutdown results, saw ${shutdowns}`);
  const worktrees = git(stage, ["worktree", "list", "--porcelain"]).out.split("\n").filter((l) => l.startsWith("worktree ")).length;
  expect(worktrees === 1, `git worktree list shows ${worktrees} worktrees after the phase, expected only the project`);
  const root = join(env.agentDir, "worktrees", basename(stage.runtimeDir));
  const left = existsSync(root) ? readdirSync(root) : [];
  expect(left.length === 0, `left under the worktrees root: ${left.join(", ")}`);
  const turns = custom.filter((m) => m.kind === "harness-event").map((m) => String(m.details.type));
  expect(turns.sort().join(",") === "board_settled,worktree_kept,worktree_kept", `expected harness-event turns board_settled and worktree_kept ×2, saw ${turns.join(", ") || "none"}`);
  const branches = git(stage, ["branch", "--list", "pi-team/*", "--format=%(refname:short)"]).out.trim().split("\n").filter(Boolean);
  log.line("project", `branches kept: ${branches.join(", ") || "(none)"}; worktrees: ${worktrees} (the project only); ${root.slice(env.root.length + 1)}: ${left.length === 0 ? "empty" : left.join(", ")}`);

  const count = ["leader", "ada", "bo", "cy", "dee"].map((a) => `${a} ${of(a).length}`).join(", ");
  return {
    summary: [
      `guard: bo's write into src/greet.js blocked (held by ${block?.[1] ?? "?"} for task \`${block?.[2] ?? "?"}\`); the file was ${unchanged ? "unchanged, byte for byte" : "CHANGED"}; ada then edited it and completed \`${id}\``,
      `worktree: cy's work kept on ${cy?.branch ?? "?"} (git diff shows ${cy?.files.join(", ") || "nothing"}; committed by ${cy?.author.split(" <")[0] ?? "?"} with no git identity configured); shared tree untouched`,
      `handoff: dee took over from cy on its branch (kickoff: "You take over from @cy", cy's assignment and [failed] report); ${dee?.branch ?? "?"}: git diff shows ${dee?.files.join(", ") || "nothing"}`,
      `isolation phase model calls: ${count}; worktrees left: ${worktrees - 1}; harness-event turns: ${turns.join(", ")}`,
    ],
    failures,
  };
}
