/**
 * Receives the harness's two delivery callbacks and turns them into timestamps per record id,
 * so a benchmark can await "this record reached its destination" and read when it happened.
 */
import type { HarnessNote, LeaderDelivery, MailDelivery } from "../../src/team/leader-delivery.ts";
import type { RpcChild, RpcCommand } from "../../src/process/index.ts";

/** Where a record ended up: a teammate's control stream (steer / wake) or a leader turn. */
export type Via = MailDelivery["via"] | "report";

/** One delivery seen by the probe; `t` is `performance.now()` inside the harness callback. */
export interface Hit {
  t: number;
  via: Via;
  /** Number of records delivered together in that callback. */
  batch: number;
  /** For mail: when the harness wrote the `steer` / `prompt` command that carried it to the child. */
  sentAt?: number;
}

/** Collects harness signals. Subscribe `onMail`, `onDeliver` and `onNote` to the harness (`on`). */
export class DeliveryProbe {
  readonly #hits = new Map<string, Hit>();
  readonly #waiters = new Map<string, (hit: Hit) => void>();
  /** Every callback invocation: mail batches (steer / wake) and leader deliveries. */
  readonly callbacks = { steer: 0, wake: 0, report: 0, harnessEvent: 0 };
  readonly notes: HarnessNote[] = [];
  /** Last time the harness wrote a `steer` or `prompt` command to each teammate (see `watchCommands`). */
  readonly #lastSend = new Map<string, number>();

  /**
   * Timestamps every `steer` / `prompt` the harness writes to `child` (teammate `name`), so a
   * mail delivery can be split into harness time (write → command sent) and child time
   * (command sent → accepted). Deliveries to one teammate are serialized by the harness, so
   * the last command sent before a `mail_delivered` signal is the one that carried its mail.
   */
  watchCommands(name: string, child: RpcChild): void {
    const send = child.send.bind(child);
    const wrapped = (command: RpcCommand, options?: Parameters<RpcChild["send"]>[1]) => {
      if (command.type === "steer" || command.type === "prompt") this.#lastSend.set(name, performance.now());
      return send(command, options);
    };
    Object.assign(child, { send: wrapped });
  }

  readonly onMail = (e: MailDelivery): void => {
    const t = performance.now();
    this.callbacks[e.via] += 1;
    const sentAt = this.#lastSend.get(e.teammate);
    for (const r of e.records) this.#hit(r.id, { t, via: e.via, batch: e.records.length, ...(sentAt === undefined ? {} : { sentAt }) });
  };

  readonly onDeliver = (d: LeaderDelivery): void => {
    const t = performance.now();
    if (d.kind === "harness_event") {
      this.callbacks.harnessEvent += 1;
      return;
    }
    this.callbacks.report += 1;
    this.#hit(d.record.id, { t, via: "report", batch: 1 });
  };

  readonly onNote = (n: HarnessNote): void => {
    this.notes.push(n);
  };

  /**
   * Resolves with the delivery of record `id` (already seen or future); resolves with undefined
   * after `timeoutMs` so one lost record does not stop the run.
   */
  wait(id: string, timeoutMs: number): Promise<Hit | undefined> {
    const seen = this.#hits.get(id);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#waiters.delete(id);
        resolve(undefined);
      }, timeoutMs);
      this.#waiters.set(id, (hit) => {
        clearTimeout(timer);
        resolve(hit);
      });
    });
  }

  #hit(id: string, hit: Hit): void {
    if (!this.#hits.has(id)) this.#hits.set(id, hit);
    const waiter = this.#waiters.get(id);
    if (waiter) {
      this.#waiters.delete(id);
      waiter(hit);
    }
  }
}
