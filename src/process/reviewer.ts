import { randomUUID } from "node:crypto";
import { isRecord } from "../is-record.ts";
import { ENV } from "../mail/identity.ts";
import { trustFlag } from "./trust.ts";
import { reapMarked, type ReapResult } from "../reap/index.ts";
import { spawnPiChild, type PiChild } from "./spawner.ts";

/** The reviewer's read-only tool set (W9). `bash` can still write; reviewers are told not to. */
export const REVIEWER_TOOLS = ["read", "grep", "find", "ls", "bash"] as const;

/** Options of `startReviewer`. */
export interface ReviewerOptions {
  piCli: string;
  /** The holder's worktree, or the leader's cwd. */
  cwd: string;
  /** The leader's trust decision: a reviewer never has more (`-a` / `-na`). */
  trusted: boolean;
  /** The leader's environment; the reviewer role variable is added. */
  env: NodeJS.ProcessEnv;
  /** The team's model (`--provider/--model`), or undefined for Pi's default. */
  model: { provider: string; id: string } | undefined;
  /** Stderr log file of this reviewer. */
  stderrLog: string;
  label: string;
  /** Budget for one answer (prompt → settled), in ms. Default 10 minutes. */
  answerTimeoutMs?: number;
  /** Told what the reaper ended once the reviewer's process has closed (see `startReviewer`). */
  onReaped?: (result: ReapResult) => void;
}

/**
 * One fresh one-shot pi reviewer (R44, W9): its own `pi --mode rpc` process with no session,
 * nothing loaded from the project (`reviewerArgs`) and the read-only tool set. `ask` sends a
 * prompt and resolves with the final assistant text of that run; the same process answers a
 * clarification. `stop` ends it.
 */
export interface Reviewer {
  readonly pid: number;
  /** @throws ChildExitedError when the reviewer dies; TeamError `timeout` past `answerTimeoutMs`. */
  ask(prompt: string): Promise<string>;
  /** Its lifetime tokens and cost (USD) from `get_session_stats`; undefined when it cannot say. Never rejects. */
  usage(): Promise<{ tokens: number; cost: number } | undefined>;
  /** Stops the process and ends what it left running (idempotent; never rejects). */
  stop(): Promise<void>;
}

/**
 * The reviewer's pi argv (R44, W9): independent of the holder it judges. The holder can write
 * files in the reviewer's cwd (its worktree or the project), so the reviewer loads nothing the
 * project could plant: no extensions, skills, prompt templates or context files (AGENTS.md,
 * CLAUDE.md), and neither `.pi/SYSTEM.md` nor `.pi/APPEND_SYSTEM.md`.
 *
 * Why the two empty strings hold (Pi 1.6, dist/core/resource-loader.js `reload`): the system prompt
 * source is `--system-prompt ?? discoverSystemPromptFile()` and the append sources are
 * `--append-system-prompt` when given, else `[discoverAppendSystemPromptFile()]`. An empty string is
 * not nullish and `[""]` is truthy, so neither file is looked up; `resolvePromptInput("")` then
 * returns undefined before any file lookup, so Pi uses its default prompt and no addendum. A
 * non-empty text would not do: Pi first tries it as a file path relative to the cwd, which the
 * holder controls.
 */
export function reviewerArgs(options: Pick<ReviewerOptions, "trusted" | "model">): string[] {
  const args = [
    "--mode", "rpc", "--no-session",
    "--no-extensions", "--no-skills", "--no-prompt-templates", "--no-context-files",
    "--system-prompt", "", "--append-system-prompt", "",
    "--tools", REVIEWER_TOOLS.join(","), trustFlag(options.trusted),
  ];
  if (options.model) args.push("--provider", options.model.provider, "--model", options.model.id);
  return args;
}

/**
 * Starts a reviewer and waits until it answers `get_state`. The run gets its own
 * `PI_TEAMS_REVIEW_ID`: once its process has closed (stopped, crashed or failed to start), every
 * process still carrying that id (what its `bash` left running) is SIGKILLed (src/reap/reaper.ts)
 * and `onReaped` is told; `stop` resolves after that.
 * @throws as `spawnPiChild` and `waitReady`.
 */
export async function startReviewer(options: ReviewerOptions): Promise<Reviewer> {
  const args = reviewerArgs(options);
  const reviewId = randomUUID();
  const proc: PiChild = await spawnPiChild({
    piCli: options.piCli,
    args,
    cwd: options.cwd,
    env: { ...options.env, [ENV.role]: "reviewer", [ENV.name]: undefined, [ENV.spawnId]: undefined, [ENV.reviewId]: reviewId, [ENV.leaderPid]: String(process.pid) },
    stderrLog: options.stderrLog,
    label: options.label,
    dropSysAdmin: true,
  });
  const reaped = proc.exited
    .then(() => reapMarked([{ key: ENV.reviewId, value: reviewId }]))
    .then((result) => options.onReaped?.(result))
    .catch(() => undefined);
  try {
    await proc.waitReady(30_000);
  } catch (error) {
    await proc.stop({ graceMs: 500, termGraceMs: 500, abortFirst: false });
    throw error;
  }
  const timeoutMs = options.answerTimeoutMs ?? 10 * 60_000;
  return {
    pid: proc.pid,
    async ask(prompt) {
      const settled = proc.child.nextEvent("agent_settled", { timeoutMs });
      settled.catch(() => undefined); // awaited below; a prompt failure must not leave it unhandled
      await proc.child.prompt(prompt, { streamingBehavior: "followUp" });
      await settled;
      return (await proc.child.getLastAssistantText()) ?? "";
    },
    async usage() {
      try {
        const d = await proc.child.send({ type: "get_session_stats" }, { timeoutMs: 5000 });
        const tokens = isRecord(d.tokens) ? d.tokens.total : undefined;
        return typeof tokens === "number" && typeof d.cost === "number" ? { tokens, cost: d.cost } : undefined;
      } catch {
        return undefined;
      }
    },
    async stop() {
      await proc.stop({ graceMs: 2000, termGraceMs: 2000 });
      await reaped;
    },
  };
}
