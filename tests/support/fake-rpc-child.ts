/**
 * An `RpcChild` over in-memory pipes, for unit tests: the test plays Pi, writing stdout records
 * with `reply` and reading what the client wrote with `nextWritten`.
 */
import { PassThrough } from "node:stream";
import { attachJsonlReader, RpcChild, type RpcChildOptions } from "../../src/process/index.ts";

/** One JSON record on the wire. */
export type Wire = Record<string, unknown> & { type: string; id?: string };

/** Options of {@link fakeChild}: any `RpcChildOptions` but the pipes. Clock default: always 1000. */
export type FakeChildOptions = Partial<Omit<RpcChildOptions, "input" | "output">>;

/** An RpcChild labelled `fake child` whose stderr tail is `panic: out of cheese`. */
export function fakeChild(options: FakeChildOptions = {}) {
  const toChild = new PassThrough();
  const fromChild = new PassThrough();
  const written: Wire[] = [];
  const unread: Wire[] = [];
  const waiting: ((record: Wire) => void)[] = [];
  attachJsonlReader(toChild, (line) => {
    const record = JSON.parse(line) as Wire;
    written.push(record);
    const waiter = waiting.shift();
    if (waiter) waiter(record);
    else unread.push(record);
  });
  const client = new RpcChild({
    input: toChild,
    output: fromChild,
    label: "fake child",
    stderrTail: () => "panic: out of cheese",
    now: () => 1000,
    ...options,
  });
  return {
    client,
    toChild,
    fromChild,
    written,
    /** Resolves with the next record the client writes that no earlier call consumed. */
    nextWritten(): Promise<Wire> {
      const record = unread.shift();
      return record ? Promise.resolve(record) : new Promise((resolve) => waiting.push(resolve));
    },
    reply(record: object): void {
      fromChild.write(`${JSON.stringify(record)}\n`);
    },
  };
}
