/**
 * The leader's end of its teammates' RPC pipes (src/mail/stream-wire.ts). Every board decision,
 * on an intent file or a stream record, goes back on the teammate's own stdin through `decided`:
 * one answer path for both transports. On the stream transport, records a teammate emits on its
 * pipe become the same lifecycle events as records read from its files. The pipe is the
 * identity: a record on `m`'s pipe is `m`'s, whatever it says, so no record names a sender and
 * none needs a seal. Reports go onto `m`'s queue as outbox records; peer mail onto the
 * recipient's queue as inbox records (routed by the same `routeFromWorker` as the worker's file
 * channel, and judged by the same peer-pair cap, W19); board intents and views are answered at
 * once on `m`'s stdin.
 */
import { makeInboxRecord, makeOutboxRecord, newSpawnKey, type RosterFile, type SpawnKeys } from "../mail/index.ts";
import { STREAM_ENTRY_TYPE, StreamRecordSchema, streamCommandText, type BoardDecision, type StreamDown } from "../mail/stream-wire.ts";
import { checkValue } from "../store/index.ts";
import type { TeammateEvent } from "../team/lifecycle-types.ts";
import type { Member } from "../team/member.ts";
import { routeFromWorker } from "../team/routing.ts";

/** A board intent from a stream teammate, without sender (the pipe names it). */
export interface StreamIntentAsk {
  action: "claim" | "submit";
  taskId?: string;
  status?: "completed" | "failed";
  result?: string;
}

/** The board's side of the stream transport (the session's board host). */
export interface StreamBoard {
  /** Applies `m`'s intent as an intent file of `m`'s would be, and returns the decision. Must not throw. */
  intent(m: Member, ask: StreamIntentAsk): BoardDecision;
  /** `m`'s task_list text, or `not_found`. Must not throw. */
  view(m: Member, ask: { taskId?: string; offset?: number }): { ok: true; text: string } | { ok: false; message: string };
}

/** What `StreamRecords` reads and calls; the team driver supplies it. */
export interface StreamRecordsDeps {
  keys: SpawnKeys;
  now: () => number;
  /** The living teammate of that name (case-insensitive). */
  living(name: string): Member | undefined;
  /** Names of the living teammates, in spawn order. */
  livingNames(): string[];
  enqueue(m: Member, job: () => TeammateEvent[]): void;
  note(text: string, m?: Member): void;
  board(): StreamBoard | undefined;
  /** The peer-pair cap (W19): undefined delivers mail `id` from `from` to `to`, else the refusal for `from`. */
  peerMail(from: Member, to: Member, id: string): string | undefined;
}

/** Record ids remembered per incarnation (a replay on the pipe is dropped). */
const SEEN_PER_SPAWN = 100_000;

/** See the module doc. One per team driver. */
export class StreamRecords {
  readonly #d: StreamRecordsDeps;
  readonly #seen = new Map<string, Set<string>>();

  constructor(deps: StreamRecordsDeps) {
    this.#d = deps;
  }

  /**
   * Handles one `entry_appended` entry on stream teammate `m`'s pipe. An entry of another type
   * is not ours and is ignored; a record that breaks the wire schema, or repeats an id this
   * incarnation already sent, is dropped with a note. Never throws.
   */
  onEntry(m: Member, entry: Record<string, unknown>): void {
    if (entry.customType !== STREAM_ENTRY_TYPE) return;
    const checked = checkValue(StreamRecordSchema, entry.data);
    if (!checked.ok) {
      this.#d.note(`refused: a stream record on ${m.name}'s pipe is not valid (${checked.message}); dropped`, m);
      return;
    }
    const r = checked.value;
    if (!this.#fresh(m, r.id)) {
      this.#d.note(`${m.name}: stream record ${r.id} was already delivered (same id); dropped`, m);
      return;
    }
    switch (r.kind) {
      case "report": {
        const key = this.#d.keys.keyOf(m.name, m.spawnId) ?? newSpawnKey(); // the pipe proved the sender; the seal only fills the record
        const record = makeOutboxRecord({ from: m.name, spawnId: m.spawnId, body: r.body, status: r.status }, key, this.#d.now());
        this.#d.enqueue(m, () => [{ type: "outbox", records: [record] }]);
        return;
      }
      case "mail": {
        const route = routeFromWorker(m.name, { to: r.to, message: r.body }, this.#d.livingNames());
        const to = route.kind === "peer" ? this.#d.living(route.to) : undefined;
        if (route.kind !== "peer" || !to) {
          this.#answer(m, { kind: "answer", id: r.id, ok: false, text: route.kind === "error" ? route.message : `send_message: to: "${r.to}" is not a teammate` });
          return;
        }
        const refused = this.#d.peerMail(m, to, r.id);
        if (refused) {
          this.#answer(m, { kind: "answer", id: r.id, ok: false, text: refused });
          return;
        }
        const record = makeInboxRecord({ from: m.name, fromSpawnId: m.spawnId, to: to.name, body: r.body }, this.#d.now());
        this.#d.enqueue(to, () => [{ type: "mail", records: [record] }]);
        this.#answer(m, { kind: "answer", id: r.id, ok: true, text: to.name });
        return;
      }
      case "intent": {
        const board = this.#d.board();
        // Only the intent's own fields: extra keys (a `from`, say) must not reach the board.
        const { id, action, taskId, status, result } = r;
        const ask: StreamIntentAsk = { action, ...(taskId !== undefined ? { taskId } : {}), ...(status ? { status } : {}), ...(result !== undefined ? { result } : {}) };
        this.decided(m, id, board ? board.intent(m, ask) : { ok: false, reason: "board_unavailable", message: "The leader has no task board in this session." });
        return;
      }
      case "board_view": {
        const view = this.#d.board()?.view(m, { ...(r.taskId !== undefined ? { taskId: r.taskId } : {}), ...(r.offset !== undefined ? { offset: r.offset } : {}) });
        if (!view) this.#answer(m, { kind: "answer", id: r.id, ok: false, text: "task_list: the leader has no task board in this session.", error: "io_error" });
        else if (view.ok) this.#answer(m, { kind: "answer", id: r.id, ok: true, text: view.text });
        else this.#answer(m, { kind: "answer", id: r.id, ok: false, text: view.message, error: "not_found" });
        return;
      }
    }
  }

  /**
   * Answers board intent `id` of teammate `m`, of either transport, with `decision` on its stdin,
   * where its waiting task_claim or task_submit takes it (src/worker/stream-link.ts). Nothing
   * once `m` no longer lives. Never throws.
   */
  decided(m: Member, id: string, decision: BoardDecision): void {
    this.#answer(m, { kind: "answer", id, ok: decision.ok, text: decision.message, decision });
  }

  /** Sends the roster to stream teammate `m` (its edit guards read holdings from it). Never throws. */
  sendRoster(m: Member, roster: RosterFile): void {
    this.#answer(m, { kind: "roster", roster });
  }

  /** Forgets an incarnation's ids once it closed. */
  forget(m: Member): void {
    this.#seen.delete(m.spawnId);
  }

  #fresh(m: Member, id: string): boolean {
    let seen = this.#seen.get(m.spawnId);
    if (!seen) this.#seen.set(m.spawnId, (seen = new Set()));
    if (seen.has(id)) return false;
    seen.add(id);
    if (seen.size > SEEN_PER_SPAWN) seen.delete(seen.values().next().value as string);
    return true;
  }

  #answer(m: Member, down: StreamDown): void {
    const child = m.proc?.child;
    if (!child || !m.living) return;
    // An extension command runs at once, even mid-run, before any streaming behaviour applies.
    child.send({ type: "prompt", message: streamCommandText(down), streamingBehavior: "steer" }).catch((error: unknown) => {
      this.#d.note(`could not answer ${m.name} on its pipe: ${error instanceof Error ? error.message : String(error)}`, m);
    });
  }
}
