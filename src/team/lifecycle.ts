/**
 * The teammate lifecycle as one pure transition (style practices 2, 3): `transition(state, event,
 * now, ctx)` returns the next state and the effects for the shell (src/harness/team-effects.ts). Rules
 * live here and nowhere else: delivery of mail (R24, R27), reports (R26, R47), the direct
 * assignment (R15, R49), rescue of runs that end without a report (L31), heartbeats (R52, R53),
 * holding sends while a compaction runs (issue 8), and the end of an incarnation with the release
 * of what it held (R20, R21, R30, R56, L22; src/team/lifecycle-end.ts). Reports out of the outbox
 * are src/team/lifecycle-reports.ts.
 */
import { afterOutput, stallDue, stallNotice } from "./heartbeat.ts";
import type { HeartbeatConfig, Holdings, Life, Sending, SendKind, Step, TeammateEffect, TeammateEvent, TeammateFacts, TeammateState } from "./lifecycle-types.ts";
import { mailBatchSize } from "../mail/limits.ts";
import { deliveryFailedText, kickoffText, mailText, noReportText, reminderText, runFailedText, wakeText } from "./prompts.ts";
import { reopenGate } from "./routing.ts";
import type { InboxRecord } from "../mail/index.ts";
import { isQuiet, owesReport } from "./lifecycle-state.ts";
import { compactBlock } from "./compaction.ts";
import { onAcquired, onCaptured, onClosed, onSpawnFailed, onStopRequested } from "./lifecycle-end.ts";
import { onOutbox } from "./lifecycle-reports.ts";

export type * from "./lifecycle-types.ts";
export { initialHoldings, initialState, isActive, isBusy, isQuiet, isWorking, lifeOf, occupies, owesReport, statusOf } from "./lifecycle-state.ts";

/** What a transition needs besides state and event. */
export interface TransitionContext {
  readonly facts: TeammateFacts;
  readonly heartbeat: HeartbeatConfig;
}

type Living = Extract<TeammateState, { life: Life }>;

const withLife = (s: Living, life: Life): Living => ({ ...s, life });
const withHoldings = (s: Living, holdings: Holdings): Living => ({ ...s, holdings });

/** A step that stays in a living phase. */
interface LivingStep {
  readonly state: Living;
  readonly effects: TeammateEffect[];
}

/** Starts a send carrying `mail` (taken off the pending mail by the caller, who checked that nothing is in flight). */
function send(s: Living, kind: SendKind, text: string, mail: readonly InboxRecord[], leaderMessageId?: number): LivingStep {
  const ticket = s.life.tickets + 1;
  const sending: Sending = { ticket, kind, mail, ...(leaderMessageId === undefined ? {} : { leaderMessageId }) };
  const next = withLife(s, { ...s.life, tickets: ticket, sending });
  const deliverable = leaderMessageId === undefined ? mail : [];
  return { state: next, effects: [{ type: "send", ticket, kind, text, mail: deliverable }] };
}

/**
 * Writes pending mail into the child when nothing else is in flight: an idle teammate is woken
 * with one prompt carrying a bounded batch of it (src/mail/limits.ts; with the role prompt the
 * first time), a working one is steered (R24). A starting teammate gets it once it is ready or its kickoff run settles. While
 * a compaction runs nothing goes out (Pi rejects prompts then); `compaction_done` pumps again.
 */
function pump(s: Living, ctx: TransitionContext): LivingStep {
  const { life } = s;
  if (life.sending || life.compacting || life.mail.length === 0) return { state: s, effects: [] };
  // A bounded batch per prompt; the rest follows as soon as this one is answered (onSent pumps).
  const n = mailBatchSize(life.mail);
  const batch = life.mail.slice(0, n);
  const rest = life.mail.slice(n);
  if (s.phase === "idle") {
    const text = wakeText(batch, life.rolePending ? ctx.facts.role : undefined);
    return send(withLife(s, { ...life, mail: rest, rolePending: false }), "wake", text, batch);
  }
  if (s.phase === "working") return send(withLife(s, { ...life, mail: rest }), "steer", batch.map(mailText).join("\n\n"), batch);
  return { state: s, effects: [] };
}

/** After the state settled idle: deliver mail, else tell the board it is free. */
function idleStep(s: Living, ctx: TransitionContext, effects: TeammateEffect[]): LivingStep {
  const pumped = pump(s, ctx);
  const more: TeammateEffect[] = isQuiet(pumped.state) ? [{ type: "board_idle" }] : [];
  return { state: pumped.state, effects: [...effects, ...pumped.effects, ...more] };
}

function onSettled(s: Living, openClaim: string | undefined, ctx: TransitionContext): Step {
  if (s.phase === "stopping") return { state: s, effects: [] };
  const runError = s.phase === "working" ? s.runError : undefined;
  const idle: Living = { phase: "idle", life: s.life, holdings: s.holdings };
  const effects: TeammateEffect[] = s.phase === "idle" ? [] : [{ type: "write_roster" }];
  if (s.life.interrupted) {
    // The user stopped this run by hand (issue 21): no reminder, no leader event; the gate stays
    // as it was, so its next run still owes the report.
    const { interrupted: _, ...life } = s.life;
    return idleStep(withLife(idle, life), ctx, effects);
  }
  const { life } = s;
  const owes = owesReport(life, openClaim);
  // A reminder belongs to one assignment: a claim other than the one reminded about starts over,
  // but only after a wake (a reminder run that swapped claims is still the same episode).
  const fresh = life.reminder.claim !== openClaim && (life.reminder.step === "none" || life.reminder.wokenSince === true);
  const reminder = fresh ? "none" : life.reminder.step;
  if (runError !== undefined && life.direct === "open") {
    // The assignment's run died on a model error: a reminder would fail the same way.
    effects.push({ type: "harness_event", event: { type: "teammate_run_failed", body: runFailedText(ctx.facts.name, runError, ctx.facts.log) } });
    return idleStep(idle, ctx, effects);
  }
  // Mail first: it may be the very answer the teammate waits for; a reminder can wait a settle.
  if (!owes || life.mail.length > 0 || life.sending || life.compacting || reminder === "escalated") return idleStep(idle, ctx, effects);
  const about = openClaim === undefined ? {} : { claim: openClaim };
  if (reminder === "none") {
    const step = send(withLife(idle, { ...life, reminder: { step: "reminded", ...about } }), "reminder", reminderText(openClaim), []);
    return { state: step.state, effects: [...effects, ...step.effects] };
  }
  effects.push({
    type: "harness_event",
    event: { type: "teammate_no_report", body: noReportText({ name: ctx.facts.name, openClaim, lastText: life.lastText }) },
  });
  return idleStep(withLife(idle, { ...life, reminder: { step: "escalated", ...about } }), ctx, effects);
}

/**
 * A run started while a send was in flight: that send started it (pi answers a prompt before its
 * run, but the leader may take the run's events first, from the same read). A wake or steer
 * reopens the report gate now, before the run's reports are judged (R27), and counts as the wake
 * after a reminder; its late answer changes none of that, nor the phase.
 */
function runStartedDuringSend(life: Life): Life {
  const sending = life.sending;
  if (!sending || sending.runStarted) return life;
  const woke = sending.kind === "wake" || sending.kind === "steer"; // a steer that started a run woke it
  const reminder = woke && life.reminder.step !== "none" ? { ...life.reminder, wokenSince: true } : life.reminder;
  const opens = woke || sending.kind === "leader_steer";
  return { ...life, sending: { ...sending, runStarted: true }, ...(opens ? { gate: reopenGate(life.gate), reminder } : {}) };
}

function onSent(s: Living, e: Extract<TeammateEvent, { type: "sent" }>, now: number, ctx: TransitionContext): Step {
  const sending = s.life.sending;
  if (!sending || sending.ticket !== e.ticket) return { state: s, effects: [{ type: "note", text: `answer to send #${e.ticket} ignored (not in flight)` }] };
  let life: Life = { ...s.life, sending: undefined };
  const effects: TeammateEffect[] = [];
  if (!e.ok) return onSendFailed(withLife(s, life), sending, e.error, ctx);
  life = { ...life, failedSends: 0, activity: afterOutput(life.activity, "other", now) }; // a prompt delivery re-arms (R52)
  // A wake, a steer that started a new run because the last one had just ended, or any message of
  // the leader reopens the gate (R27): what the teammate answers to them is owed to the leader.
  const woke = sending.kind === "wake" || (sending.kind === "steer" && e.started);
  if (!sending.runStarted && (woke || sending.kind === "leader_steer")) life = { ...life, gate: reopenGate(life.gate) };
  if (!sending.runStarted && woke && life.reminder.step !== "none") life = { ...life, reminder: { ...life.reminder, wokenSince: true } };
  if (sending.leaderMessageId !== undefined) {
    effects.push({ type: "leader_result", id: sending.leaderMessageId, result: "steered" });
    const from = sending.mail[0]?.from ?? "leader"; // the leader's, or the user's from the console
    effects.push({ type: "note", text: `${from} → ${ctx.facts.name}: ${e.started ? "steered into a new run (the last one had just ended)" : "steered"}` });
  }
  // Every message written into the child is a Mail row, a leader's or the user's steer too.
  if (sending.mail.length > 0) effects.push({ type: "mail_delivered", via: sending.kind === "wake" || e.started ? "wake" : "steer", records: sending.mail });
  let next: Living = withLife(s, life);
  if (next.phase === "idle" && !sending.runStarted && (sending.kind === "wake" || sending.kind === "reminder" || e.started === true)) {
    next = { phase: "working", life, runError: undefined, holdings: s.holdings };
    effects.push({ type: "write_roster" });
  }
  const pumped = pump(next, ctx);
  return { state: pumped.state, effects: [...effects, ...pumped.effects] };
}

/**
 * The child refused a prompt (a model without credentials, an RPC timeout). Nothing is lost: a
 * leader steer goes to the inbox for the next wake, mail goes back in front and is retried at the
 * next mail or settle. The leader hears once per streak of refusals; a refused reminder is the
 * end of L31 for this assignment (the one leader event, now).
 */
function onSendFailed(s: Living, sending: Sending, error: string, ctx: TransitionContext): Step {
  let life: Life = { ...s.life, failedSends: s.life.failedSends + 1 };
  const effects: TeammateEffect[] = [{ type: "note", text: `${sending.kind} to ${ctx.facts.name} failed: ${error}` }];
  const record = sending.mail[0];
  if (sending.leaderMessageId !== undefined && record) {
    effects.push({ type: "queue_leader_message", id: sending.leaderMessageId, record });
  } else {
    life = { ...life, mail: [...sending.mail, ...life.mail] };
  }
  if (sending.kind === "reminder") {
    life = { ...life, reminder: { ...life.reminder, step: "escalated" } };
    const body = noReportText({ name: ctx.facts.name, openClaim: life.reminder.claim, lastText: life.lastText, reminderFailed: error });
    effects.push({ type: "harness_event", event: { type: "teammate_no_report", body } });
  } else if (life.failedSends === 1 && sending.kind !== "kickoff" && sending.leaderMessageId === undefined) {
    const body = deliveryFailedText({ name: ctx.facts.name, kind: sending.kind, error, pending: life.mail.length, log: ctx.facts.log });
    effects.push({ type: "harness_event", event: { type: "teammate_delivery_failed", body } });
  }
  const next = withLife(s, life);
  if (isQuiet(next)) effects.push({ type: "board_idle" }); // an offer it never received lapses
  return { state: next, effects };
}

function onLeaderMessage(s: Living, e: Extract<TeammateEvent, { type: "leader_message" }>): Step {
  let life = s.life;
  let next: Living = s;
  if (e.reopen) {
    life = { ...life, gate: reopenGate(life.gate), direct: "none", reminder: { step: "none" } };
    next = withHoldings(s, { ...s.holdings, assignment: { text: e.record.body, open: true } }); // a new assignment (R16)
  }
  next = withLife(next, life);
  // The record rides on the send so a failed steer can fall back to the inbox.
  if (next.phase === "working" && !life.sending && !life.compacting) return send(next, "leader_steer", mailText(e.record), [e.record], e.id);
  return { state: next, effects: [{ type: "queue_leader_message", id: e.id, record: e.record }] };
}

/**
 * One step of one incarnation at `now` (ms). Events that make no sense in the current phase are
 * ignored (a late RPC event after a close, a tick for an idle teammate); they never throw.
 */
export function transition(s: TeammateState, e: TeammateEvent, now: number, ctx: TransitionContext): Step {
  if (e.type === "acquired") return onAcquired(s, e);
  if (s.phase === "capturing" && e.type === "captured") return onCaptured(s, e);
  if (s.phase === "stopped" || s.phase === "capturing") {
    // Late events of a closed child are ignored (L29); a leader message raced the close: queue it.
    const effects: TeammateEffect[] = e.type === "leader_message" ? [{ type: "queue_leader_message", id: e.id, record: e.record }] : [];
    return { state: s, effects };
  }
  switch (e.type) {
    case "ready": {
      if (s.phase !== "starting") return { state: s, effects: [] };
      if (e.kickoff === undefined) return idleStep({ phase: "idle", life: s.life, holdings: s.holdings }, ctx, [{ type: "write_roster" }]);
      const life: Life = { ...s.life, direct: "open", reminder: { step: "none" }, rolePending: false, activity: afterOutput(s.life.activity, "other", now) };
      return send(withLife(s, life), "kickoff", kickoffText(ctx.facts.role, e.kickoff), []);
    }
    case "run_started": {
      if (s.phase === "stopping") return { state: s, effects: [] };
      const effects: TeammateEffect[] = s.phase === "working" ? [] : [{ type: "write_roster" }];
      const pumped = pump({ phase: "working", life: runStartedDuringSend(s.life), runError: undefined, holdings: s.holdings }, ctx);
      return { state: pumped.state, effects: [...effects, ...pumped.effects] };
    }
    case "output":
      return { state: withLife(s, { ...s.life, activity: afterOutput(s.life.activity, e.kind, now) }), effects: [] };
    case "assistant_message": {
      const a = s.life.activity;
      const life: Life = { ...s.life, lastText: e.text.trim() === "" ? s.life.lastText : e.text, activity: { ...a, tokens: a.tokens + e.tokens, cost: a.cost + e.cost } };
      if (s.phase === "working") return { state: { ...s, life, runError: e.error ?? s.runError }, effects: [] };
      return { state: withLife(s, life), effects: [] };
    }
    case "run_settled":
      return onSettled(s, e.openClaim, ctx);
    case "outbox":
      return onOutbox(s, e, ctx.facts);
    case "mail": {
      const next = withLife(s, { ...s.life, mail: [...s.life.mail, ...e.records] });
      return s.phase === "stopping" ? { state: next, effects: [] } : pump(next, ctx);
    }
    case "leader_message":
      if (s.phase === "stopping") return { state: s, effects: [{ type: "queue_leader_message", id: e.id, record: e.record }] };
      return onLeaderMessage(s, e);
    case "sent":
      return onSent(s, e, now, ctx);
    case "stop_requested":
      return onStopRequested(s, e.claims);
    case "closed":
      return onClosed(s, e, ctx.facts);
    case "spawn_failed":
      return onSpawnFailed(s, ctx.facts);
    case "captured":
      return { state: s, effects: [] }; // only a capturing teammate is captured
    case "compaction_started":
      // The shell checked `compactBlock` first; a late or doubled start changes nothing.
      if (compactBlock(s) !== undefined) return { state: s, effects: [{ type: "note", text: `compaction of ${ctx.facts.name} not started: ${compactBlock(s)}` }] };
      return { state: withLife(s, { ...s.life, compacting: true }), effects: [] };
    case "compaction_done": {
      if (!s.life.compacting) return { state: s, effects: [] };
      const next = withLife(s, { ...s.life, compacting: false });
      return next.phase === "idle" ? idleStep(next, ctx, []) : { state: next, effects: [] };
    }
    case "user_interrupt":
      // Only a run can be interrupted; an idle teammate's next settle is its next run's.
      return s.phase === "working" ? { state: withLife(s, { ...s.life, interrupted: true }), effects: [{ type: "note", text: "run interrupted by the user" }] } : { state: s, effects: [] };
    case "tick": {
      if (s.phase !== "working" && s.phase !== "starting") return { state: s, effects: [] };
      const tier = stallDue(s.life.activity, ctx.heartbeat, now);
      if (!tier) return { state: s, effects: [] };
      const notice = stallNotice(ctx.facts, s.life.activity, tier, now);
      const life: Life = { ...s.life, activity: { ...s.life.activity, noticed: true } };
      return { state: withLife(s, life), effects: [{ type: "health", ...notice }] };
    }
    default: {
      const never: never = e;
      throw new Error(`unknown teammate event ${JSON.stringify(never)}`);
    }
  }
}
