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
 * The successor's kickoff (R16): the predecessor's latest assignment, the board tasks it held
 * (named, and said to be released: the successor must claim them again with task_claim), its
 * latest reports and its kept branch (a worktree successor starts on it), then the leader's
 * own `prompt` when given. Pure.
 */
export function handoffKickoff(facts: HandoffFacts, successor: { prompt?: string; worktree: boolean }): string {
  const { prompt } = successor;
  const lines = [`You take over from @${facts.name} (agent ${facts.agent}), which has stopped.`];
  lines.push("", "Its latest assignment:", facts.assignment?.trim() ? indent(facts.assignment.trim()) : "  (none: it worked only on board tasks or was idle)");
  if (facts.claims.length > 0) {
    lines.push("", "Board tasks it held when it stopped (they went back to the board; nothing was transferred to you):");
    for (const c of facts.claims) lines.push(`  - \`${c.id}\`: ${c.subject}`);
    lines.push("To continue one, claim it yourself with task_claim (it may have been claimed by another teammate since).");
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
  else lines.push("", "Continue its assignment where it left off, and report to the leader as it would have.");
  return lines.join("\n");
}

function indent(text: string, pad = "  "): string {
  return text.split("\n").map((l) => `${pad}${l}`).join("\n");
}

function cut(text: string): string {
  return text.length <= HANDOFF_REPORT_CHARS ? text : `${text.slice(0, HANDOFF_REPORT_CHARS)}… (cut)`;
}
