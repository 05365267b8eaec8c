/**
 * The I/O shell of the edit guards of a teammate that shares the leader's working tree
 * (rules: src/guard/resource-guard.ts, src/guard/stale-write.ts; user docs:
 * docs/edit-guards-readme-section.md). Through Pi's `tool_call` hook it blocks an `edit` or
 * `write` into a resource another living teammate holds, and a `write` over a file this teammate
 * has not seen in its current state; `tool_result` records the versions it has seen.
 *
 * What it cannot guard: `bash`, `powershell` and every other process write files without passing
 * through these hooks. Worktree teammates get no guards (their tree is their own).
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readlink, realpath } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { homedir } from "node:os";
import { isToolCallEventType, type ExtensionAPI, type ToolCallEvent, type ToolCallEventResult } from "@earendil-works/pi-coding-agent";
import {
  checkResourceGuard,
  checkStaleWrite,
  FileVersions,
  othersHoldings,
  projectRelative,
  resolveToolPath,
  type DiskState,
  type Holding,
} from "../guard/index.ts";
import { readRosterFile } from "../mail/index.ts";
import { errnoCode, errorText, runtimeLayoutAt } from "../store/index.ts";
import type { Identity } from "../team/identity.ts";

type WorkerIdentity = Extract<Identity, { role: "worker" }>;

/** Options of `registerEditGuards`; every field has a production default. */
export interface EditGuardOptions {
  /** The roster to read holdings from. Default: `roster.json` in `me.runtimeDir`. */
  readonly rosterPath?: string;
  /**
   * Receives one line when resource holdings could not be checked (fail open), once per distinct
   * message. Default: the process's stderr, which the leader keeps in `logs/<name>.log`. Must not throw.
   */
  readonly note?: (line: string) => void;
  /** Home dir for "~" in tool paths. Default: `os.homedir()`. */
  readonly homeDir?: string;
}

/** Where a tool path lands: its canonical path, its project-relative forms, and how to name it. */
interface Target {
  /** Symlinks resolved as far as the file system allows; the key of the version map. */
  readonly real: string;
  /** Project-relative forms ("/"-separated) of the lexical and the resolved path; empty when outside. */
  readonly rels: readonly string[];
  /** Project-relative when inside the project, else absolute. */
  readonly display: string;
}

const MAX_NOTES = 20;
const MAX_LINK_HOPS = 40;

/**
 * Registers the edit guards on `pi` for teammate `me`, unless `me.worktree` is set (then nothing
 * is registered). The project root is the session cwd (`ctx.cwd`) at each call.
 *
 * - Resource guard: an `edit`/`write` whose target is at or under a tag held by another living
 *   teammate (roster.json `holds`) is blocked, naming holder and task. The roster is read at each
 *   guarded call. When it is missing or unreadable, holdings are not checked (fail open: the
 *   board still refuses overlapping claims) and `options.note` gets one line.
 * - Stale-write guard: a `write` over an existing file this teammate never read, or that changed
 *   since it last read or wrote it, is blocked. Fails closed: a file that cannot be hashed blocks.
 *
 * A guard never throws into Pi: an unexpected failure while checking an edit or write blocks that
 * call with a message saying so. The version map lives in this registration only.
 * @returns a function removing every handler it registered (idempotent).
 */
export function registerEditGuards(
  pi: ExtensionAPI,
  me: Pick<WorkerIdentity, "name" | "runtimeDir" | "worktree">,
  options: EditGuardOptions = {},
): () => void {
  if (me.worktree) return () => {};
  const rosterPath = options.rosterPath ?? runtimeLayoutAt(me.runtimeDir).roster;
  const home = options.homeDir ?? homedir();
  const versions = new FileVersions();
  const noted = new Set<string>();
  const note = (line: string): void => {
    if (noted.has(line) || noted.size >= MAX_NOTES) return;
    noted.add(line);
    try {
      (options.note ?? ((l: string) => process.stderr.write(`${l}\n`)))(line);
    } catch {
      // A note is best effort; it must never turn into a blocked call.
    }
  };

  const holdings = async (): Promise<Holding[]> => {
    const roster = await readRosterFile(rosterPath);
    if (roster.ok) return othersHoldings(roster.value, me.name);
    note(`[edit-guards] resource holdings not checked (fail open, the board still enforces claims): ${roster.message}`);
    return [];
  };

  const guard = async (event: ToolCallEvent, cwd: string): Promise<ToolCallEventResult | undefined> => {
    if (isToolCallEventType("read", event)) {
      const target = await locate(event.input.path, cwd, home);
      const disk = await diskState(target.real);
      if (disk.kind === "present") versions.begin(event.toolCallId, { tool: "read", path: target.real, hash: disk.hash });
      return undefined;
    }
    let tool: "edit" | "write";
    let path: unknown;
    if (isToolCallEventType("edit", event)) [tool, path] = ["edit", event.input.path];
    else if (isToolCallEventType("write", event)) [tool, path] = ["write", event.input.path];
    else return undefined;
    if (typeof path !== "string") return undefined; // Pi validated the input; let its tool report anything else
    const target = await locate(path, cwd, home);
    if (target.rels.length > 0) {
      const held = checkResourceGuard({ tool, display: target.display, paths: target.rels, holdings: await holdings() });
      if (!held.ok) return { block: true, reason: held.message };
    }
    if (tool === "write") {
      const stale = checkStaleWrite({ display: target.display, disk: await diskState(target.real), known: versions.known(target.real) });
      if (!stale.ok) return { block: true, reason: stale.message };
    }
    versions.begin(event.toolCallId, { tool, path: target.real });
    return undefined;
  };

  const offCall = pi.on("tool_call", async (event, ctx) => {
    try {
      return await guard(event, ctx.cwd);
    } catch (error) {
      if (event.toolName !== "edit" && event.toolName !== "write") return undefined; // a read is only observed
      return {
        block: true,
        reason: `${event.toolName} blocked: the edit guard could not check this call (${errorText(error)}). Nothing was changed. Try again; if it keeps failing, tell the leader.`,
      };
    }
  });

  const offResult = pi.on("tool_result", async (event) => {
    try {
      const content = event.toolName === "write" ? event.input["content"] : undefined;
      const settled = versions.settle(event.toolCallId, { isError: event.isError, ...(typeof content === "string" ? { writtenContent: content } : {}) });
      if (settled.kind !== "read_back") return;
      const disk = await diskState(settled.path);
      if (disk.kind === "present") versions.record(settled.path, disk.hash);
      else versions.forget(settled.path);
    } catch {
      // Recording is best effort: a version not recorded only makes a later write read first.
    }
  });

  // A call blocked by another extension after this one ran gets no tool_result: drop its entry.
  const offEnd = pi.on("tool_execution_end", (event) => versions.discard(event.toolCallId));

  let registered = true;
  return () => {
    if (!registered) return;
    registered = false;
    offCall();
    offResult();
    offEnd();
  };
}

/** Resolves a tool path like Pi's tools, then follows symlinks; never throws. */
async function locate(path: string, cwd: string, home: string): Promise<Target> {
  const root = resolveToolPath(".", cwd, home);
  const abs = resolveToolPath(path, cwd, home);
  const [rootReal, real] = await Promise.all([canonical(root), canonical(abs)]);
  const lexical = projectRelative(root, abs);
  const forms = [lexical, projectRelative(rootReal, real), projectRelative(rootReal, abs)];
  const rels = [...new Set(forms.filter((f): f is string => f !== undefined))];
  return { real, rels, display: lexical ?? rels[0] ?? abs };
}

/**
 * `abs` with symlinks resolved: the realpath of its longest existing prefix plus the rest, and a
 * dangling symlink followed by hand, so neither a link nor a not-yet-existing file lets a write
 * land somewhere the check did not look. Falls back to `abs` on other errors. Never throws.
 */
async function canonical(abs: string, hops = 0): Promise<string> {
  const rest: string[] = [];
  let head = abs;
  for (;;) {
    try {
      const real = await realpath(head);
      return join(real, ...rest.reverse());
    } catch (error) {
      const code = errnoCode(error);
      if (code !== "ENOENT" && code !== "ENOTDIR") return abs;
      if (code === "ENOENT" && hops < MAX_LINK_HOPS) {
        const link = await readlink(head).catch(() => undefined);
        if (link !== undefined) return canonical(join(resolve(dirname(head), link), ...rest.reverse()), hops + 1);
      }
      const parent = dirname(head);
      if (parent === head) return abs;
      rest.push(basename(head));
      head = parent;
    }
  }
}

/** The sha256 of the file at `path` (streamed), `absent` when there is none, else `unreadable`. Never throws. */
async function diskState(path: string): Promise<DiskState> {
  try {
    const hash = createHash("sha256");
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
    return { kind: "present", hash: hash.digest("hex") };
  } catch (error) {
    const code = errnoCode(error);
    if (code === "ENOENT" || code === "ENOTDIR") return { kind: "absent" };
    return { kind: "unreadable", message: errorText(error) };
  }
}
