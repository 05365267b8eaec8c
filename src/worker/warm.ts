/**
 * Takes cold costs off a teammate's first messages. Pi compiles a validator for a tool's
 * parameter schema at that tool's first call and keeps it per schema object (pi-ai
 * `validateToolArguments`); for send_message that took some 10-20 ms of the first peer message
 * or report of every fresh teammate (bench/leader-pi.ts), 2-10 ms more for each board tool's
 * first call. Our own send path paid the same kind of cost: compiling the roster and record
 * checkers and V8's first runs of the seal and record code, 5-15 ms over the first messages.
 * Once the teammate sits idle after its start, the same pi-ai function is asked to validate an
 * empty call of each worker tool, and our checkers are compiled and a throwaway record is made
 * and sealed. No tool executes, no file is written, no request is made.
 */
import { validateToolArguments, type Tool } from "@earendil-works/pi-ai";
import type { TSchema } from "typebox";
import { makeInboxRecord, makeOutboxRecord, parseInboxRecord, parseOutboxRecord, precompileMailCheckers } from "../mail/index.ts";

/** How long after the session started (or a run ended) the teammate must be idle before warming, ms. */
export const WARM_AFTER_MS = 300;

/** What the warm-up needs of the session (Pi's ExtensionContext). */
export interface IdleProbe {
  isIdle(): boolean;
  hasPendingMessages(): boolean;
}

/**
 * Compiles pi's argument validators of `tools` (name and parameter schema, the very objects
 * registered with Pi) now. An empty call fails validation for tools with required fields, which
 * is expected and ignored. Never throws.
 */
export function warmValidators(tools: readonly { name: string; parameters: TSchema }[]): void {
  for (const t of tools) {
    try {
      validateToolArguments({ name: t.name, description: "", parameters: t.parameters } as Tool, { type: "toolCall", id: "warm", name: t.name, arguments: {} });
    } catch {
      // An empty call of a tool with required parameters is invalid; the validator is cached anyway.
    }
  }
}

/**
 * Compiles the checkers of the records a teammate reads and writes, and makes, seals and checks
 * one throwaway inbox record and one report under a throwaway key, a few times (V8 optimises a
 * function after some calls). Nothing is written. Never throws.
 */
export function warmMailPath(): void {
  try {
    precompileMailCheckers();
    const key = Buffer.alloc(32);
    for (let i = 0; i < 20; i++) {
      parseInboxRecord(makeInboxRecord({ from: "warm", fromSpawnId: "warm", to: "warm", body: "warm" }, Date.now(), key));
      parseOutboxRecord(makeOutboxRecord({ from: "warm", spawnId: "warm", body: "warm", status: "in_progress" }, key));
    }
  } catch {
    // a warm-up that fails costs nothing but the cold start it meant to save
  }
}

/**
 * Returns `poke`: call it at session start and at every run's end; WARM_AFTER_MS later, if the
 * teammate is idle with nothing queued, it warms `tools` once. A teammate that is busy then
 * (a kickoff) is warmed at the first idle moment after a run.
 */
export function warmWhenIdle(tools: readonly { name: string; parameters: TSchema }[], ctx: () => IdleProbe | undefined): () => void {
  let done = false;
  let timer: NodeJS.Timeout | undefined;
  return () => {
    if (done || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      try {
        const c = ctx();
        if (done || !c || !c.isIdle() || c.hasPendingMessages()) return;
        done = true;
        warmValidators(tools);
        warmMailPath();
      } catch {
        done = true; // a session that went away (or a Pi without these methods) is simply not warmed
      }
    }, WARM_AFTER_MS);
    timer.unref();
  };
}
