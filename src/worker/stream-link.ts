/**
 * The teammate's end of the stream transport (src/mail/stream-wire.ts): records go out as custom
 * entries on its RPC stdout, the leader's answers and roster come in through its extension
 * command. Used only when the teammate shares no files with the leader (ENV.transport `stream`).
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { TeamError } from "../errors.ts";
import type { RosterFile } from "../mail/index.ts";
import { STREAM_COMMAND, STREAM_ENTRY_TYPE, StreamDownSchema, type StreamAnswer, type StreamRecord, type StreamRequest } from "../mail/stream-wire.ts";
import { checkValue, type ReadResult } from "../store/index.ts";

/** How long a request waits for the leader's answer, ms: as long as a board decision may take. */
export const STREAM_ANSWER_TIMEOUT_MS = 120_000;

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
      description: "pi-resident-teams: the leader's answers on the stream transport (not for users)",
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
  async request(record: StreamRequest, timeoutMs: number = STREAM_ANSWER_TIMEOUT_MS): Promise<StreamAnswer> {
    let timer: NodeJS.Timeout | undefined;
    const answered = new Promise<StreamAnswer>((resolve) => this.#waiting.set(record.id, resolve));
    try {
      this.emit(record);
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new TeamError("timeout", `No answer from the leader within ${timeoutMs} ms; the leader may be busy or gone. Try again later.`)), timeoutMs);
      });
      return await Promise.race([answered, timedOut]);
    } finally {
      clearTimeout(timer);
      this.#waiting.delete(record.id);
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
