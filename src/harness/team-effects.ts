import { TeamError } from "../errors.ts";
import type { InboxRecord } from "../mail/index.ts";
import type { TeammateEffect, TeammateEvent } from "../team/lifecycle.ts";
import type { Member } from "../team/member.ts";
import { crashText, reportText } from "../team/prompts.ts";
import type { ResolvedHarnessOptions } from "./harness-types.ts";
import type { ActivityChange } from "../team/team-activity.ts";
import type { TeamBus } from "../team/bus.ts";
import type { SendWaits } from "./send-waits.ts";
import { releaseHoldings } from "./teammate-exit.ts";

/** What carrying out an effect needs of the `TeamDriver` that owns the executor. */
export interface EffectHost {
  readonly waits: SendWaits;
  /** What the harness tells the outside. */
  readonly bus: TeamBus;
  /** Starts one leader turn with a `<harness-event>` (nothing once the session is ending). */
  event(type: string, teammate: string, body: string): void;
  /** Records a console note. */
  note(text: string, m?: Member): void;
  /** Calls a board hook; a throw is noted, never propagated. */
  hook(call: () => void, m?: Member): void;
  /** Appends a job that produces events to `m`'s queue. */
  enqueue(m: Member, job: () => TeammateEvent[] | Promise<TeammateEvent[]>): Promise<void>;
  /** Writes the roster if what it shows changed. */
  writeRoster(): Promise<void>;
}

/**
 * The effect executor of one session's team: carries out each effect the pure lifecycle
 * (src/team/lifecycle.ts) returns for a teammate, as I/O on its child, the leader's deliveries
 * and the board's hooks. Its answers (a prompt accepted or not) come back as events on the
 * teammate's queue, never as a direct state change.
 */
export class TeamEffects {
  readonly #o: ResolvedHarnessOptions;
  readonly #host: EffectHost;
  /** Tells the host's activity listeners (headless runs). */
  readonly #changed: (change: ActivityChange) => void;

  constructor(options: ResolvedHarnessOptions, host: EffectHost, changed: (change: ActivityChange) => void) {
    this.#o = options;
    this.#host = host;
    this.#changed = changed;
  }

  /** Carries out one effect for `m`. @throws TeamError `illegal_transition` for an unknown effect. */
  execute(m: Member, e: TeammateEffect): void {
    const host = this.#host;
    switch (e.type) {
      case "send":
        this.#send(m, e);
        break;
      case "deliver_report":
        host.bus.emit({ type: "delivery", delivery: { kind: "report", record: e.record, text: reportText(e.record) } });
        this.#changed("delivery");
        break;
      case "harness_event":
        host.event(e.event.type, m.name, e.event.body);
        break;
      case "crash_event": {
        // `claims` names what the crash released (the `board_gone` just before).
        const { name, agent, log } = m.facts;
        host.event("teammate_crashed", m.name, crashText({ name, agent, log, how: e.how, undelivered: e.undelivered, stderrTail: e.stderrTail, claims: [...e.claims] }));
        break;
      }
      case "health":
        host.event("teammate_stalled", m.name, e.body);
        break;
      case "leader_result":
        host.waits.route(e.id, e.result);
        break;
      case "queue_leader_message":
        void this.#queue(m, e.record).finally(() => host.waits.route(e.id, "queued"));
        break;
      case "mail_delivered":
        host.bus.emit({ type: "mail_delivered", delivery: { teammate: m.name, via: e.via, records: [...e.records], at: this.#o.clock.now() } });
        break;
      case "write_roster":
        void host.writeRoster();
        break;
      case "board_idle":
        host.bus.emit({ type: "idle", member: m });
        break;
      case "board_gone":
        host.bus.emit({ type: "gone", member: m, reason: e.reason });
        break;
      case "stop_process":
        void m.proc?.stop({ graceMs: this.#o.stopGraceMs, termGraceMs: this.#o.stopGraceMs });
        break;
      case "release":
        // `closed` resolves once `stopped`, or at once when the session has ended meanwhile (L29).
        void releaseHoldings(host, this.#o, m, e).then((captured) => host.enqueue(m, () => [{ type: "captured", ...captured }])).finally(() => m.markClosed());
        break;
      case "note":
        host.note(e.text, m);
        break;
      case "lifeline":
        host.note(e.text, m);
        host.bus.emit({ type: "lifeline", member: m, text: e.text, ok: e.ok });
        break;
      default: {
        const never: never = e;
        throw new TeamError("illegal_transition", `unknown teammate effect ${JSON.stringify(never)}`);
      }
    }
  }

  /**
   * Holds a leader message for `m`'s next wake, in memory with its other pending mail: the
   * leader speaks over the child's stdin only, never through a file a teammate could also write
   * (references/security.md). Never rejects.
   */
  #queue(m: Member, record: InboxRecord): Promise<void> {
    this.#host.note(`${record.from} → ${m.name}: queued`, m);
    return m.living ? this.#host.enqueue(m, () => [{ type: "mail", records: [record] }]) : Promise.resolve();
  }

  /**
   * A prompt into the child. Steers go as `prompt` with streamingBehavior "steer", not as a
   * `steer` command: when the run has just ended (its agent_settled not seen yet) a `steer` would
   * wait in Pi's queue for some later prompt, while this prompt starts a new run at once.
   */
  #send(m: Member, e: Extract<TeammateEffect, { type: "send" }>): void {
    const proc = m.proc;
    const steer = e.kind === "steer" || e.kind === "leader_steer";
    const answer = (event: TeammateEvent, error?: string): void => {
      if (e.kind === "kickoff") this.#host.waits.answerKickoff(m, error);
      void this.#host.enqueue(m, () => [event]);
    };
    if (!proc) return answer({ type: "sent", ticket: e.ticket, ok: false, error: "no process" }, "no process");
    proc.child.prompt(e.text, { streamingBehavior: steer ? "steer" : "followUp" }).then(
      (r) => answer({ type: "sent", ticket: e.ticket, ok: true, started: steer && r.disposition === "started" }),
      (error: unknown) => {
        const text = error instanceof Error ? error.message : String(error);
        answer({ type: "sent", ticket: e.ticket, ok: false, error: text }, text);
      },
    );
  }
}
