/**
 * A `Spawner` for unit tests of the leader's harness: each spawn returns a `PiChild` over
 * in-memory pipes (tests/support/fake-rpc-child.ts) and no process. The test plays Pi: it reads
 * what the harness wrote (`wire.nextWritten`), answers and emits events (`wire.reply`), and ends
 * the child (`exit`). Like Pi, a child answers `get_state` and `abort` by itself (unless told to
 * hold `get_state`) and exits with code 0 when its stdin ends.
 */
import { waitReady, type ChildExit, type PiChild, type SpawnPiChildOptions, type Spawner, type StopOptions } from "../../src/process/index.ts";
import type { RpcSessionState } from "../../src/process/rpc-types.ts";
import { fakeChild, type Wire } from "./fake-rpc-child.ts";

/** What `get_state` answers. */
export const FAKE_STATE = {
  thinkingLevel: "off",
  isStreaming: false,
  isCompacting: false,
  steeringMode: "one-at-a-time",
  followUpMode: "one-at-a-time",
  sessionId: "fake",
  autoCompactionEnabled: true,
  messageCount: 0,
  pendingMessageCount: 0,
};

/** One fake child: the PiChild the harness holds, plus the test's side of it. */
export interface FakePi {
  readonly proc: PiChild;
  readonly options: SpawnPiChildOptions;
  readonly wire: ReturnType<typeof fakeChild>;
  /** Ends the process (`close`) with this status, as a crash or an orderly exit. */
  exit(code: number | null, signal?: NodeJS.Signals | null): void;
  /** The next command of `type` written to the child (commands are kept per type, in order). */
  next(type: string): Promise<Wire>;
  /** Answers command `w`: `data` on success, else `data` is the error text. */
  respond(w: Wire, data?: unknown, success?: boolean): void;
  /** `next(type)`, then `respond` to it. */
  answer(type: string, data?: unknown, success?: boolean): Promise<Wire>;
  /** Writes one RPC event, e.g. `{ type: "agent_start" }`. */
  emit(event: object): void;
  /** Answers the `get_state` held by `holdReady`. */
  ready(): Promise<void>;
}

/** Options of {@link fakeSpawner}. */
export interface FakeSpawnerOptions {
  /** Do not answer `get_state` by itself; the test calls `ready()` (or never does). */
  holdReady?: boolean;
  /** Called before each spawn completes; a throw fails the spawn, a promise holds it. */
  before?: (options: SpawnPiChildOptions) => void | Promise<void>;
}

/** A fake `Spawner` and the children it made, in spawn order. */
export function fakeSpawner(opts: FakeSpawnerOptions = {}): { spawner: Spawner; children: FakePi[]; spawned(): Promise<FakePi> } {
  const children: FakePi[] = [];
  const waiting: ((pi: FakePi) => void)[] = [];
  let pids = 4000;
  const spawner: Spawner = async (options) => {
    await opts.before?.(options);
    const pi = fakePi(options, (pids += 1), opts.holdReady === true);
    children.push(pi);
    waiting.shift()?.(pi);
    return pi.proc;
  };
  return {
    spawner,
    children,
    /** Resolves with the next child spawned from now on, or the latest if none is awaited yet. */
    spawned: () => new Promise((resolve) => waiting.push(resolve)),
  };
}

function fakePi(options: SpawnPiChildOptions, pid: number, holdReady: boolean): FakePi {
  const wire = fakeChild({ label: `${options.label ?? "pi child"} (pid ${pid})`, ...(options.answerUi ? { answerUi: options.answerUi } : {}) });
  const lifetime = new AbortController();
  let reason: ChildExit["reason"] | undefined;
  let stopping = false;
  let resolveExit!: (exit: ChildExit) => void;
  const exited = new Promise<ChildExit>((resolve) => (resolveExit = resolve));
  const exit = (code: number | null, signal: NodeJS.Signals | null = null): void => {
    if (reason !== undefined) return;
    reason = stopping ? "stopped" : code === 0 && signal === null ? "exited" : "crashed";
    const record: ChildExit = { code, signal, reason };
    wire.client.close(record);
    lifetime.abort();
    resolveExit(record);
  };
  // Pi exits once its stdin ends.
  wire.toChild.on("finish", () => queueMicrotask(() => exit(0)));
  // Commands by type, in order; the auto-answered ones never reach the test.
  const queued = new Map<string, Wire[]>();
  const waiters = new Map<string, ((w: Wire) => void)[]>();
  let readyCommand: Wire | undefined;
  const reply = (w: Wire, data: unknown, success = true): void =>
    wire.reply({ id: w.id, type: "response", command: w.type, success, ...(success ? { data } : { error: String(data) }) });
  const pump = async (): Promise<void> => {
    for (;;) {
      const w = await wire.nextWritten();
      if (w.type === "get_state" && !holdReady) reply(w, FAKE_STATE);
      else if (w.type === "get_state") readyCommand = w;
      else if (w.type === "abort") reply(w, undefined);
      else {
        const waiter = waiters.get(w.type)?.shift();
        if (waiter) waiter(w);
        else queued.set(w.type, [...(queued.get(w.type) ?? []), w]);
      }
    }
  };
  void pump();
  const next = (type: string): Promise<Wire> => {
    const w = queued.get(type)?.shift();
    if (w) return Promise.resolve(w);
    return new Promise((resolve) => waiters.set(type, [...(waiters.get(type) ?? []), resolve]));
  };
  const proc: PiChild = {
    child: wire.client,
    pid,
    exited,
    lifetime: lifetime.signal,
    get terminationReason() {
      return reason;
    },
    get running() {
      return reason === undefined;
    },
    stderrLogPath: options.stderrLog,
    stderrTail: () => "",
    waitReady: (timeoutMs: number): Promise<RpcSessionState> => waitReady(wire.client, timeoutMs),
    stop: (_options?: StopOptions): Promise<ChildExit> => {
      stopping = true;
      wire.client.endInput("it is being stopped");
      return exited;
    },
  };
  return {
    proc,
    options,
    wire,
    exit,
    next,
    respond: reply,
    answer: async (type, data, success = true) => {
      const w = await next(type);
      reply(w, data, success);
      return w;
    },
    emit: (event) => wire.reply(event),
    ready: async () => {
      for (let i = 0; i < 100 && !readyCommand; i += 1) await new Promise((r) => setImmediate(r));
      if (!readyCommand) throw new Error("fake pi: no get_state to answer");
      reply(readyCommand, FAKE_STATE);
    },
  };
}
