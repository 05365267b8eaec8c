/**
 * The table of RPC requests awaiting a response: one entry per id, each with its own timer that
 * is cleared whenever the entry settles (style practice 7).
 */
import type { RpcCommandType, RpcResponse } from "./rpc-types.ts";

/** One request in flight. */
export interface PendingRequest {
  id: string;
  command: RpcCommandType;
  /** Settle from a response whose `command` matches; validates data, resolves or rejects. */
  settle: (response: RpcResponse) => void;
  reject: (error: Error) => void;
}

interface Entry extends PendingRequest {
  timer: NodeJS.Timeout | undefined;
}

/** Requests in flight of one RpcChild, by id. Not shared between children. */
export class PendingRequests {
  #entries = new Map<string, Entry>();

  /** Number of requests in flight. */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * Track `request`. After `timeoutMs` (> 0) without `take`, it is removed and rejected with
   * `onTimeout()`. `timeoutMs <= 0` means no timer.
   */
  add(request: PendingRequest, timeoutMs: number, onTimeout: () => Error): void {
    const entry: Entry = { ...request, timer: undefined };
    if (timeoutMs > 0) {
      entry.timer = setTimeout(() => {
        if (this.#entries.get(request.id) !== entry) return;
        this.#entries.delete(request.id);
        entry.reject(onTimeout());
      }, timeoutMs);
    }
    this.#entries.set(request.id, entry);
  }

  /** Remove and return the request with `id` (timer cleared), or undefined if none is pending. */
  take(id: string): PendingRequest | undefined {
    const entry = this.#entries.get(id);
    if (!entry) return undefined;
    this.#entries.delete(id);
    if (entry.timer) clearTimeout(entry.timer);
    return entry;
  }

  /** Reject every pending request with the same `error` and clear all timers. */
  rejectAll(error: Error): void {
    const entries = [...this.#entries.values()];
    this.#entries.clear();
    for (const entry of entries) {
      if (entry.timer) clearTimeout(entry.timer);
      entry.reject(error);
    }
  }

  /** `get_state#r1, prompt#r2` (for error messages); empty when nothing is pending. */
  summary(): string {
    return [...this.#entries.values()].map((e) => `${e.command}#${e.id}`).join(", ");
  }
}
