/**
 * Reading what was delivered and what was written, for counting by id: the mail a teammate's
 * model saw (its requests), the reports the leader's session got, and the raw JSONL records in
 * the mailbox files (read here line by line, independently of the product's cursor).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { contentText, type ModelCall } from "../../support/scripted-model.ts";

/** One `<teammate-mail>` block a model saw. */
export interface SeenMail {
  from: string;
  body: string;
}

const MAIL = /<teammate-mail from="([^"]*)">\n([\s\S]*?)\n<\/teammate-mail>/g;

/** Every `<teammate-mail>` block in the user messages of one request, in order. */
export function mailInCall(call: ModelCall | undefined): SeenMail[] {
  if (!call) return [];
  const out: SeenMail[] = [];
  for (const m of call.messages) {
    if (m.role !== "user") continue;
    for (const match of contentText(m.content ?? null).matchAll(MAIL)) out.push({ from: match[1]!, body: match[2]! });
  }
  return out;
}

/** One JSONL record of a mailbox file, as written. */
export interface FileRecord {
  id: string;
  from: string;
  body: string;
  to?: string;
  spawnId?: string;
  fromSpawnId?: string;
  status?: string;
}

/**
 * The records of a mailbox file and its rotated copies (`<dir>/rotated/<name>.jsonl.*`), in
 * write order (rotated first). Lines that are not JSON records are counted, not returned.
 */
export function fileRecords(dir: string, name: string): { records: FileRecord[]; badLines: number } {
  const files: string[] = [];
  const rotated = join(dir, "rotated");
  if (existsSync(rotated)) {
    const mine = readdirSync(rotated).filter((f) => f.startsWith(`${name}.jsonl.`));
    mine.sort((a, b) => suffixOrder(a) - suffixOrder(b));
    files.push(...mine.map((f) => join(rotated, f)));
  }
  const current = join(dir, `${name}.jsonl`);
  if (existsSync(current)) files.push(current);
  const records: FileRecord[] = [];
  let badLines = 0;
  for (const file of files) {
    for (const line of readFileSync(file, "utf8").split("\n")) {
      if (line.trim() === "") continue;
      try {
        const r = JSON.parse(line) as FileRecord;
        if (typeof r.id === "string" && typeof r.body === "string") records.push(r);
        else badLines++;
      } catch {
        badLines++;
      }
    }
  }
  return { records, badLines };
}

/** `<name>.jsonl.<ms>-<n>` sorts by ms, then n. */
function suffixOrder(file: string): number {
  const m = /\.jsonl\.(\d+)-(\d+)$/.exec(file);
  return m ? Number(m[1]) * 1000 + Number(m[2]) : 0;
}

/** The bodies of the leader's `teammate-report` custom messages, one per delivered report. */
export function reportBodies(messages: readonly { customType: string; content: string }[]): string[] {
  return messages.filter((m) => m.customType === "teammate-report").map((m) => m.content);
}
