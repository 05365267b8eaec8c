import { mkdir, readdir, rename, stat } from "node:fs/promises";
import { errorText } from "../error-text.ts";
import { readRegularFile } from "./regular-file.ts";
import { basename, dirname, join } from "node:path";
import type { Static, TSchema } from "typebox";
import { TeamError } from "../errors.ts";
import { createFileExclusive } from "./exclusive-file.ts";
import { ensurePrivateDir, errnoCode, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "./fs-modes.ts";
import { checkValue } from "./validate.ts";

/** Marker file names are `<name>.json`; a name is 1-128 of `A-Z a-z 0-9 . _ -`, not starting with `.`. */
const NAME_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;
const SUFFIX = ".json";

/** Outcome of {@link publishIntent}. `exists`: a marker of that name is already there (not replaced). */
export type PublishResult = { ok: true; path: string } | { ok: false; reason: "exists"; path: string; message: string };

/**
 * Publishes a worker intent (a claim or submission) as the marker `<dir>/<name>.json`, with
 * exclusive-create semantics that never expose a partly written marker (L6, W5, R48):
 * the complete JSON is written and fsynced to a dot-prefixed temp file in the same dir, then
 * hard-linked to the marker name (link fails with EEXIST if the marker exists, so two workers
 * racing for the same name get exactly one winner), then the temp file is removed.
 * The dir is created with mode 0700 when missing; the marker has mode 0600.
 * @returns `{ok:true, path}`, or `{ok:false, reason:"exists"}` when the name is taken.
 * @throws TeamError `invalid_input` for a path-unsafe `name`; TeamError `io_error` naming the
 *   path for any other fs failure.
 */
export async function publishIntent(dir: string, name: string, record: unknown): Promise<PublishResult> {
  if (!NAME_PATTERN.test(name)) {
    throw new TeamError(
      "invalid_input",
      `Intent name ${JSON.stringify(name)} is not allowed; expected 1-128 characters of letters, digits, ".", "_", "-", not starting with "."`,
    );
  }
  const marker = join(dir, `${name}${SUFFIX}`);
  const created = await createFileExclusive({
    path: marker,
    content: `${JSON.stringify(record)}\n`,
    mode: PRIVATE_FILE_MODE,
    what: "intent",
    ensureDir: ensurePrivateDir,
  });
  if (created.ok) return { ok: true, path: marker };
  return { ok: false, reason: "exists", path: marker, message: `Intent ${marker} already exists; it was not replaced` };
}

/** Options of {@link readIntent}. */
export interface ReadIntentOptions {
  /**
   * How long an unparseable or invalid marker counts as "still being written", in ms since its
   * mtime. Within the grace it is reported `young-unparseable` (retry later, do not delete).
   */
  graceMs: number;
  /** Clock in ms since the epoch. Default Date.now. */
  now?: () => number;
}

/**
 * Outcome of {@link readIntent}.
 * - `missing`: the marker is gone (already consumed).
 * - `young-unparseable`: not (yet) valid and younger than the grace: leave it and read again
 *   later; never delete it (L6).
 * - `invalid`: still not valid after the grace: report `message` and move it aside with
 *   `consumeIntent(path, "invalid")`.
 *
 * `problem` is `message` without the file name; `parsed` is the JSON value when the marker
 * parsed but failed the schema (untrusted: e.g. to answer its sender if its id is usable).
 */
export type IntentRead<T> =
  | { ok: true; value: T }
  | { ok: false; reason: "missing"; message: string }
  | { ok: false; reason: "young-unparseable" | "invalid"; ageMs: number; message: string; problem: string; parsed?: unknown };

/**
 * Reads and validates one intent marker. Never throws for bad content; the message names the
 * file, the failing field and what was expected. Other fs errors than ENOENT are reported as
 * `invalid` only after the grace, like bad content.
 */
export async function readIntent<S extends TSchema>(
  path: string,
  schema: S,
  options: ReadIntentOptions,
): Promise<IntentRead<Static<S>>> {
  const now = options.now ?? Date.now;
  let problem: string;
  let parsed: unknown;
  try {
    const text = await readRegularFile(path); // a FIFO intent must not hold the scan
    parsed = JSON.parse(text);
    const checked = checkValue(schema, parsed);
    if (checked.ok) return { ok: true, value: checked.value };
    problem = checked.message;
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return { ok: false, reason: "missing", message: `Intent ${path} does not exist` };
    problem = error instanceof SyntaxError ? `not valid JSON (${error.message})` : `cannot read: ${errorText(error)}`;
  }
  let mtimeMs: number;
  try {
    mtimeMs = (await stat(path)).mtimeMs;
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return { ok: false, reason: "missing", message: `Intent ${path} does not exist` };
    mtimeMs = 0;
  }
  const ageMs = Math.max(0, now() - mtimeMs);
  const found = parsed === undefined ? {} : { parsed };
  if (ageMs < options.graceMs) {
    return { ok: false, reason: "young-unparseable", ageMs, message: `Intent ${path} (${Math.round(ageMs)} ms old): ${problem}; will retry`, problem, ...found };
  }
  return { ok: false, reason: "invalid", ageMs, message: `Intent ${path}: ${problem}`, problem, ...found };
}

/**
 * Lists the marker files (`*.json`, not dot-prefixed temp files, not subdirs) of an intent dir,
 * sorted by name. A missing dir yields []. Does not read the markers.
 * @throws TeamError `io_error` when the dir exists but cannot be read.
 */
export async function listIntents(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((e) => e.isFile() && e.name.endsWith(SUFFIX) && !e.name.startsWith("."))
      .map((e) => join(dir, e.name))
      .sort();
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return [];
    throw new TeamError("io_error", `Cannot list intents in ${dir}: ${errorText(error)}`, { cause: error });
  }
}

/**
 * Takes a marker out of the pending set by renaming it to `<dir>/<outcome>/<name>.<ms>.json`
 * (`done/` after it was applied, `invalid/` after it was rejected as unreadable). Renaming,
 * not unlinking, keeps an audit trail next to the persistent board (R58) and frees the marker
 * name for a later intent of the same name. Only the leader calls this.
 * @returns false when the marker was already gone.
 * @throws TeamError `io_error` when the rename fails for another reason.
 */
export async function consumeIntent(path: string, outcome: "done" | "invalid" = "done", now: () => number = Date.now): Promise<boolean> {
  const targetDir = join(dirname(path), outcome);
  const name = basename(path, SUFFIX);
  const target = join(targetDir, `${name}.${now()}${SUFFIX}`);
  try {
    await mkdir(targetDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    await rename(path, target);
    return true;
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return false;
    throw new TeamError("io_error", `Cannot move intent ${path} to ${target}: ${errorText(error)}`, { cause: error });
  }
}
