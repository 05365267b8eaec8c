/**
 * Small helpers the phases' scripted models share: what a conversation already did and
 * received, reply builders, and bounded waits (never fixed sleeps).
 */
import type { ChatMessage, Reply } from "../tests/support/scripted-model.ts";
import { contentText } from "../tests/support/scripted-model.ts";
import { wrappedBlocks, type Wrapped } from "./transcript.ts";

/** The tool calls a model made earlier in this conversation. */
export function pastCalls(messages: ChatMessage[]): { name: string; args: Record<string, unknown> }[] {
  const out: { name: string; args: Record<string, unknown> }[] = [];
  for (const m of messages) {
    for (const tc of m.tool_calls ?? []) {
      let args: Record<string, unknown> = {};
      try {
        args = JSON.parse(tc.function.arguments) as Record<string, unknown>;
      } catch {
        // keep {}
      }
      out.push({ name: tc.function.name, args });
    }
  }
  return out;
}

/** The messages after the last user message that contains `text` (this phase's part of a session). */
export function since(messages: ChatMessage[], text: string): ChatMessage[] {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === "user" && contentText(m.content).includes(text)) return messages.slice(i);
  }
  return [];
}

/** Every harness-wrapped block the model was given as user input. */
export function received(messages: ChatMessage[]): Wrapped[] {
  return messages.filter((m) => m.role === "user").flatMap((m) => wrappedBlocks(contentText(m.content)));
}

/** A reply with one tool call. */
export function call(name: string, args: Record<string, unknown>): Reply {
  return { toolCalls: [{ name, arguments: args }] };
}

/** Rejects with "timed out after <ms> ms: <what>" unless `p` settles first. */
export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** Checks `fn` every 25 ms until it returns something other than undefined; undefined after `ms`. */
export async function poll<T>(fn: () => T | undefined | Promise<T | undefined>, ms: number): Promise<T | undefined> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined || Date.now() >= end) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
}
