/**
 * The I/O shell of a teammate's edit guards (rules: src/guard/write-scope.ts,
 * src/guard/resource-guard.ts, src/guard/stale-write.ts; user docs: references/edit-guards.md).
 * Through Pi's `tool_call` hook it blocks an `edit` or `write`:
 *
 * - into the team's own state, the runtime dir or the board dir, except the team notebook in it
 *   (every teammate);
 * - into Pi's configuration: a `.pi` dir of the project or of its worktree, or the user's agent
 *   dir (every teammate; src/guard/pi-config.ts);
 * - to a file with more than one hard link (every teammate): a second name escapes every path rule;
 * - for a worktree teammate, into the shared project outside its own worktree;
 * - for a shared-tree teammate, into a resource another living teammate holds, and a `write`
 *   over a file this teammate has not seen whole in its current state; `tool_result` records the
 *   versions it has seen.
 *
 * What it cannot guard: `bash`, `powershell` and every other process write files without passing
 * through these hooks, so a teammate with bash can still rewrite the team state. Identity that
 * cannot be forged that way is the job of a later issue.
 */
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";
import { isReadToolResult, isToolCallEventType, type ExtensionAPI, type ToolCallEvent, type ToolCallEventResult, type ToolResultEvent } from "@earendil-works/pi-coding-agent";
import { errorText } from "../error-text.ts";
import { checkHardLinks, checkPiConfig, checkResourceGuard, checkStaleWrite, checkWriteScope, chooseHoldings, FileVersions, relativeWithin, type Holding, type PathForms, type WriteScopeInput } from "../guard/index.ts";
import { readRosterFile, type RosterFile } from "../mail/index.ts";
import { agentDir, runtimeLayoutAt, type ReadResult } from "../store/index.ts";
import type { Identity } from "../mail/identity.ts";
import { diskState, dirForms, linkCount, locate, piConfigDirs, type Target } from "./guard-fs.ts";

type WorkerIdentity = Extract<Identity, { role: "worker" }>;

/** Options of `registerEditGuards`; every field has a production default. */
export interface EditGuardOptions {
  /** The roster to read holdings from. Default: `roster.json` in `me.runtimeDir`. */
  readonly rosterPath?: string;
  /** Reads the roster instead of `rosterPath` (a stream teammate's last roster from the leader). */
  readonly readRoster?: () => Promise<ReadResult<RosterFile>>;
  /**
   * Receives one line when resource holdings could not be checked (fail open) or were taken from
   * the last valid roster, once per distinct message. Default: the process's stderr, which the
   * leader keeps in `logs/<name>.log`. Must not throw.
   */
  readonly note?: (line: string) => void;
  /** Home dir for "~" in tool paths. Default: `os.homedir()`. */
  readonly homeDir?: string;
  /** The user's Pi agent dir, which teammates never write. Default: PI_CODING_AGENT_DIR, else `~/.pi/agent`. */
  readonly agentDir?: string;
}

const MAX_NOTES = 20;

/**
 * Registers the edit guards on `pi` for teammate `me`. The project root of a shared-tree
 * teammate is the session cwd (`ctx.cwd`) at each call.
 *
 * - Scope (all teammates): an `edit`/`write` into `me.runtimeDir` or `me.boardDir` is blocked,
 *   saying which team tool to use; one into Pi's configuration (a `.pi` dir of `me.project`, else
 *   of the cwd, or of `me.worktree`; the agent dir outside `me.worktree`) is blocked, saying it is
 *   the user's. For a worktree teammate (`me.worktree` set) whose leader named
 *   the shared project (`me.project`), one into the project outside its worktree is blocked too.
 *   An `edit`/`write` to a file with more than one hard link is blocked too (checkHardLinks).
 *   The team notebook (`me.notebook`) is exempt from the team-state and Pi-config rules. A
 *   worktree teammate gets only these, plus the stale-write guard in the notebook.
 * - Resource guard (shared tree): an `edit`/`write` at or under a tag held by another living
 *   teammate (roster.json `holds`, read at each guarded call) is blocked, naming holder and task.
 *   A missing or invalid roster before any valid one fails open; after a valid one, the last
 *   valid holdings stay in force. Either way `options.note` gets one line.
 * - Stale-write guard (shared tree, and the team notebook for every teammate): a `write` over an
 *   existing file this teammate never read, read only in part (offset/limit, or a truncated
 *   result), or that changed since it last read or wrote it, is blocked. Fails closed: a file that
 *   cannot be hashed blocks.
 *
 * A guard never throws into Pi: an unexpected failure while checking an edit or write blocks that
 * call with a message saying so. The version map lives in this registration only.
 * @returns a function removing every handler it registered (idempotent); its `ready` settles
 *   once the roster read at registration is done (never rejects; for tests).
 */
export function registerEditGuards(
  pi: ExtensionAPI,
  me: Pick<WorkerIdentity, "name" | "runtimeDir" | "boardDir" | "worktree" | "project" | "notebook">,
  options: EditGuardOptions = {},
): (() => void) & { readonly ready: Promise<void> } {
  const rosterPath = options.rosterPath ?? runtimeLayoutAt(me.runtimeDir).roster;
  const readRoster = options.readRoster ?? (() => readRosterFile(rosterPath));
  const home = options.homeDir ?? homedir();
  const piAgentDir = options.agentDir ?? agentDir(process.env);
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

  // The holdings of the last valid roster. The leader writes the roster before it starts a
  // teammate, so reading it now means a roster broken before the first guarded call keeps them.
  let last: readonly Holding[] | undefined;
  const primed = me.worktree
    ? Promise.resolve()
    : readRoster().then(
        (r) => {
          if (r.ok) last = chooseHoldings({ ok: true, roster: r.value }, me.name, undefined).last;
        },
        () => undefined,
      );
  const holdings = async (): Promise<{ holdings: readonly Holding[]; fromLastKnown: boolean }> => {
    await primed;
    const roster = await readRoster();
    const choice = chooseHoldings(roster.ok ? { ok: true, roster: roster.value } : { ok: false, message: roster.message }, me.name, last);
    last = choice.last;
    if (choice.note !== undefined) note(choice.note);
    return { holdings: choice.holdings, fromLastKnown: choice.fromLastKnown };
  };

  // The notebook's forms: the board dir's forms joined with its name, resolved once. Never through
  // a link at the notebook itself: a notebook replaced by a symlink (to the agent dir, say) would
  // otherwise exempt its target from every rule.
  const notebook = me.notebook ? notebookForms(me.notebook, home) : undefined;
  /** Every form of the target is in the notebook (a symlink out of it is not). */
  const inNotebook = async (target: Target): Promise<boolean> => {
    const forms = await notebook;
    return forms !== undefined && [target.abs, target.real].every((p) => forms.some((d) => relativeWithin(d, p) !== undefined));
  };

  const scope = async (tool: "edit" | "write", target: Target, cwd: string): Promise<ToolCallEventResult | undefined> => {
    const paths = target.abs === target.real ? [target.abs] : [target.abs, target.real];
    const input: WriteScopeInput = {
      tool,
      display: target.display,
      paths,
      runtimeDir: await dirForms(me.runtimeDir, home),
      boardDir: await dirForms(me.boardDir, home),
      ...(notebook ? { notebook: await notebook } : {}),
      ...(me.worktree && me.project
        ? { worktree: { dir: await dirForms(me.worktree, home), project: await dirForms(me.project, home), cwd } }
        : {}),
    };
    const verdict = checkWriteScope(input);
    // Team state first (its message names the team tool to use), then Pi's configuration, then the shared tree.
    if (!verdict.ok && verdict.reason === "team_state") return { block: true, reason: verdict.message };
    // The notebook lies in the agent dir (beside the board) but is no Pi configuration: Pi reads nothing there.
    if (await inNotebook(target)) return verdict.ok ? undefined : { block: true, reason: verdict.message };
    const config = checkPiConfig({ tool, display: target.display, paths, ...(await piConfigDirs(me, cwd, piAgentDir, home)) });
    if (!config.ok) return { block: true, reason: config.message };
    return verdict.ok ? undefined : { block: true, reason: verdict.message };
  };

  const guard = async (event: ToolCallEvent, cwd: string): Promise<ToolCallEventResult | undefined> => {
    if (isToolCallEventType("read", event)) {
      if (me.worktree && !notebook) return undefined;
      const target = await locate(event.input.path, cwd, home);
      if (me.worktree && !(await inNotebook(target))) return undefined;
      const disk = await diskState(target.real);
      const whole = event.input.offset === undefined && event.input.limit === undefined;
      if (disk.kind === "present") versions.begin(event.toolCallId, { tool: "read", path: target.real, hash: disk.hash, whole });
      return undefined;
    }
    let tool: "edit" | "write";
    let path: unknown;
    if (isToolCallEventType("edit", event)) [tool, path] = ["edit", event.input.path];
    else if (isToolCallEventType("write", event)) [tool, path] = ["write", event.input.path];
    else return undefined;
    if (typeof path !== "string") return undefined; // Pi validated the input; let its tool report anything else
    const target = await locate(path, cwd, home);
    const outOfScope = await scope(tool, target, cwd);
    if (outOfScope !== undefined) return outOfScope;
    const linked = checkHardLinks({ tool, display: target.display, links: await linkCount(target.real) });
    if (!linked.ok) return { block: true, reason: linked.message };
    // A worktree teammate shares only the notebook: there the stale-write guard applies to it too.
    if (me.worktree && !(await inNotebook(target))) return undefined;
    if (target.rels.length > 0) {
      const held = checkResourceGuard({ tool, display: target.display, paths: target.rels, ...(await holdings()) });
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
  // A worktree teammate keeps versions of notebook files only; without a notebook, none.
  if (me.worktree && !notebook) return Object.assign(once(offCall), { ready: primed });

  const offResult = pi.on("tool_result", async (event) => {
    try {
      const content = event.toolName === "write" ? event.input["content"] : undefined;
      const settled = versions.settle(event.toolCallId, {
        isError: event.isError,
        ...(typeof content === "string" ? { writtenContent: content } : {}),
        ...(readWasTruncated(event) ? { truncated: true } : {}),
      });
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

  return Object.assign(once(offCall, offResult, offEnd), { ready: primed });
}

/**
 * True when a read's result says Pi cut it short: Pi 1.6.0's read tool sets
 * `details.truncation` (`TruncationResult`, `truncated: true`) when it hit its line or byte limit,
 * including a first line over the byte limit. Other shapes count as not truncated.
 */
function readWasTruncated(event: ToolResultEvent): boolean {
  if (!isReadToolResult(event)) return false;
  const truncation: unknown = (event.details as { truncation?: unknown } | undefined)?.truncation;
  return typeof truncation === "object" && truncation !== null && (truncation as { truncated?: unknown }).truncated === true;
}

/** One function calling each of `offs` the first time it is called. */
function once(...offs: (() => void)[]): () => void {
  let registered = true;
  return () => {
    if (!registered) return;
    registered = false;
    for (const off of offs) off();
  };
}

/** The forms of the notebook dir: its parent's forms (symlinks resolved) joined with its own name. */
async function notebookForms(notebook: string, home: string): Promise<PathForms> {
  const [first, ...rest] = await dirForms(dirname(notebook), home);
  const name = basename(notebook);
  return [join(first, name), ...rest.map((f) => join(f, name))];
}
