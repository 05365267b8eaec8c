/**
 * The teammate's end of its RPC pipe (src/mail/stream-wire.ts): the leader's answers (and, on the
 * stream transport, the roster) come in through its extension command, on every transport; on
 * the stream transport (ENV.transport `stream`: it shares no files with the leader) its records
 * go out as custom entries on its RPC stdout too. A file teammate's intent goes out as a file
 * (src/worker/decision.ts) and its answer comes back here all the same.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { TeamError } from "../errors.ts";
import type { RosterFile } from "../mail/index.ts";
import { ANSWER_TIMEOUT_MS, STREAM_COMMAND, STREAM_ENTRY_TYPE, StreamDownSchema, type StreamAnswer, type StreamRecord, type StreamRequest } from "../mail/stream-wire.ts";
import { checkValue, type ReadResult } from "../store/index.ts";

/** One process's link to its leader over its own pipe; the worker owns one. */
export class StreamLink {
  readonly #pi: ExtensionAPI;
  readonly #waiting = new Map<string, (a: StreamAnswer) => void>();
  #roster: RosterFile | undefined;
  readonly #note: (line: string) => void;

  /**
   * Registers the `/pi-teams-stream` command on `pi`. A line that is not the leader's wire
   * format is noted (stderr, the teammate's log) and ignored: only the leader writes to stdin.
   */
  constructor(pi: ExtensionAPI, note: (line: string) => void = (l) => process.stderr.write(`${l}\n`)) {
    this.#pi = pi;
    this.#note = note;
    pi.registerCommand(STREAM_COMMAND, {
      description: "pi-resident-teams: the leader's answers on this teammate's pipe (not for users)",
      handler: async (args) => this.receive(args),
    });
  }

  /** Sends one record that needs no answer (a report). */
  emit(record: StreamRecord): void {
    this.#pi.appendEntry(STREAM_ENTRY_TYPE, record);
  }

  /**
   * Sends `record` and resolves with the leader's answer to its id.
   * @throws TeamError `timeout` when no answer comes within `timeoutMs` (the leader may be gone).
   */
  request(record: StreamRequest, timeoutMs: number = ANSWER_TIMEOUT_MS): Promise<StreamAnswer> {
    return this.answerTo(record.id, () => this.emit(record), timeoutMs);
  }

  /**
   * Resolves with the leader's answer to request `id`: the wait is registered first, then `send`
   * hands the request to the leader (a record on the pipe, an intent file), so a fast answer is
   * never missed.
   * @throws what `send` throws (nothing was asked); TeamError `timeout` when no answer comes
   *   within `timeoutMs` (the leader may be busy or gone).
   */
  async answerTo(id: string, send: () => void | Promise<void>, timeoutMs: number = ANSWER_TIMEOUT_MS): Promise<StreamAnswer> {
    let timer: NodeJS.Timeout | undefined;
    const answered = new Promise<StreamAnswer>((resolve) => this.#waiting.set(id, resolve));
    try {
      await send();
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new TeamError("timeout", `No answer from the leader within ${timeoutMs} ms; the leader may be busy or gone. Try again later.`)), timeoutMs);
      });
      return await Promise.race([answered, timedOut]);
    } finally {
      clearTimeout(timer);
      this.#waiting.delete(id);
    }
  }

  /** The roster the leader last sent, as a roster file read would give it. */
  roster(): ReadResult<RosterFile> {
    return this.#roster ? { ok: true, value: this.#roster } : { ok: false, reason: "missing", message: "roster (stream): the leader has not sent one yet" };
  }

  /** Handles one command argument string from the leader. Never throws. */
  receive(args: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(args);
    } catch {
      this.#note(`/${STREAM_COMMAND}: not JSON (${args.length} characters), ignored`);
      return;
    }
    const down = checkValue(StreamDownSchema, parsed);
    if (!down.ok) {
      this.#note(`/${STREAM_COMMAND}: ${down.message}; ignored`);
      return;
    }
    if (down.value.kind === "roster") this.#roster = down.value.roster;
    else this.#waiting.get(down.value.id)?.(down.value);
  }
}
