/**
 * Writes the run export (issue 20 scope 5): `/agent-teams export [file]`, and at the end of a
 * session when `PI_TEAMMATE_EXPORT` names a file (for `pi -p`). The page itself is pure
 * (src/ui/export-page.ts); here are its inputs: the console's snapshot, the feed's timeline and
 * incarnations, and each incarnation's transcript, made by Pi's own `pi --export` of its session
 * file. A teammate wrote that file and can make it huge or make the export fail: each transcript
 * is bounded in time and size, and one that fails gives way to plain lines or a note.
 */
import { lstat, mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { execa } from "execa";
import writeFileAtomic from "write-file-atomic";
import { errorText } from "../error-text.ts";
import { readTranscript } from "../feed/index.ts";
import { sessionFileIn } from "../harness/index.ts";
import type { Member } from "../team/member.ts";
import { exportPage, type ExportTeammate, type ExportTranscript } from "../ui/export-page.ts";
import { teammateRow } from "../ui/snapshot.ts";
import type { TeamSession } from "./team-session.ts";

/** Longest time all `pi --export` runs of one export may take together, in ms. */
export const PI_EXPORT_DEADLINE_MS = 60_000;
/** `pi --export` runs at once. */
export const PI_EXPORT_PARALLEL = 2;
/** Largest Pi export page embedded, in bytes; a larger one gives way to the plain transcript. */
export const PI_EXPORT_MAX_BYTES = 16 * 1024 * 1024;
/** Pi export pages embedded in one export, in bytes all told; past it, plain transcripts. */
export const PI_EXPORT_TOTAL_BYTES = 64 * 1024 * 1024;

/**
 * The file an export goes to: `file` (one pair of surrounding quotes dropped, a leading `~/` the
 * home directory) resolved against `cwd`; with no file, or a file that is a directory,
 * `pi-team-<key>-<UTC yyyymmdd-hhmmss>.html` in `cwd` or that directory (as Pi's own `/export`
 * writes beside the work).
 */
export async function exportFile(cwd: string, key: string, file: string | undefined, now: number = Date.now()): Promise<string> {
  const stamp = new Date(now).toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  const name = `pi-team-${key}-${stamp}.html`;
  let f = file?.trim().replace(/^(["'])(.*)\1$/, "$2") ?? "";
  if (f === "") return join(cwd, name);
  if (f === "~" || f.startsWith("~/")) f = join(homedir(), f.slice(1));
  const target = isAbsolute(f) ? f : resolve(cwd, f);
  const isDir = await stat(target).then((st) => st.isDirectory(), () => false);
  return isDir ? join(target, name) : target;
}

/**
 * Writes the export of session `s` to `file` atomically (its directory must exist; a symlink at
 * `file` is refused, so a teammate cannot point the leader's write elsewhere). Lists every
 * incarnation the feed saw. A transcript never fails the export: Pi's export of its session file,
 * else its plain lines, else a note why there is none.
 * @returns the file and how many transcripts are embedded. @throws when the file cannot be written.
 */
export async function writeRunExport(s: TeamSession, file: string, now: number = Date.now()): Promise<{ file: string; transcripts: number }> {
  if (await lstat(file).then((st) => st.isSymbolicLink(), () => false)) throw new Error(`${file} is a symbolic link; give a plain file`);
  const incarnations = s.feed.incarnations();
  const teammates: ExportTeammate[] = incarnations.map((m) => ({ ...teammateRow({ feed: s.feed, board: s.board.board }, m), spawnId: m.spawnId }));
  const transcripts = await exportTranscripts(s.piCli, incarnations);
  const html = exportPage({
    key: s.key,
    cwd: s.cwd,
    startedAt: s.feed.timeline.startedAt,
    endedAt: now,
    snapshot: s.snapshot(now),
    teammates,
    timeline: s.feed.timeline.events(),
    transcripts,
  });
  await writeFileAtomic(file, html, "utf8");
  return { file, transcripts: transcripts.filter((t) => t.html || t.lines).length };
}

/**
 * Every incarnation's transcript: Pi's export page (`process.execPath <piCli> --export`), else
 * its plain lines with the reason, else a note; `PI_EXPORT_PARALLEL` at a time, all within
 * `PI_EXPORT_DEADLINE_MS`, the pages within `PI_EXPORT_TOTAL_BYTES`. Never rejects.
 */
export async function exportTranscripts(piCli: string, members: readonly Pick<Member, "name" | "spawnId" | "holdings">[]): Promise<ExportTranscript[]> {
  const out: ExportTranscript[] = new Array(members.length);
  const deadline = AbortSignal.timeout(PI_EXPORT_DEADLINE_MS);
  const budget = { bytes: PI_EXPORT_TOTAL_BYTES };
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < members.length; i = next++) {
      const m = members[i]!;
      out[i] = await transcriptOf(piCli, m.name, m.spawnId, m.holdings.session, deadline, budget);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PI_EXPORT_PARALLEL, members.length) }, worker));
  return out;
}

async function transcriptOf(piCli: string, name: string, spawnId: string, dir: string | undefined, deadline: AbortSignal, budget: { bytes: number }): Promise<ExportTranscript> {
  if (!dir) return { name, spawnId, note: "No session file: its launcher runs pi elsewhere." };
  const session = await sessionFileIn(dir);
  if (!session) return { name, spawnId, note: "No conversation yet: Pi writes the session file at the first message." };
  let tmp: string | undefined;
  try {
    if (deadline.aborted) throw new Error(`the export's ${PI_EXPORT_DEADLINE_MS} ms for Pi's transcript pages ran out`);
    tmp = await mkdtemp(join(tmpdir(), "pi-team-export-"));
    const out = join(tmp, "session.html");
    await execa(process.execPath, [piCli, "--export", session, out], { cancelSignal: deadline, stdin: "ignore", forceKillAfterDelay: 1000 });
    const size = (await stat(out)).size;
    if (size > PI_EXPORT_MAX_BYTES || size > budget.bytes) throw new Error(`its page (${size} bytes) is over the export's limit`);
    budget.bytes -= size;
    return { name, spawnId, html: await readFile(out, "utf8") };
  } catch (error) {
    const why = `(Pi's export of ${session} was not embedded: ${errorText(error).split("\n")[0]}; the plain transcript follows)`;
    const lines = await readTranscript(session).catch((e: unknown) => [`(the transcript could not be read either: ${errorText(e)})`]);
    return { name, spawnId, lines: [why, ...lines] };
  } finally {
    if (tmp) await rm(tmp, { recursive: true, force: true }).catch(() => undefined);
  }
}

/**
 * At the end of a session (Pi's `quit`: the user quit, or a `pi -p` run ended), after its team
 * stopped: writes the export to `PI_TEAMMATE_EXPORT` when that names a file. Not at `/reload`,
 * `/new`, `/resume` or `/fork`, whose session's export would overwrite the run's with a part.
 * @returns the line for the user: where it went, or why it did not; undefined when unset.
 */
export async function exportAtEnd(s: TeamSession, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const file = env.PI_TEAMMATE_EXPORT?.trim();
  if (!file) return undefined;
  const target = await exportFile(s.cwd, s.key, file);
  try {
    const r = await writeRunExport(s, target);
    return `pi-resident-teams: run exported to ${r.file} (PI_TEAMMATE_EXPORT).`;
  } catch (error) {
    return `pi-resident-teams: PI_TEAMMATE_EXPORT: the run export could not be written to ${target}: ${errorText(error)}`;
  }
}
