/**
 * `handoffFrom` (R16): what a successor learns about the stopped teammate it takes over from.
 * Pure: the harness gathers the facts, these rules decide whether a handoff is possible and
 * write the successor's kickoff.
 */

/** At most this many of the predecessor's latest reports go into the handoff. */
export const HANDOFF_REPORTS = 3;
/** A longer report body is cut to this many characters (the kickoff must stay readable). */
export const HANDOFF_REPORT_CHARS = 2000;

/** What the harness remembers of one incarnation, for a successor. */
export interface HandoffFacts {
  name: string;
  agent: string;
  /** Its latest direct assignment: the kickoff, or the last `reopen` message. */
  assignment?: string;
  /** True while that assignment was open (no terminal report yet) when it stopped. */
  assignmentOpen: boolean;
  /** Board tasks it held when it stopped; released by the stop, never transferred. */
  claims: Array<{ id: string; subject: string }>;
  /** Its latest leader reports, oldest first. */
  reports: Array<{ status: string; body: string }>;
  /** Its kept worktree branch, when it had a worktree with work on it. */
  branch?: { name: string; base: string };
  /** Its worktree dir, when stopping had to leave it in place: some work may be only there. */
  leftAt?: string;
}

/** A teammate as `checkHandoff` sees it. */
export interface HandoffCandidate {
  name: string;
  living: boolean;
}

/**
 * Decides whether `from` can hand off (R16): it must be a stopped teammate of this session.
 * Names compare case-insensitively. Never throws.
 * @returns the message for the spawn error when it cannot: a living predecessor must be shut
 *   down first; an unknown one lists the stopped teammates that could hand off.
 */
export function checkHandoff(from: string, members: readonly HandoffCandidate[]): { ok: true } | { ok: false; message: string } {
  const m = members.find((x) => x.name.toLowerCase() === from.toLowerCase());
  if (m?.living) {
    return { ok: false, message: `handoffFrom: "${m.name}" is still living. Shut it down with teammate_shutdown first, then spawn its successor with handoffFrom: "${m.name}".` };
  }
  if (!m) {
    const stopped = members.filter((x) => !x.living).map((x) => x.name);
    return { ok: false, message: `handoffFrom: no teammate named "${from}" ran in this session. Stopped teammates that can hand off: ${stopped.join(", ") || "(none)"}.` };
  }
  return { ok: true };
}

/**
 * How the successor gets its handoff (R15, R16, R49): as a kickoff (a direct assignment) when
 * the leader gave a `prompt` or the predecessor's own assignment was still open; otherwise as
 * a message from the leader at its first wake, which leaves the board open to it, so it can
 * claim the tasks the predecessor held (a direct assignment would shut it out of the board). Pure.
 */
export function handoffDelivery(facts: HandoffFacts, prompt: string | undefined): "kickoff" | "mail" {
  return prompt?.trim() || facts.assignmentOpen ? "kickoff" : "mail";
}

/**
 * The successor's handoff text (R16): the predecessor's latest assignment, the board tasks it
 * held (named, and said to be released: never transferred), its latest reports and its kept
 * branch (a worktree successor starts on it), then the leader's own `prompt` when given. With
 * the board open to the successor (`handoffDelivery` "mail") it is told to claim those tasks
 * itself; with a direct assignment, that they stay on the board until the leader reopens it. Pure.
 */
export function handoffKickoff(facts: HandoffFacts, successor: { prompt?: string; worktree: boolean; forked?: boolean }): string {
  const { prompt } = successor;
  const boardOpen = handoffDelivery(facts, prompt) === "mail";
  const lines = [`You take over from @${facts.name} (agent ${facts.agent}), which has stopped.`];
  if (successor.forked) lines.push(`The conversation above is @${facts.name}'s, up to its stop: you started from a copy of its session, so what it read, did and was told is yours to use. Your own name and role are in your system prompt.`);
  const assignment = facts.assignment?.trim();
  const state = facts.assignmentOpen ? "unfinished" : "finished: it sent its terminal report";
  lines.push("", assignment ? `Its latest assignment (${state}):` : "Its latest assignment:", assignment ? indent(assignment) : "  (none: it worked only on board tasks or was idle)");
  if (facts.claims.length > 0) {
    lines.push("", "Board tasks it held when it stopped (they went back to the board; nothing was transferred to you):");
    for (const c of facts.claims) lines.push(`  - \`${c.id}\`: ${c.subject}`);
    lines.push(boardOpen
      ? "To continue one, claim it yourself with task_claim (it may have been claimed by another teammate since)."
      : "You have a direct assignment (below), so you cannot claim board tasks now; they stay on the board for other teammates until the leader reopens you for board work.");
  }
  const reports = facts.reports.slice(-HANDOFF_REPORTS);
  if (reports.length > 0) {
    lines.push("", `Its latest report${reports.length === 1 ? "" : "s"} to the leader (teammate content, oldest first):`);
    for (const r of reports) lines.push(`  [${r.status}]`, indent(cut(r.body.trim()), "    "));
  }
  if (facts.branch) {
    const where = successor.worktree
      ? "your worktree starts from that branch"
      : `you work in the shared tree; see its work with \`git diff ${facts.branch.base.slice(0, 12)}..${facts.branch.name}\``;
    lines.push("", `Its work is kept on branch ${facts.branch.name} (based on ${facts.branch.base.slice(0, 12)}); ${where}.`);
  }
  if (facts.leftAt) lines.push("", `Its worktree could not be cleaned up and is still at ${facts.leftAt}: part of its work may be only there (read it from there; do not delete it).`);
  if (prompt?.trim()) lines.push("", "The leader's assignment for you:", indent(prompt.trim()));
  else if (facts.assignmentOpen) lines.push("", "Continue its assignment where it left off, and report to the leader as it would have.");
  else lines.push("", "Continue its work: claim the board tasks above that fit your role, and report to the leader as it would have.");
  return lines.join("\n");
}

function indent(text: string, pad = "  "): string {
  return text.split("\n").map((l) => `${pad}${l}`).join("\n");
}

function cut(text: string): string {
  return text.length <= HANDOFF_REPORT_CHARS ? text : `${text.slice(0, HANDOFF_REPORT_CHARS)}… (cut)`;
}

/**
 * Above this many tokens in the predecessor's context at its stop, its successor does not start
 * from a fork of its session (issue 20): half of a 200k-token window, the common size, so a
 * successor would start most of the way to its own compaction. It gets today's summary handoff.
 */
export const HANDOFF_FORK_MAX_TOKENS = 100_000;

/** How a successor starts: from a fork of the predecessor's session file, or from the summary alone. */
export type HandoffContext = { mode: "fork"; file: string } | { mode: "summary"; reason: string };

/**
 * Chooses the successor's start (issue 20, seed: "respawning a context-carrying successor"): a
 * fork of `file` when the predecessor has a session file and its last known context (`tokens`, the
 * last assistant message's total) is at most HANDOFF_FORK_MAX_TOKENS; otherwise the summary handoff,
 * with the reason the spawn result gives. `missing` says why there is no file; a context of unknown
 * size is not forked. Pure.
 */
export function chooseHandoffContext(input: { file?: string; missing?: string; tokens?: number }): HandoffContext {
  if (input.file === undefined) return { mode: "summary", reason: input.missing ?? "it has no session file" };
  if (input.tokens === undefined) return { mode: "summary", reason: "the size of its context could not be read from the end of its session file" };
  if (input.tokens > HANDOFF_FORK_MAX_TOKENS) {
    return { mode: "summary", reason: `its context held ${input.tokens} tokens at its stop, above the ${HANDOFF_FORK_MAX_TOKENS} a successor starts from` };
  }
  return { mode: "fork", file: input.file };
}

/** How the spawn result names a successor's start, e.g. "its context is a fork of ann's session". Pure. */
export function describeHandoffContext(from: string, context: HandoffContext | undefined): string {
  if (context?.mode === "fork") return `its context is a fork of ${from}'s session, so it holds everything ${from} saw`;
  return `it starts from the summary alone: ${context?.reason ?? "no session to fork"}`;
}
