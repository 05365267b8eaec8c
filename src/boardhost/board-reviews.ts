/**
 * The verify-gate reviewer runner of the board shell (R44, W9, L9): one fresh one-shot reviewer
 * per gate run, asked at most one clarification, its answers turned into board effects by the
 * host; a reviewer whose gate was aborted (release, stop, supersede) is stopped and its late
 * outcome dropped as stale. Tracks which gate tokens have a reviewer running.
 */
import { join } from "node:path";
import type { Effect, GateResult, Holder } from "../board/index.ts";
import { errorText } from "../error-text.ts";
import { startReviewer, type Reviewer, type ReviewerOptions } from "../process/index.ts";
import { reapNote } from "../reap/index.ts";

/** Wiring of `BoardReviews`, all supplied by the host. */
export interface BoardReviewsOptions {
  piCli: string;
  /** Where the reviewer of a holder's submission runs (its worktree, or the leader's cwd). */
  cwdOf: (holder: Holder) => string;
  /** The leader's trust decision, inherited by reviewers. */
  trusted: () => boolean;
  env: NodeJS.ProcessEnv;
  /** The team's model, read when a reviewer starts. */
  teamModel: () => ReviewerOptions["model"];
  /** Folder of the reviewers' stderr logs (`<taskId>.log`). */
  logDir: string;
  /** Applies a reviewer's answer for gate `token` to the board (`gateOutcome`) and returns the result. */
  outcome: (token: string, text: string) => GateResult;
  /** Carries out board effects. */
  apply: (effects: readonly Effect[]) => void;
  note: (text: string) => void;
  /** Called whenever a reviewer starts or ends. */
  changed: () => void;
  /** A reviewer's usage (tokens, USD), read before it stops, for the task's cost. */
  usage?: (taskId: string, usage: { tokens: number; cost: number }) => void;
}

/** The reviewers in flight, by gate token; the host owns one. */
export class BoardReviews {
  readonly #o: BoardReviewsOptions;
  /** Gate token → its reviewer (undefined while it is starting). */
  readonly #reviewers = new Map<string, Reviewer | undefined>();

  constructor(options: BoardReviewsOptions) {
    this.#o = options;
  }

  /** Whether any reviewer is running or starting. */
  get busy(): boolean {
    return this.#reviewers.size > 0;
  }

  /** Runs one verify gate (R44, W9): a fresh one-shot reviewer, one clarification at most. */
  async review(e: Extract<Effect, { type: "start_reviewer" }>): Promise<void> {
    this.#reviewers.set(e.token, undefined);
    this.#o.changed();
    let reviewer: Reviewer | undefined;
    let prompt: string | undefined = e.prompt;
    try {
      reviewer = await startReviewer({
        piCli: this.#o.piCli,
        cwd: this.#o.cwdOf(e.holder),
        trusted: this.#o.trusted(),
        env: this.#o.env,
        model: this.#o.teamModel(),
        stderrLog: join(this.#o.logDir, `${e.taskId}.log`),
        label: `reviewer of ${e.taskId}`,
        onReaped: (result) => {
          const text = reapNote(result, `the reviewer of ${e.taskId}`);
          if (text) this.#o.note(text);
        },
      });
      while (prompt !== undefined && this.#reviewers.has(e.token)) {
        this.#reviewers.set(e.token, reviewer);
        let answer: string;
        try {
          answer = await reviewer.ask(prompt);
        } catch (error) {
          answer = `(the reviewer failed: ${errorText(error)})`;
        }
        if (!this.#reviewers.has(e.token)) break; // aborted while answering: the outcome is stale (L9)
        const r = this.#o.outcome(e.token, answer);
        // clarify_reviewer is not carried out by the host: it is asked here, on the same reviewer.
        const clarify = r.effects.find((x): x is Extract<Effect, { type: "clarify_reviewer" }> => x.type === "clarify_reviewer" && x.token === e.token);
        this.#o.apply(r.effects);
        prompt = clarify?.prompt;
        this.#o.note(`reviewer of ${e.taskId}: ${r.ok ? r.outcome : r.reason}`);
      }
    } catch (error) {
      // No reviewer to clarify with: a clarification is answered by the same failure, so the
      // second missing verdict escalates instead of leaving the task in review forever (W9).
      const answer = `(the reviewer could not start: ${String(error)})`;
      this.#o.note(`reviewer of ${e.taskId} ${answer.slice(1, -1)}`);
      for (let i = 0; i < 2 && this.#reviewers.has(e.token); i++) {
        const r = this.#o.outcome(e.token, answer);
        this.#o.apply(r.effects.filter((x) => x.type !== "clarify_reviewer"));
        if (!r.ok || r.outcome !== "clarify") break;
      }
    } finally {
      this.#reviewers.delete(e.token);
      this.#o.changed();
      const usage = await reviewer?.usage();
      if (usage) this.#o.usage?.(e.taskId, usage);
      await reviewer?.stop();
    }
  }

  /** Stops the reviewer of gate `token`, if any; its outcome, if it still arrives, is ignored (L9). */
  abort(token: string): void {
    const reviewer = this.#reviewers.get(token);
    this.#reviewers.delete(token);
    this.#o.changed();
    void reviewer?.stop();
  }

  /** Aborts every reviewer in flight (leader shutdown); resolves once those started have stopped and been reaped. */
  async abortAll(): Promise<void> {
    const stopping = [...this.#reviewers.values()].map((r) => r?.stop());
    for (const token of [...this.#reviewers.keys()]) this.abort(token);
    await Promise.all(stopping);
  }
}
