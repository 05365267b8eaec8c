/**
 * How a teammate's tools reach the leader: through its mail and intent files, sealed with its
 * spawn key (`filesChannel`, a local teammate), or over its own RPC pipe (`streamChannel`, a
 * teammate a launcher started where the team's files are not). Either way the leader's answers
 * (board decisions, and on the stream its mail verdicts and views) come back on the pipe
 * (stream-link.ts). The tools (tools.ts, board-tools.ts) and the edit guards are the same either
 * way; the leader routes both with one core.
 */
import { boardOffText, createBoard, loadBoard, parseBoardFile, workerBoardView } from "../board/index.ts";
import { TeamError } from "../errors.ts";
import {
  appendInboxRecord,
  appendOutboxRecord,
  livingNames,
  makeInboxRecord,
  makeOutboxRecord,
  newMessageId,
  readRosterFile,
  type ReportStatus,
  type RosterFile,
} from "../mail/index.ts";
import type { BoardDecision } from "../mail/stream-wire.ts";
import { boardLayoutAt, errnoCode, errorText, readRegularFile, runtimeLayoutAt, type ReadResult } from "../store/index.ts";
import type { Identity } from "../mail/identity.ts";
import { messageSizeProblem } from "../mail/limits.ts";
import { cutBetween, peerCapRefusal } from "../team/peer-pairs.ts";
import { routeFromWorker } from "../team/routing.ts";
import { decisionOf, requestDecision } from "./decision.ts";
import type { StreamLink } from "./stream-link.ts";

type WorkerIdentity = Extract<Identity, { role: "worker" }>;

/** A board intent as a tool asks for it; the channel adds who sends it. */
export interface IntentAsk {
  action: "claim" | "submit";
  taskId?: string;
  status?: "completed" | "failed";
  result?: string;
}

/** What task_list asks to see: one task in full, or a page of the board. */
export interface ViewAsk {
  taskId?: string;
  offset?: number;
}

/** The teammate's way to the leader; see the module doc. */
export interface WorkerChannel {
  /** Writes one report (already judged: one per answer). @returns its record id. @throws TeamError `io_error`. */
  report(body: string, status: ReportStatus): Promise<string>;
  /**
   * Sends peer mail to `to` if it names a living teammate.
   * @returns the recipient's name as spawned and the record id.
   * @throws TeamError `invalid_input` (not living, the sender itself, too long, the pair cut at the
   *   peer-pair cap, W19) saying what is accepted; `io_error`; `timeout`.
   */
  mail(to: string, body: string): Promise<{ to: string; id: string }>;
  /** The leader's decision on one intent (a rejection is a decision, not an error). @throws as `requestDecision`. */
  decide(ask: IntentAsk): Promise<BoardDecision>;
  /** task_list's text. @throws TeamError `not_found` (unknown task), `io_error` (board unreadable). */
  view(ask: ViewAsk): Promise<string>;
  /** The roster the edit guards read holdings from. Never throws. */
  roster(): Promise<ReadResult<RosterFile>>;
}

/**
 * The file channel: sealed outbox, inbox and intent files (references/mail-format.md,
 * board-intents.md); the decision on an intent comes back on `link`, this process's pipe.
 */
export function filesChannel(me: WorkerIdentity, key: Buffer, link: StreamLink): WorkerChannel {
  const layout = runtimeLayoutAt(me.runtimeDir);
  const board = boardLayoutAt(me.boardDir);
  return {
    async report(body, status) {
      const record = makeOutboxRecord({ from: me.name, spawnId: me.spawnId, body, status }, key);
      await appendOutboxRecord(layout.outbox(me.name), record);
      return record.id;
    },
    async mail(to, body) {
      const roster = await readRosterFile(layout.roster);
      const route = routeFromWorker(me.name, { to, message: body }, roster.ok ? livingNames(roster.value) : []);
      if (route.kind !== "peer") {
        const why = roster.ok ? "" : `send_message: the roster could not be read (${roster.message}), so no living teammate is known. `;
        throw new TeamError("invalid_input", why + (route.kind === "error" ? route.message : "send_message: a report is not peer mail"));
      }
      // The leader counts and refuses anyway (W19); the roster it wrote lets the tool say so first.
      const cut = roster.ok ? cutBetween(roster.value.peerCuts, me.name, route.to) : undefined;
      if (cut) throw new TeamError("invalid_input", peerCapRefusal(route.to, cut.count));
      const record = makeInboxRecord({ from: me.name, fromSpawnId: me.spawnId, to: route.to, body }, Date.now(), key);
      await appendInboxRecord(layout.inbox(route.to), record);
      return { to: route.to, id: record.id };
    },
    decide: (ask) => requestDecision({ layout: board, key, link }, { from: me.name, spawnId: me.spawnId, ...ask }),
    async view(ask) {
      let snapshot = createBoard();
      let text: string | undefined;
      try {
        text = await readRegularFile(board.board);
      } catch (error) {
        if (errnoCode(error) !== "ENOENT") throw new TeamError("io_error", boardOffText("task_list", `${board.board}: ${errorText(error)}`));
      }
      if (text !== undefined) {
        const parsed = parseBoardFile(text);
        if (!parsed.ok) throw new TeamError("io_error", boardOffText("task_list", `${board.board}: ${parsed.problem}`));
        snapshot = loadBoard(parsed.file);
      }
      const roster = await readRosterFile(layout.roster);
      const rows = roster.ok ? roster.value.teammates.filter((t) => t.status !== "stopped").map((t) => ({ name: t.name, status: t.status, agent: t.agent })) : [];
      const view = workerBoardView(snapshot, { self: me.name, roster: rows, ...ask });
      if (!view.ok) throw new TeamError("not_found", view.message);
      return view.text;
    },
    roster: () => readRosterFile(layout.roster),
  };
}

/**
 * The stream channel: every record on this process's pipe (src/worker/stream-link.ts). Mail,
 * intents and views wait for the leader's answer, which judges the recipient and the board as it
 * does for files; a report needs none (the pipe keeps order and loses nothing while both live).
 */
export function streamChannel(me: WorkerIdentity, link: StreamLink): WorkerChannel {
  return {
    async report(body, status) {
      const id = newMessageId(Date.now());
      link.emit({ kind: "report", id, body, status });
      return id;
    },
    async mail(to, body) {
      // The leader judges the recipient (living, not the sender) with the whole roster; the size
      // is judged here first, as the file channel does, so nothing too long crosses the pipe.
      const tooLong = messageSizeProblem("send_message", "message", body);
      if (tooLong) throw new TeamError("invalid_input", tooLong);
      const id = newMessageId(Date.now());
      const a = await link.request({ kind: "mail", id, to: to.trim(), body });
      if (!a.ok) throw new TeamError("invalid_input", a.text);
      return { to: a.text, id };
    },
    decide: async (ask) => decisionOf(await link.request({ kind: "intent", id: newMessageId(Date.now()), ...ask })),
    async view(ask) {
      const a = await link.request({ kind: "board_view", id: newMessageId(Date.now()), ...ask });
      if (!a.ok) throw new TeamError(a.error ?? "io_error", a.text);
      return a.text;
    },
    roster: async () => link.roster(),
  };
}
