/**
 * Reports in the lifecycle (R26, R47): what the teammate writes to its outbox, checked by sender
 * and by the report gate, delivered to the leader, and kept for a successor. Pure; lifecycle.ts
 * routes the `outbox` event here.
 */
import { HANDOFF_REPORTS } from "./handoff.ts";
import type { Holdings, Life, Step, TeammateEffect, TeammateEvent, TeammateFacts, TeammateState } from "./lifecycle-types.ts";
import { admitReport } from "./routing.ts";

type Living = Extract<TeammateState, { life: Life }>;

/**
 * `outbox`: the teammate's reports to the leader. A record in another sender's name is forged and
 * dropped; the report gate (src/team/routing.ts `admitReport`) decides what is delivered; a
 * terminal report closes the direct assignment and gives the incarnation its one lifeline (R55).
 */
export function onOutbox(s: Living, e: Extract<TeammateEvent, { type: "outbox" }>, facts: TeammateFacts): Step {
  let life = s.life;
  let holdings = s.holdings;
  const effects: TeammateEffect[] = [];
  for (const record of e.records) {
    // The file name is the authority on the sender; a record naming someone else is forged.
    if (record.from.toLowerCase() !== facts.name.toLowerCase()) {
      effects.push({ type: "note", text: `outbox of ${facts.name} holds a record from "${record.from}"; dropped` });
      continue;
    }
    const decision = admitReport(life.gate, record);
    life = { ...life, gate: decision.gate };
    if (!decision.deliver) {
      effects.push({ type: "note", text: `report from ${record.from} dropped: ${decision.reason}` });
      continue;
    }
    if (decision.terminal && life.direct === "open") life = { ...life, direct: "closed" };
    effects.push({ type: "deliver_report", record });
    holdings = keepReport(holdings, record.status, record.body);
    if (decision.terminal && !life.finished) {
      life = { ...life, finished: true };
      effects.push({ type: "lifeline", text: `Teammate @${facts.name} finished (${record.status}).`, ok: record.status === "completed" });
    }
  }
  return { state: { ...s, life, holdings }, effects };
}

/** Keeps a delivered report for a successor (the latest few only); `completed` or `failed` ends the assignment (R16). */
function keepReport(h: Holdings, status: string, body: string): Holdings {
  const assignment = h.assignment && (status === "completed" || status === "failed") ? { ...h.assignment, open: false } : h.assignment;
  return { ...h, assignment, reports: [...h.reports, { status, body }].slice(-HANDOFF_REPORTS) };
}
