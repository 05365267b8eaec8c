/**
 * Typed convenience layer over `send`, `onEvent` and `onEnd` (the base class of `RpcChild`),
 * plus `waitReady`.
 */
import { TeamError } from "../errors.ts";
import type { ChildExitedError } from "./child-errors.ts";
import type { RpcCommand, RpcEvent, RpcImage, RpcResponseData, RpcSessionState, StreamingBehavior } from "./rpc-types.ts";

/** Per-call options of `send` and the helpers. */
export interface SendOptions {
  /** Overrides the default request timeout, in ms; `0` disables it. */
  timeoutMs?: number;
}

/** Options of `nextEvent`. */
export interface NextEventOptions<E> {
  /** In ms; default: the child's request timeout. `0` waits forever (until the child ends). */
  timeoutMs?: number;
  /** Only resolve with an event for which this returns true. Must not throw. */
  predicate?: (event: E) => boolean;
}

/** Helpers shared by every RPC child client; subclasses implement the four primitives. */
export abstract class RpcCommands {
  /** Names the child in error messages. */
  abstract readonly label: string;
  /** Default timeout of requests and `nextEvent`, in ms. */
  abstract readonly requestTimeoutMs: number;
  /** Send one command; resolve with its typed data (see `RpcChild.send`). */
  abstract send<C extends RpcCommand>(command: C, options?: SendOptions): Promise<RpcResponseData[C["type"]]>;
  /** Subscribe to session events. @returns unsubscribe. */
  abstract onEvent(listener: (event: RpcEvent) => void): () => void;
  /** Called once when the child can no longer answer. @returns unsubscribe. */
  abstract onEnd(listener: (error: ChildExitedError) => void): () => void;

  /**
   * Send a user prompt. `streamingBehavior` is required: Pi ignores it when the child is idle
   * (the prompt starts a run, disposition `started`) and uses it to queue the prompt while a run
   * is active (`queued`); without it a busy child rejects the prompt (L3, verified on Pi 1.6.0,
   * see references/rpc-usage.md). Subscribe with `onEvent`/`nextEvent` BEFORE calling this: a
   * fast run's events can arrive in the same chunk as the response. `handled` means no run.
   * @throws as `send`.
   */
  prompt(
    message: string,
    options: { streamingBehavior: StreamingBehavior; images?: RpcImage[] } & SendOptions,
  ): Promise<RpcResponseData["prompt"]> {
    const { streamingBehavior, images, timeoutMs } = options;
    return this.send({ type: "prompt", message, streamingBehavior, ...(images ? { images } : {}) }, { timeoutMs });
  }

  /** Queue a steering message (delivered before the next LLM call). @throws as `send`. */
  steer(message: string, options?: SendOptions): Promise<RpcResponseData["steer"]> {
    return this.send({ type: "steer", message }, options);
  }

  /** Queue a follow-up (delivered when the agent would otherwise stop). @throws as `send`. */
  followUp(message: string, options?: SendOptions): Promise<RpcResponseData["follow_up"]> {
    return this.send({ type: "follow_up", message }, options);
  }

  /** Abort the current run; resolves once Pi reports the session idle (W3). @throws as `send`. */
  async abort(options?: SendOptions): Promise<void> {
    await this.send({ type: "abort" }, options);
  }

  /** `get_state`: streaming flag, queue size, session id. @throws as `send`. */
  getState(options?: SendOptions): Promise<RpcSessionState> {
    return this.send({ type: "get_state" }, options);
  }

  /** Text of the last assistant message, or null. @throws as `send`. */
  async getLastAssistantText(options?: SendOptions): Promise<string | null> {
    return (await this.send({ type: "get_last_assistant_text" }, options)).text;
  }

  /**
   * Resolve with the next event of `type` (matching `predicate` if given). Subscribe (call this)
   * before triggering the event.
   * @throws (rejects) `TeamError` `timeout` after `timeoutMs`; `ChildExitedError` when the child
   *   ends (or its stdin breaks) first.
   */
  nextEvent<T extends RpcEvent["type"]>(
    type: T,
    options: NextEventOptions<Extract<RpcEvent, { type: T }>> = {},
  ): Promise<Extract<RpcEvent, { type: T }>> {
    const timeoutMs = options.timeoutMs ?? this.requestTimeoutMs;
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      let settled = false;
      const cleanups: (() => void)[] = [];
      const finish = (): void => {
        settled = true;
        if (timer) clearTimeout(timer);
        for (const cleanup of cleanups.splice(0)) cleanup();
      };
      cleanups.push(
        this.onEvent((event) => {
          if (event.type !== type) return;
          const typed = event as Extract<RpcEvent, { type: T }>;
          if (options.predicate && !options.predicate(typed)) return;
          finish();
          resolve(typed);
        }),
      );
      cleanups.push(
        this.onEnd((error) => {
          finish();
          reject(error);
        }),
      );
      if (settled) return finish(); // onEnd fired synchronously: the child had already ended
      if (timeoutMs > 0) {
        timer = setTimeout(() => {
          finish();
          reject(new TeamError("timeout", `${this.label}: no ${type} event within ${timeoutMs} ms.`));
        }, timeoutMs);
      }
    });
  }
}

/**
 * Wait until the child answers `get_state`: Pi answers its first command only after startup
 * finished, so this is the readiness probe (no fixed sleeps).
 * @returns the session state.
 * @throws `TeamError` `timeout` (naming `timeoutMs` and the stderr tail) when no answer came in
 *   time; `ChildExitedError` when the child exited during startup.
 */
export async function waitReady(child: RpcCommands, timeoutMs: number): Promise<RpcSessionState> {
  try {
    return await child.getState({ timeoutMs });
  } catch (error) {
    if (error instanceof TeamError && error.code === "timeout") {
      throw new TeamError("timeout", `${child.label} was not ready within ${timeoutMs} ms. ${error.message}`, { cause: error });
    }
    throw error;
  }
}
