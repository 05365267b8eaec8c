import { LEADER_NAME, TASK_BOARD, USER_NAME, type MailKind } from "../mail/index.ts";
import { compactionNote, COMPACTION_RECEIPT, type CompactionInfo } from "../team/compaction.ts";
import type { Member } from "../team/member.ts";
import type { AcceptedSubmission } from "../board/index.ts";
import type { TeamBus } from "../team/bus.ts";
import type { LeaderDelivery } from "../team/leader-delivery.ts";
import { titleOf, type TeamFeed } from "./team-feed.ts";

function kindOf(from: string): MailKind {
  return from === LEADER_NAME ? "leader" : from === USER_NAME ? "user" : from === TASK_BOARD ? "board" : "peer";
}

/**
 * Asks `m`'s child for its session stats (tokens, cost, context window use) and gives the answer
 * to the feed: after every settled run and every compaction, never while idle (an idle team makes
 * no request). A failed request is ignored: the gauge keeps its last value.
 */
export function fetchStats(feed: TeamFeed, m: Member): void {
  m.proc?.child.send({ type: "get_session_stats" }).then((data) => feed.stats(m, data), () => undefined);
}

/**
 * Feeds the console (R61) from the session's bus: teammates' output for the activity line and the
 * gauge; mail written into a child (`steered` or `delivered into turn`), the leader's deliveries
 * and compactions for the Mail page. Subscribe it before the leader's own `delivery` listener, so
 * a delivery is on the Mail page before its turn starts. Returns the unsubscribe.
 */
export function feedSignals(bus: Pick<TeamBus, "on">, feed: TeamFeed): () => void {
  const offs = [
    bus.on("output", ({ member: m, output }) => {
      feed.observe(m, output);
      if (output.kind === "settled" || output.kind === "compaction_ended") fetchStats(feed, m);
    }),
    bus.on("mail_delivered", ({ delivery: e }) => {
      const receipt = e.via === "steer" ? "steered" : "delivered into turn";
      for (const r of e.records) feed.mail({ kind: kindOf(r.from), from: r.from, to: e.teammate, body: r.body, receipt, at: e.at });
    }),
    bus.on("delivery", ({ delivery }) => feedDelivery(feed, delivery)),
    bus.on("compaction", ({ member, info }) => feedCompaction(feed, member, info)),
  ];
  return () => {
    for (const off of offs) off();
  };
}

/** A leader delivery (a report or a harness event) as a Mail row: it went into a leader turn. */
function feedDelivery(feed: TeamFeed, d: LeaderDelivery): void {
  if (d.kind === "report") {
    feed.mail({ kind: "report", from: d.record.from, to: LEADER_NAME, body: d.record.body, receipt: `${d.record.status} · delivered into turn` });
  } else {
    // The body without its <harness-event> wrapper lines (src/team/prompts.ts).
    const body = d.text.split("\n").filter((l) => !/^<\/?harness-event\b/.test(l)).join("\n");
    feed.mail({ kind: "note", from: d.teammate, to: LEADER_NAME, body: `${d.type}: ${body}`, receipt: "harness event · delivered into turn" });
  }
}

/**
 * A failed `task_submit` is seen (W22): a Mail row from its holder to the board with the reason
 * and the task's fate, and the returned one-line text for the transcript. Undefined (nothing
 * fed) for a completed submission or a superseded task's acknowledgement.
 */
export function feedSubmission(feed: TeamFeed, from: string, s: AcceptedSubmission): string | undefined {
  if (s.status !== "failed" || s.outcome === "acknowledged") return undefined;
  const fate = s.outcome === "parked" ? "parked with its holder" : "back to pending";
  feed.mail({ kind: "board", from, to: TASK_BOARD, body: `task_submit failed: \`${s.taskId}\` (failed ×${s.failedSubmits}): ${s.text}`, receipt: `failed ×${s.failedSubmits} · ${fate}` });
  return `Teammate @${from} failed task \`${s.taskId}\` (failed ×${s.failedSubmits} · ${fate}): ${titleOf(s.text)}`;
}

/**
 * A compaction as the console's feed keeps it: the teammate's last compaction, and for one that
 * ended a Mail row (kind `note`, from the teammate to `leader`, receipt `not sent to the leader's
 * model`), e.g. `compacted context 150K → 32K (auto)`. The gauge itself is refreshed by the
 * feed's `compaction_end` hook (src/feed/feed-hooks.ts).
 */
export function feedCompaction(feed: TeamFeed, m: Pick<Member, "name" | "spawnId" | "status">, info: CompactionInfo): void {
  feed.compaction(m, info);
  if (info.state === "running") return;
  feed.mail({ kind: "note", from: m.name, to: LEADER_NAME, body: compactionNote(info), receipt: COMPACTION_RECEIPT, at: info.at });
}
