/**
 * The demo's printer: one line per observation, stamped with the milliseconds since the demo
 * started, plus helpers that turn what a model call received (and answered) into short text.
 * Nothing here invents an event; callers pass what they observed.
 */
import type { ChatMessage, ModelCall, Reply } from "../tests/support/scripted-model.ts";
import { contentText } from "../tests/support/scripted-model.ts";

const WHO_WIDTH = 12;

/** Collapses whitespace and cuts `text` to `max` characters (with an ellipsis). */
export function quote(text: string, max = 96): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return `"${flat.length > max ? `${flat.slice(0, max - 1)}…` : flat}"`;
}

/** Prints timestamped transcript lines to stdout. */
export class Transcript {
  readonly t0: number;

  constructor(t0 = Date.now()) {
    this.t0 = t0;
  }

  /** Milliseconds since the start of the demo. */
  ms(at = Date.now()): number {
    return at - this.t0;
  }

  /** One observation; extra lines are indented under the first. */
  line(who: string, text: string, ...more: string[]): void {
    const stamp = `+${String(this.ms()).padStart(6)} ms`;
    const pad = " ".repeat(stamp.length + 2 + WHO_WIDTH + 1);
    const out = [`${stamp}  ${who.padEnd(WHO_WIDTH)} ${text}`, ...more.map((m) => `${pad}${m}`)];
    process.stdout.write(`${out.join("\n")}\n`);
  }

  heading(title: string): void {
    process.stdout.write(`\n== ${title} ${"=".repeat(Math.max(3, 72 - title.length))}\n`);
  }

  plain(text = ""): void {
    process.stdout.write(`${text}\n`);
  }
}

/** A block the harness wrapped around text for a model: kickoff, mail, report or harness event. */
export interface Wrapped {
  kind: "assignment" | "teammate-mail" | "teammate-report" | "harness-event";
  from: string;
  status?: string;
  body: string;
}

const BLOCK = /<(assignment|teammate-mail|teammate-report|harness-event)\b([^>]*)>\n?([\s\S]*?)\n?<\/\1>/g;

/** Finds every harness wrapper in a message text, in order. */
export function wrappedBlocks(text: string): Wrapped[] {
  const out: Wrapped[] = [];
  for (const m of text.matchAll(BLOCK)) {
    const attrs = m[2] ?? "";
    const attr = (name: string): string | undefined => new RegExp(`${name}="([^"]*)"`).exec(attrs)?.[1];
    const kind = m[1] as Wrapped["kind"];
    const status = attr("status");
    out.push({ kind, from: attr("from") ?? attr("teammate") ?? "?", ...(status ? { status } : {}), body: m[3] ?? "" });
  }
  return out;
}

/** The messages a call added since the caller's own last answer (user turns and tool results). */
export function newInput(call: ModelCall): ChatMessage[] {
  let i = call.messages.length;
  while (i > 0 && call.messages[i - 1]?.role !== "assistant") i--;
  return call.messages.slice(i).filter((m) => m.role !== "system" && m.role !== "developer");
}

/** Short descriptions of what a model call received that is new to it. */
export function describeInput(call: ModelCall): string[] {
  const out: string[] = [];
  for (const m of newInput(call)) {
    const text = contentText(m.content);
    if (m.role === "tool") {
      out.push(`tool result ${quote(text, 80)}`);
      continue;
    }
    const blocks = wrappedBlocks(text);
    if (blocks.length === 0) {
      out.push(`${m.role} ${quote(text, 80)}`);
      continue;
    }
    for (const b of blocks) {
      if (b.kind === "assignment") out.push(`kickoff from ${b.from} ${quote(b.body, 70)}`);
      if (b.kind === "teammate-mail") out.push(`mail from ${b.from} ${quote(b.body, 70)}`);
      if (b.kind === "teammate-report") out.push(`report from ${b.from} [${b.status ?? "?"}] ${quote(b.body, 60)}`);
      if (b.kind === "harness-event") out.push(`harness event about ${b.from} ${quote(b.body, 60)}`);
    }
  }
  return out;
}

/** Short description of a scripted answer. */
export function describeReply(reply: Reply): string {
  const parts: string[] = [];
  for (const tc of reply.toolCalls ?? []) {
    const args = tc.arguments as Record<string, unknown>;
    const shown = Object.entries(args)
      .map(([k, v]) => `${k}: ${typeof v === "string" ? quote(v, 48) : JSON.stringify(v)}`)
      .join(", ");
    parts.push(`${tc.name}(${shown})`);
  }
  if (reply.text) parts.push(`text ${quote(reply.text, 70)}`);
  if (reply.error) parts.push(`error ${quote(reply.error, 70)}`);
  const delay = reply.delayMs ? ` (answer held ${reply.delayMs} ms)` : "";
  return `${parts.join(" + ") || "(empty)"}${delay}`;
}
