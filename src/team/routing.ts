/**
 * Routing rules of `send_message` (R23–R33): pure decisions over plain data. The shells in
 * src/leader and src/worker carry them out (append to a file, steer a child, start a turn).
 */
import type { ReportStatus } from "../mail/index.ts";
import { messageSizeProblem } from "../mail/limits.ts";

export type { ReportStatus };

/** The raw arguments of one `send_message` call, as the model gave them. */
export interface SendRequest {
  to: string;
  message: string;
  status?: string;
  reopen?: boolean;
}

/** What a worker's `send_message` does. */
export type WorkerRoute =
  | { kind: "report"; status: ReportStatus; terminal: boolean }
  | { kind: "peer"; to: string }
  | { kind: "error"; message: string };

/**
 * Decides a worker's `send_message` (R24). The message must fit the one message limit
 * (src/mail/limits.ts). `to: "leader"` is a report to the own outbox;
 * `status` must then be one of in_progress | completed | failed. Any other `to` must name a
 * living teammate other than the sender, and peer mail may not carry a `status`.
 * Names compare case-insensitively, as spawn names do (R22).
 */
export function routeFromWorker(sender: string, req: SendRequest, living: readonly string[]): WorkerRoute {
  const tooLong = messageSizeProblem("send_message", "message", req.message);
  if (tooLong) return { kind: "error", message: tooLong };
  const to = req.to.trim();
  if (to.toLowerCase() === "leader") {
    const status = req.status ?? "in_progress";
    if (status !== "in_progress" && status !== "completed" && status !== "failed") {
      return {
        kind: "error",
        message: `send_message: status "${status}" is not valid; use "completed" or "failed" for a terminal report, or omit it (in_progress) for an intermediate one. Nothing was sent.`,
      };
    }
    return { kind: "report", status, terminal: status !== "in_progress" };
  }
  if (req.status !== undefined) {
    return {
      kind: "error",
      message: `send_message: status is only for reports to "leader"; peer mail to "${to}" cannot carry status "${req.status}". Send it again without status. Nothing was sent.`,
    };
  }
  const recipient = living.find((n) => n.toLowerCase() === to.toLowerCase());
  if (!recipient || recipient.toLowerCase() === sender.toLowerCase()) {
    const others = living.filter((n) => n.toLowerCase() !== sender.toLowerCase());
    const list = others.length > 0 ? others.join(", ") : "(none)";
    const why = recipient ? "is you" : "is not a living teammate";
    return {
      kind: "error",
      message: `send_message: to: "${to}" ${why}. Living teammates: ${list}; use "leader" to report to the leader. Nothing was sent.`,
    };
  }
  return { kind: "peer", to: recipient };
}

/** What the leader's `send_message` does, given the recipient's current status. */
export type LeaderRoute =
  | { kind: "steer"; to: string; note?: string }
  | { kind: "queue"; to: string; note?: string }
  | { kind: "error"; message: string };

/** The status of a teammate as routing sees it. */
export type TeammateStatus = "starting" | "working" | "idle" | "stopped";

/**
 * Decides the leader's `send_message` (R24). The message must fit the one message limit
 * (src/mail/limits.ts), whether it is steered or held. The recipient must be a living teammate; a
 * working one is steered through its control stream, any other is queued for its next wake.
 * A stray `status` is ignored with a one-line note rather than failing delivery (L15).
 */
export function routeFromLeader(
  req: SendRequest,
  roster: ReadonlyMap<string, { name: string; status: TeammateStatus }>,
): LeaderRoute {
  const tooLong = messageSizeProblem("send_message", "message", req.message);
  if (tooLong) return { kind: "error", message: tooLong };
  const to = req.to.trim();
  const living = [...roster.values()].filter((t) => t.status !== "stopped");
  const match = living.find((t) => t.name.toLowerCase() === to.toLowerCase());
  if (!match) {
    const list = living.length > 0 ? living.map((t) => t.name).join(", ") : "(none; call teammate_spawn first)";
    const hint = to.toLowerCase() === "leader" ? ' "leader" is you.' : "";
    return {
      kind: "error",
      message: `send_message: to: "${to}" is not a living teammate.${hint} Living teammates: ${list}. Nothing was sent.`,
    };
  }
  const note =
    req.status !== undefined
      ? `Note: status "${req.status}" is only for worker reports and was ignored.`
      : undefined;
  const kind = match.status === "working" ? "steer" : "queue";
  return note ? { kind, to: match.name, note } : { kind, to: match.name };
}

/** Per-teammate bookkeeping that decides which reports reach the leader. */
export interface ReportGate {
  /** Spawn id of the living incarnation; records with another id are stale (R47). */
  spawnId: string;
  /** True after the first accepted terminal report, until the next wake or reopen (R27). */
  closed: boolean;
}

/** Outcome of one outbox record at the gate. */
export type ReportDecision =
  | { deliver: true; gate: ReportGate; terminal: boolean }
  | { deliver: false; gate: ReportGate; reason: "stale_spawn" | "after_terminal" };

/**
 * Terminal suppression and spawn identity (R27, R47): a record from another incarnation is
 * dropped; after the first accepted terminal report every later report is suppressed until the
 * gate is reopened by a delivered wake prompt or a `reopen`. Intermediate reports before it are
 * all delivered, identical bodies included.
 */
export function admitReport(gate: ReportGate, record: { spawnId: string; status: ReportStatus }): ReportDecision {
  if (record.spawnId !== gate.spawnId) return { deliver: false, gate, reason: "stale_spawn" };
  if (gate.closed) return { deliver: false, gate, reason: "after_terminal" };
  const terminal = record.status !== "in_progress";
  return { deliver: true, gate: terminal ? { ...gate, closed: true } : gate, terminal };
}

/** A delivered wake prompt or an explicit reopen opens the gate again (R27, references/contract.md 1.I). */
export function reopenGate(gate: ReportGate): ReportGate {
  return gate.closed ? { ...gate, closed: false } : gate;
}
