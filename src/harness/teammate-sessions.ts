/**
 * Each teammate incarnation's Pi session file (issue 20): its transcript, kept beside the board
 * under the session key, `<board dir>/sessions/<name>-<spawn id>/`, with the board's lifetime
 * (kept after the session, never deleted by the team). One directory per incarnation, so a bwrap
 * box binds its own and no other. Pi names the file in it (`<timestamp>_<session id>.jsonl`).
 *
 * The teammate can write its session file as it likes: what the leader reads of one (for a
 * successor's fork) is checked, bounded, and never blocks (a FIFO or symlink is refused).
 */
import { constants } from "node:fs";
import { lstat, open, readdir } from "node:fs/promises";
import { join } from "node:path";
import { Type } from "typebox";
import { chooseHandoffContext, type HandoffContext } from "../team/handoff.ts";
import { checkValue, readTail } from "../store/index.ts";
import { errorText } from "../error-text.ts";

/** Bytes read from the end of a session file to find its last assistant message's usage. */
const TAIL_BYTES = 256 * 1024;
/** Files of a session dir checked for a header, newest names first. */
const MAX_CANDIDATES = 8;
/** Bytes read from the start of a session file for its header line. */
const HEADER_BYTES = 64 * 1024;

/** The directory of one incarnation's session: `<board dir>/sessions/<name>-<spawn id>`. */
export function teammateSessionDir(boardDir: string, name: string, spawnId: string): string {
  return join(boardDir, "sessions", `${name}-${spawnId}`);
}

/**
 * The session file Pi wrote in `dir` (a real directory, not a symlink): the last by name (Pi's
 * names start with the time) of its regular `.jsonl` files, of the last MAX_CANDIDATES, whose
 * first line is a Pi session header (a symlink, a FIFO or a file a
 * teammate filled with something else is not one: Pi would refuse to fork it). Undefined when
 * there is none yet: Pi writes the file at the first message of a conversation, so a teammate never
 * woken has none. Never throws.
 */
export async function sessionFileIn(dir: string): Promise<string | undefined> {
  let names: string[];
  try {
    if (!(await lstat(dir)).isDirectory()) return undefined; // a symlink in its place leads elsewhere
    names = (await readdir(dir)).filter((n) => n.endsWith(".jsonl")).sort();
  } catch {
    return undefined;
  }
  // Pi writes one file per dir; a dir a teammate filled with names costs at most these checks.
  for (const name of names.reverse().slice(0, MAX_CANDIDATES)) {
    const path = join(dir, name);
    const stat = await lstat(path).catch(() => undefined);
    if (stat?.isFile() && (await startsWithHeader(path))) return path;
  }
  return undefined;
}

const SessionHeader = Type.Object({ type: Type.Literal("session"), id: Type.String({ minLength: 1 }) });

/** Whether the first line of `file` (within HEADER_BYTES) is a Pi session header. Never throws. */
async function startsWithHeader(file: string): Promise<boolean> {
  try {
    const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
    try {
      if (!(await handle.stat()).isFile()) return false;
      const buffer = Buffer.alloc(HEADER_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, HEADER_BYTES, 0);
      const first = buffer.subarray(0, bytesRead).toString("utf8").split("\n")[0] ?? "";
      return checkValue(SessionHeader, JSON.parse(first)).ok;
    } finally {
      await handle.close();
    }
  } catch {
    return false;
  }
}

const AssistantUsage = Type.Object({
  type: Type.Literal("message"),
  message: Type.Object({ role: Type.Literal("assistant"), usage: Type.Object({ totalTokens: Type.Number({ minimum: 0 }) }) }),
});

/**
 * The tokens in the context at the last assistant message of the session file at `file` (its
 * `usage.totalTokens`), read from the last TAIL_BYTES (256 KiB); undefined when that tail holds
 * none. Lines that are not JSON or not of that shape are skipped.
 * @throws Error when the file cannot be opened as a regular file (missing, a symlink, a FIFO).
 */
export async function lastContextTokens(file: string): Promise<number | undefined> {
  const { text } = await readTail(file, TAIL_BYTES);
  for (const line of text.split("\n").reverse()) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    const checked = checkValue(AssistantUsage, value);
    if (checked.ok) return checked.value.message.usage.totalTokens;
  }
  return undefined;
}

/**
 * How the successor of the incarnation whose session lived in `dir` starts (`chooseHandoffContext`):
 * `dir` undefined means the predecessor had no session (a launcher that runs pi elsewhere). Never throws.
 */
export async function handoffContextFrom(dir: string | undefined): Promise<HandoffContext> {
  if (dir === undefined) return chooseHandoffContext({ missing: "it ran without a session file here (its launcher runs pi elsewhere)" });
  const file = await sessionFileIn(dir);
  if (file === undefined) return chooseHandoffContext({ missing: "its session has no conversation yet (no Pi session file in its session dir)" });
  try {
    const tokens = await lastContextTokens(file);
    return chooseHandoffContext({ file, ...(tokens !== undefined ? { tokens } : {}) });
  } catch (error) {
    return chooseHandoffContext({ missing: `its session file could not be read (${errorText(error)})` });
  }
}

/**
 * `notebook` when it is missing (it is then made) or a real directory; undefined, with a `note`,
 * when something else is there. A teammate with bash can put a symlink in its place: followed,
 * it would be made 0700, bound into boxes and exempted from the edit guards wherever it points.
 * Never throws.
 */
export async function usableNotebook(notebook: string, note: (text: string) => void): Promise<string | undefined> {
  const stat = await lstat(notebook).catch(() => undefined);
  if (stat === undefined || stat.isDirectory()) return notebook;
  note(`the team notebook ${notebook} is not a directory (${stat.isSymbolicLink() ? "a symlink" : "another kind of file"}); this teammate was not given it. Remove it, and the next spawn makes the notebook again.`);
  return undefined;
}
