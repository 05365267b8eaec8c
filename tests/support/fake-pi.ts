/**
 * A fake ExtensionAPI that only captures `pi.on` handlers, and a stand-in for Pi's read, write
 * and edit tools that drives those handlers the way Pi 1.6.0's agent loop does: `tool_call`
 * handlers run in order and the first `{ block: true }` wins (the call then gets an error result
 * carrying the reason, no `tool_result` event, and a `tool_execution_end`); otherwise the tool
 * runs on the real file system, then `tool_result` (with `isError`) and `tool_execution_end` fire.
 * A read honours `offset`/`limit` and Pi's output limit as Pi 1.6.0's read tool does (via Pi's own
 * `truncateHead`), with `details.truncation` on a truncated result.
 * For unit tests and features of the edit guards; no pi process.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { truncateHead, type ExtensionAPI } from "@earendil-works/pi-coding-agent";

type Handler = (event: Record<string, unknown>, ctx: { cwd: string }) => unknown;

/** The fake and what it captured. */
export interface FakePi {
  readonly pi: ExtensionAPI;
  /** Live handlers of one event type. */
  handlers(type: string): Handler[];
  /** Runs every live handler of `event.type` in order and returns their results. */
  emit(event: { type: string } & Record<string, unknown>, cwd: string): Promise<unknown[]>;
}

/** A fake whose `on` records handlers and returns a working unsubscribe. Other API members are absent. */
export function createFakePi(): FakePi {
  const byType = new Map<string, Handler[]>();
  const on = (type: string, handler: Handler): (() => void) => {
    const list = byType.get(type) ?? [];
    list.push(handler);
    byType.set(type, list);
    return () => {
      const at = list.indexOf(handler);
      if (at !== -1) list.splice(at, 1);
    };
  };
  return {
    pi: { on } as unknown as ExtensionAPI,
    handlers: (type) => [...(byType.get(type) ?? [])],
    async emit(event, cwd) {
      const out: unknown[] = [];
      for (const handler of [...(byType.get(event.type) ?? [])]) out.push(await handler(event, { cwd }));
      return out;
    },
  };
}

/** What the model would see from one tool call. */
export interface ToolOutcome {
  readonly blocked: boolean;
  /** The block reason (the error text the model gets), when blocked. */
  readonly reason?: string;
  readonly isError: boolean;
  /** The tool's text (read: the file content; else a status or error line). */
  readonly text: string;
}

/** A tool call that passed (or failed) `tool_call` and has not run yet. */
export interface PreparedCall {
  readonly id: string;
  readonly toolName: "read" | "write" | "edit";
  readonly input: Record<string, unknown>;
  readonly blocked?: string;
}

/** Pi's file tools, run against `cwd` through the fake's hooks. */
export class FakeFileTools {
  readonly #fake: FakePi;
  readonly #cwd: string;
  #next = 0;

  constructor(fake: FakePi, cwd: string) {
    this.#fake = fake;
    this.#cwd = cwd;
  }

  /** Fires `tool_call` only (as Pi prepares every call of a parallel batch before running any). */
  async prepare(toolName: PreparedCall["toolName"], input: Record<string, unknown>): Promise<PreparedCall> {
    const id = `call-${++this.#next}`;
    const results = await this.#fake.emit({ type: "tool_call", toolName, toolCallId: id, input }, this.#cwd);
    const block = results.find((r): r is { block: true; reason?: string } => typeof r === "object" && r !== null && (r as { block?: unknown }).block === true);
    return { id, toolName, input, ...(block ? { blocked: block.reason ?? "Tool execution was blocked" } : {}) };
  }

  /** Runs a prepared call (unless blocked) and fires `tool_result` and `tool_execution_end`. */
  async run(call: PreparedCall): Promise<ToolOutcome> {
    if (call.blocked !== undefined) {
      await this.#fake.emit({ type: "tool_execution_end", toolCallId: call.id, toolName: call.toolName, isError: true, result: {} }, this.#cwd);
      return { blocked: true, reason: call.blocked, isError: true, text: call.blocked };
    }
    let text: string;
    let details: unknown;
    let isError = false;
    try {
      ({ text, details } = await this.#execute(call));
    } catch (error) {
      text = error instanceof Error ? error.message : String(error);
      isError = true;
    }
    const result = { toolCallId: call.id, toolName: call.toolName, input: call.input, content: [{ type: "text", text }], details, isError };
    await this.#fake.emit({ type: "tool_result", ...result }, this.#cwd);
    await this.#fake.emit({ type: "tool_execution_end", toolCallId: call.id, toolName: call.toolName, isError, result: {} }, this.#cwd);
    return { blocked: false, isError, text };
  }

  read(path: string): Promise<ToolOutcome> {
    return this.prepare("read", { path }).then((c) => this.run(c));
  }

  write(path: string, content: string): Promise<ToolOutcome> {
    return this.prepare("write", { path, content }).then((c) => this.run(c));
  }

  edit(path: string, oldText: string, newText: string): Promise<ToolOutcome> {
    return this.prepare("edit", { path, edits: [{ oldText, newText }] }).then((c) => this.run(c));
  }

  /** Where Pi's tools put `path` (leading "@" stripped; no "~" here). */
  resolve(path: string): string {
    return resolve(this.#cwd, path.replace(/^@/, ""));
  }

  async #execute(call: PreparedCall): Promise<{ text: string; details?: unknown }> {
    const path = this.resolve(String(call.input["path"]));
    if (call.toolName === "read") return readLines(await readFile(path, "utf8"), call.input["offset"], call.input["limit"]);
    if (call.toolName === "write") {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, String(call.input["content"]), "utf8");
      return { text: `Successfully wrote to ${String(call.input["path"])}` };
    }
    const before = await readFile(path, "utf8");
    const [edit] = call.input["edits"] as { oldText: string; newText: string }[];
    if (edit === undefined || !before.includes(edit.oldText)) throw new Error(`Could not find the exact text in ${String(call.input["path"])}`);
    await writeFile(path, before.replace(edit.oldText, edit.newText), "utf8");
    return { text: `Successfully replaced 1 block(s) in ${String(call.input["path"])}.` };
  }
}

/** Pi's line selection (1-based `offset`, `limit`) and head truncation of a text file. */
function readLines(content: string, offset: unknown, limit: unknown): { text: string; details?: unknown } {
  const lines = content.split("\n");
  const start = typeof offset === "number" && offset > 0 ? offset - 1 : 0;
  if (start >= lines.length) throw new Error(`Offset ${String(offset)} is beyond end of file (${lines.length} lines total)`);
  const end = typeof limit === "number" ? Math.min(start + limit, lines.length) : lines.length;
  const truncation = truncateHead(lines.slice(start, end).join("\n"));
  return truncation.truncated ? { text: truncation.content, details: { truncation } } : { text: truncation.content };
}

/** The three dirs a guarded teammate sees, made under `root`: the project, the runtime dir and the board dir (with `claims/`). */
export async function makeGuardDirs(root: string): Promise<{ project: string; runtimeDir: string; boardDir: string }> {
  const dirs = { project: join(root, "project"), runtimeDir: join(root, "runtime"), boardDir: join(root, "board") };
  await mkdir(dirs.project, { recursive: true });
  await mkdir(dirs.runtimeDir, { recursive: true });
  await mkdir(join(dirs.boardDir, "claims"), { recursive: true });
  return dirs;
}
