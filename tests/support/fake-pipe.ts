/**
 * A fake Pi around a teammate's pipe (src/worker/stream-link.ts), for unit tests of the worker
 * side: what the teammate emits as stream records, and the leader's side of its stdin, which runs
 * a `/command args` line the way Pi runs an extension command from a prompt.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { STREAM_ENTRY_TYPE, streamCommandText, type StreamDown, type StreamRecord } from "../../src/mail/stream-wire.ts";

/** The fake and what it captured; `extra` adds API members (registerTool, on). */
export function fakePipePi(extra: Record<string, unknown> = {}) {
  const sent: StreamRecord[] = [];
  const commands = new Map<string, (args: string) => Promise<void> | void>();
  const pi = {
    appendEntry: (type: string, data: StreamRecord) => {
      if (type !== STREAM_ENTRY_TYPE) throw new Error(`unexpected entry type ${type}`);
      sent.push(data);
    },
    registerCommand: (name: string, o: { handler: (args: string) => Promise<void> | void }) => void commands.set(name, o.handler),
    ...extra,
  } as unknown as ExtensionAPI;
  /** Runs one prompt line on the teammate as Pi does: `/name args` calls command `name` with `args`. */
  const prompt = async (text: string): Promise<void> => {
    const space = text.indexOf(" ");
    const name = text.slice(1, space === -1 ? undefined : space);
    const handler = text.startsWith("/") ? commands.get(name) : undefined;
    if (!handler) throw new Error(`no command for ${text.slice(0, 40)}`);
    await handler(space === -1 ? "" : text.slice(space + 1));
  };
  /** Writes `down` to the teammate's stdin as the leader does. */
  const leader = (down: StreamDown): Promise<void> => prompt(streamCommandText(down));
  return { pi, sent, prompt, leader, commands };
}
